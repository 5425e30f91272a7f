"""BPE-dropout that draws for every candidate before it chooses (catalogue: a correct
alternative, edited into the reference).

Each round draws ``rng.random()`` once for every standing candidate, in order of
``(rank, position)``, then looks only at the draw of the best one. The draws it ignores
never decide anything, so every segmentation comes out with the spec's probability; only
the number of draws differs, so the generator ends in another state and a fixed seed gives
other segmentations. Only the fixed-seed test may charge it, and its message must say that
the number or order of draws is all that differs.
"""


def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)  # noqa: F821 - the reference's (this file is edited into it)
    ranks = merge_ranks(merges)  # noqa: F821
    symbols = list(word)
    dropped = set()
    while True:
        candidates = sorted((ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                            if pair in ranks and i not in dropped)
        if not candidates:
            return symbols
        draws = [rng.random() for _ in candidates]  # one draw per candidate, best first
        _, i = candidates[0]
        if draws[0] < p:
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        dropped.clear()
