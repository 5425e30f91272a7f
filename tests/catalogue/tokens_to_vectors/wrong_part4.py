"""Part 4 (BPE-dropout): wrong implementations students hand in.

The six readings of BPE-dropout that the contract names as wrong: a dropped merge *type*
(every occurrence of the pair sits out), every occurrence of the chosen pair merged at
once, a loop that stops at the first drop, drops remembered after a merge, the merge list
replayed once with each merge skipped with probability ``p``, and draws taken from the
global ``random``. Besides them: the lowest position taken before the lowest rank, a
pair ranked by its last appearance in the list (GPT-2's ``dict(zip(merges, range(...)))``;
one hidden merge list repeats a pair for it), ``p`` read as the
chance to *keep* a merge, ``p`` left unchecked, and ``dropout_segmentations`` with a new
generator for every trial (every trial then draws the same numbers).

Most of these change only which segmentations come out how often, so their witnesses
drive the loop with a *scripted* generator: its ``random()`` hands back a fixed list of
draws, so one call shows, deterministically, the step where the entry leaves the spec's
loop. The hidden suite cannot do that (it passes a real ``random.Random``); it catches
these entries by their distribution over thousands of calls, a bound computed in
``dropout_cases.py`` and checked in ``tests/tokens_to_vectors/test_dropout_power.py``.
"""

import random

from ..catalogue import differs
from . import wrong
from .helpers import mutated

# "abab" repeats the pair (a, b), where most wrong readings part from the spec's loop;
# (ab, ab) makes the whole word reachable.
REPEATED = [("a", "b"), ("ab", "ab")]


class Scripted:
    """A stand-in for ``random.Random`` whose ``random()`` returns ``draws`` in order, then
    ``rest`` for ever: a witness decides every drop and every merge by hand."""

    def __init__(self, draws, rest=0.9):
        self.draws, self.rest = list(draws), rest

    def random(self):
        return self.draws.pop(0) if self.draws else self.rest


def scripted(word, merges, p, draws, rest=0.9):
    """A probe: ``bpe_dropout`` on ``word`` whose draws are ``draws`` (then ``rest``)."""
    return lambda ns: ns["bpe_dropout"](word, merges, p, Scripted(draws, rest))


LOOP = """
def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)
    ranks = merge_ranks(merges)
    symbols = list(word)
    dropped = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        dropped.clear()
"""


@wrong(4, "a drop takes the pair out of the step: none of its occurrences may merge",
       """
def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)
    ranks = merge_ranks(merges)
    symbols = list(word)
    dropped_pairs = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and pair not in dropped_pairs]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:
            dropped_pairs.add((symbols[i], symbols[i + 1]))
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        dropped_pairs.clear()
""")
def p4_drops_a_merge_type(bug, ref):
    # Drop the first (a, b) and merge whatever comes next: the spec's loop merges the
    # second (a, b), forgets the drop and ends at abab; the entry has dropped both
    # occurrences and stops at the characters.
    differs(bug, ref, scripted("abab", REPEATED, 0.5, [0.1]))


@wrong(4, "a merge rewrites the word as BPE's encode does: every occurrence of the pair",
       """
def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)
    ranks = merge_ranks(merges)
    symbols = list(word)
    dropped = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:
            dropped.add(i)
            continue
        left, right = symbols[i], symbols[i + 1]
        merged, j = [], 0
        while j < len(symbols):
            if j + 1 < len(symbols) and symbols[j] == left and symbols[j + 1] == right:
                merged.append(left + right)
                j += 2
            else:
                merged.append(symbols[j])
                j += 1
        symbols = merged
        dropped.clear()
""")
def p4_merges_every_occurrence(bug, ref):
    # Merge the first (a, b), drop the second: the spec's loop gives ab a b; the entry has
    # merged the second with the first.
    differs(bug, ref, scripted("abab", REPEATED, 0.5, [0.9, 0.1], rest=0.1))


@wrong(4, "a dropped merge ends the word: nothing after it may merge",
       mutated(LOOP, """            dropped.add(i)
            continue""", """            return symbols"""))
def p4_stops_at_the_first_drop(bug, ref):
    # Drop the first (a, b) and merge whatever comes next: abab in the spec's loop, the
    # characters here.
    differs(bug, ref, scripted("abab", REPEATED, 0.5, [0.1]))


