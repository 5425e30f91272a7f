"""BPE-dropout that does not draw when nothing can be dropped (catalogue: a correct
alternative, edited into the reference).

With ``p = 0`` a draw can never fall below ``p``, so this loop skips it: plain BPE then
leaves the generator untouched. For ``0 < p`` it draws exactly as the spec fixes. The
segmentations are the spec's for every seed; only the generator's state after ``p = 0``
differs, which only the fixed-seed test checks, and its message must say that the number or
order of draws is all that differs.
"""


def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)  # noqa: F821 - the reference's (this file is edited into it)
    ranks = merge_ranks(merges)  # noqa: F821
    symbols = list(word)
    dropped = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if p > 0 and rng.random() < p:
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        dropped.clear()
