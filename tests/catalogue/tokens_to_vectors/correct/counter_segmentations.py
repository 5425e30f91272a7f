"""``dropout_segmentations`` that hands back its ``collections.Counter`` (catalogue: a
correct submission, edited into the reference).

A ``Counter`` is a ``dict`` (a subclass: ``isinstance(counts, dict)`` holds) from each
segmentation to its count, which is what the contract asks for; wrapping it in ``dict()``
changes nothing a caller can use. Nothing may be charged.
"""

import random
from collections import Counter


def dropout_segmentations(word, merges, p, trials, seed):
    trials = check_size(trials, "trials")  # noqa: F821 - the reference's (this file is edited into it)
    rng = random.Random(seed)
    return Counter(tuple(bpe_dropout(word, merges, p, rng))  # noqa: F821
                   for _ in range(trials))