@wrong(4, "a dropped occurrence stays dropped for the whole word",
       """
def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)
    ranks = merge_ranks(merges)
    symbols = list(word)
    dropped = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        # the positions right of the merge move one to the left
        dropped = {j if j < i else j - 1 for j in dropped if j != i + 1}
""")
def p4_keeps_drops_after_a_merge(bug, ref):
    # Drop the first (a, b), merge the second: the spec's loop forgets the drop and goes on
    # to abab; the entry still holds position 0 and stops at a b ab.
    differs(bug, ref, scripted("abab", REPEATED, 0.5, [0.1]))


@wrong(4, "BPE-dropout is the merge list replayed once, each merge skipped with probability p",
       """
def bpe_dropout(word, merges, p, rng):
    p = check_probability(p)
    symbols = list(word)
    for left, right in merges:
        if rng.random() < p:
            continue
        merged, j = [], 0
        while j < len(symbols):
            if j + 1 < len(symbols) and symbols[j] == left and symbols[j + 1] == right:
                merged.append(left + right)
                j += 2
            else:
                merged.append(symbols[j])
                j += 1
        symbols = merged
    return symbols
""")
def p4_replays_the_list_skipping_merges(bug, ref):
    # A list that ranks a merge result before its parts: at p = 0 the spec's loop comes
    # back to (ab, c) and (abc, d) once ab exists, one pass over the list cannot.
    merges = [("ab", "c"), ("abc", "d"), ("a", "b"), ("c", "d"), ("d", "ab")]
    differs(bug, ref, lambda ns: ns["bpe_dropout"]("abcd", merges, 0.0, random.Random(0)))


@wrong(4, "the random module is the random generator",
       mutated(LOOP, "if rng.random() < p:", "if random.random() < p:"))
def p4_draws_from_the_global_random(bug, ref):
    # The generator passed in drops everything; the entry never asks it.
    def probe(ns):
        state = random.getstate()
        try:
            random.seed(4)
            return [ns["bpe_dropout"]("abab", REPEATED, 0.5, Scripted([], rest=0.0))
                    for _ in range(5)]
        finally:
            random.setstate(state)

    differs(bug, ref, probe)


@wrong(4, "the leftmost candidate goes first, whatever its rank",
       mutated(LOOP, "_, i = min(candidates)",
               "_, i = min(candidates, key=lambda candidate: candidate[1])"))
def p4_leftmost_before_lowest_rank(bug, ref):
    # (b, c) has the lower rank: BPE gives a bc, not ab c.
    differs(bug, ref, lambda ns: ns["bpe_dropout"]("abc", [("b", "c"), ("a", "b")], 0.0,
                                                   random.Random(0)))


@wrong(4, "a pair's rank is its position in the list: dict(zip(merges, range(len(merges))))",
       mutated(LOOP, "ranks = merge_ranks(merges)",
               "ranks = {tuple(pair): rank for rank, pair in enumerate(merges)}"))
def p4_rank_of_the_last_appearance(bug, ref):
    # (b, c) comes first and again last: ranked by its first appearance it merges before
    # (a, b); ranked by its last, after.
    merges = [("b", "c"), ("a", "b"), ("b", "c")]
    differs(bug, ref, lambda ns: ns["bpe_dropout"]("abc", merges, 0.0, random.Random(0)))


@wrong(4, "p is the probability that a merge happens",
       mutated(LOOP, "if rng.random() < p:", "if rng.random() >= p:"))
def p4_p_is_the_chance_to_merge(bug, ref):
    differs(bug, ref, lambda ns: ns["bpe_dropout"]("abab", REPEATED, 0.0, random.Random(0)))


@wrong(4, "a probability needs no check: the comparison with a draw works for any p",
       mutated(LOOP, "p = check_probability(p)", "p = float(p)"))
def p4_probability_unchecked(bug, ref):
    differs(bug, ref, lambda ns: ns["bpe_dropout"]("abab", REPEATED, 1.5, random.Random(0)))


@wrong(4, "each trial gets its own random.Random(seed), so that the seed decides every trial",
       """
def dropout_segmentations(word, merges, p, trials, seed):
    trials = check_size(trials, "trials")
    counts = {}
    for _ in range(trials):
        pieces = tuple(bpe_dropout(word, merges, p, random.Random(seed)))
        counts[pieces] = counts.get(pieces, 0) + 1
    return counts
""")
def p4_segmentations_reseed_every_trial(bug, ref):
    # One generator shared by 200 trials gives several segmentations; a generator made
    # anew for each trial draws the same numbers every time, so one segmentation.
    differs(bug, ref, lambda ns: len(ns["dropout_segmentations"]("abab", REPEATED, 0.5, 200,
                                                                 1)))
