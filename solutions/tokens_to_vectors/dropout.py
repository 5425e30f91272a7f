"""Part 4: BPE-dropout, a different segmentation of the same word each time it is used.

Follows the authors' reference implementation (Provilkov et al., ACL 2020,
VProv/BPE-Dropout's ``tokenize_word``), not a replay of the merge list: merges are dropped
per occurrence, one occurrence is merged at a time, and a dropped occurrence becomes a
candidate again after the next merge. With ``p = 0`` this is plain BPE by lowest rank,
leftmost first; with ``p = 1`` every candidate is dropped and the word stays characters.

Left out: end-of-word symbols, byte-level alphabets, caching (a cache would defeat the
point: each call must sample anew) and vocabularies (the pieces are strings).
"""

import numbers
import random
from collections import Counter

from .embedding import check_size


def check_probability(p: object) -> float:
    """``p`` as a float if it is a real number in ``[0, 1]`` (``bool`` refused, numpy's
    floats and ints accepted: ``np.float32`` is no subclass of ``float``), else
    ``ValueError``. NaN fails both comparisons and is refused too."""
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"the dropout probability p must be a number in [0, 1], got {p!r}")
    return float(p)


def merge_ranks(merges: list) -> dict[tuple[str, str], int]:
    """Each pair's rank: the position of its first appearance in ``merges``."""
    ranks: dict[tuple[str, str], int] = {}
    for rank, (left, right) in enumerate(merges):
        ranks.setdefault((left, right), rank)
    return ranks


def bpe_dropout(word: str, merges: list, p: float, rng: random.Random) -> list[str]:
    """One sampled segmentation of ``word`` (its pieces, which join back to ``word``).

    Start from the characters. A candidate is a position ``i`` whose pair
    ``(s[i], s[i+1])`` has a rank and was not dropped since the last merge. Repeat: take
    the candidate with the lowest ``(rank, i)``; draw ``rng.random()`` once; below ``p``,
    drop that position; otherwise merge that one occurrence and forget every drop. Stop
    when no candidate is left. ``rng`` is the only source of randomness, and it is drawn
    exactly once per candidate taken, ``p = 0`` included. ``ValueError`` unless
    ``0 <= p <= 1``.
    """
    p = check_probability(p)
    ranks = merge_ranks(merges)
    symbols = list(word)
    dropped: set[int] = set()
    while True:
        # the candidates still standing, best first by (rank, position)
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:  # dropped: this occurrence sits out until the next merge
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]  # merge this one occurrence
        dropped.clear()  # a merge changes the word: every drop is forgotten


def dropout_segmentations(word: str, merges: list, p: float, trials: int, seed: int
                          ) -> dict[tuple[str, ...], int]:
    """How often each segmentation of ``word`` comes out of ``trials`` calls of
    ``bpe_dropout`` that share one ``random.Random(seed)``."""
    trials = check_size(trials, "trials")
    rng = random.Random(seed)
    return dict(Counter(tuple(bpe_dropout(word, merges, p, rng)) for _ in range(trials)))
