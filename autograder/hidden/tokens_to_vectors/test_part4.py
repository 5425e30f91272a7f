"""Part 4: BPE-dropout (15 points), a random function graded without luck.

Three kinds of test. (1) For fixed seeds, the output and the generator's state afterwards
against the reference's (3 points): the only test that charges another number or order of
draws, and its message says when that is all that differs. (2) Properties every correct
BPE-dropout holds, whatever its draws: the pieces join back to the word and are characters
or merge results, ``p = 0`` is BPE (on learned merge lists and on arbitrary ones), ``p = 1``
gives the characters, the same seed gives the same result, and bad ``p`` raises. (3) The
distribution of segmentations over thousands of calls against the exact distribution
(``dropout_cases.py``: the bound on a false failure is computed there, below 2e-11, and every
wrong variant the spec names is caught).

Each call gets a generator made in the worker from a seed (``sandbox.Seeded``); the worker
seeds the global ``random`` and ``numpy.random`` with other seeds, so code that draws from
them gives other segmentations than the seed's (the fixed-seed test) and other results for
the same seed (the same-seed test).
"""

import random

import pytest

import solutions.tokens_to_vectors as ref
from autograder.sandbox import Remote, Seeded
from autograder.suite.checks import Failures, check, expect_raises, show
from autograder.suite.remote import handle, many

from .dropout_cases import (
    DISTRIBUTION_CASES,
    L1_THRESHOLD,
    exact_distribution,
    false_failure_bound,
    l1_distance,
)

PART = 4

# Merge lists: one learned by BPE (its order is the order of learning) and arbitrary ones,
# where replaying the list is not the spec's loop.
LEARNED = [("l", "o"), ("lo", "w"), ("e", "r"), ("n", "e"), ("ne", "w"), ("low", "er"),
           ("e", "s"), ("es", "t"), ("w", "i"), ("wi", "d")]
ARBITRARY = [("b", "c"), ("a", "b"), ("ab", "c"), ("c", "a"), ("a", "bc"), ("abc", "abc"),
             ("ca", "b"), ("a", "a"), ("aa", "aa")]
# A result ranked before its parts: replaying the list once misses the later merges.
RESULT_FIRST = [("ab", "c"), ("abc", "d"), ("a", "b"), ("c", "d"), ("d", "ab")]
WORDS_LEARNED = ["lower", "newest", "widest", "low", "newer", "slower", "x", ""]
WORDS_ARBITRARY = ["abcabc", "abca", "cabab", "aaaa", "aaaaaaa", "bcbc", "abab", "a"]
WORDS_RESULT_FIRST = ["abcd", "abcabc", "dabc", "cdab", "ab"]
# A pair listed twice: its rank is its first appearance (a dict built from the list in
# order keeps the last one).
REPEATED_PAIR = [("b", "c"), ("a", "b"), ("b", "c")]
LISTS = ((LEARNED, WORDS_LEARNED), (ARBITRARY, WORDS_ARBITRARY),
         (RESULT_FIRST, WORDS_RESULT_FIRST), (REPEATED_PAIR, ["abc", "abcbc"]))
FIXED = [(word, merges, p, seed)
         for merges, words in ((LEARNED, WORDS_LEARNED[:5]), (ARBITRARY, WORDS_ARBITRARY[:5]))
         for word in words for p, seed in ((0.1, 11), (0.5, 12), (0.0, 13))]


def segment(student, word: str, merges: list, p: float, rng: Remote) -> object:
    return student.call("bpe_dropout", word, merges, p, rng)


def many_segments(student, word: str, merges: list, p: float, seed: int, count: int) -> list:
    """``count`` calls in one request, sharing one generator made from ``seed``."""
    rng = student.put(Seeded("random", seed))
    kept = student.put(merges)
    return many(student, handle(student, "bpe_dropout"), [word] * count, [kept] * count,
                [p] * count, [rng] * count,
                describe=lambda row: f"bpe_dropout({show(word)}, merges, p={p})")


def segmentation(value: object, what: str) -> tuple[str, ...]:
    check(type(value) is list and all(type(piece) is str for piece in value),
          lambda: f"{what} should return a list of str, got {show(value)}")
    return tuple(value)  # type: ignore[arg-type]


@pytest.mark.points(3)
def test_exact_output_and_draws_for_fixed_seeds(student):
    """bpe_dropout gives the reference's pieces and draws the generator as the spec's loop does"""
    failures = Failures()
    for word, merges, p, seed in FIXED:
        what = f"bpe_dropout({word!r}, merges, p={p}) with random.Random({seed})"
        mine = random.Random(seed)
        expected = ref.bpe_dropout(word, merges, p, mine)
        with failures.case():
            rng = student.put(Seeded("random", seed))
            got = segmentation(segment(student, word, merges, p, rng), what)
            state = student.method(rng, "getstate")
            same_state = type(state) is tuple and len(state) == 3 and (
                state[0], tuple(state[1]), state[2]) == mine.getstate()
            possible = got in exact_distribution(word, merges, p)
            check(got == tuple(expected) and same_state,
                  lambda: f"{what} "
                  + ("gave a segmentation the spec's loop can give, but not with the draws the "
                     "spec fixes: draw rng.random() once for the candidate with the lowest "
                     "(rank, position), p = 0 included, and nothing else (another number or "
                     "order of draws costs this test only)" if possible else
                     f"returned {show(list(got))}, expected {show(expected)}"))
    failures.report()


@pytest.mark.points(2)
def test_pieces_join_to_the_word_and_are_known(student):
    """every segmentation joins back to the word; each piece is a character or a merge result"""
    failures = Failures()
    cases = [(word, merges, p) for merges, words in LISTS for word in words
             for p in (0.1, 0.5, 0.9)]
    for index, (word, merges, p) in enumerate(cases):
        what = f"bpe_dropout({word!r}, merges, p={p})"
        with failures.case():
            for got in many_segments(student, word, merges, p, 4200 + index, 40):
                pieces = segmentation(got, what)
                check("".join(pieces) == word,
                      lambda: f"{what} returned {show(list(pieces))}, which does not join back "
                              "to the word")
                results = {left + right for left, right in merges}
                check(all(len(piece) == 1 or piece in results for piece in pieces),
                      lambda: f"{what} returned {show(list(pieces))}: every piece must be a "
                              "character or the result of a merge")
    failures.report()


@pytest.mark.points(2)
def test_p0_is_bpe(student):
    """p = 0 is plain BPE (lowest rank, leftmost first), on learned and on arbitrary merge lists"""
    failures = Failures()
    for merges, words in LISTS:
        for word in words:
            expected = ref.bpe_dropout(word, merges, 0.0, random.Random(0))
            what = f"bpe_dropout({word!r}, merges, p=0)"
            with failures.case():
                got = segmentation(segment(student, word, merges, 0.0,
                                           student.put(Seeded("random", 4300))), what)
                check(list(got) == expected,
                      lambda: f"{what} returned {show(list(got))}, expected {show(expected)}: "
                              "with p = 0 nothing is dropped, and the loop merges the candidate "
                              "of lowest rank, leftmost first (replaying the list is not the "
                              "same for a list in another order)")
    failures.report()


@pytest.mark.points(1)
def test_p1_gives_the_characters(student):
    """p = 1 drops every candidate: the word's characters"""
    failures = Failures()
    for merges, words in LISTS:
        for word in words:
            what = f"bpe_dropout({word!r}, merges, p=1)"
            with failures.case():
                got = segmentation(segment(student, word, merges, 1.0,
                                           student.put(Seeded("random", 4400))), what)
                check(list(got) == list(word),
                      lambda: f"{what} returned {show(list(got))}, expected the characters")
    failures.report()


@pytest.mark.points(1)
def test_same_seed_same_result(student):
    """the same seed gives the same segmentations, in bpe_dropout and dropout_segmentations"""
    failures = Failures()
    for word, merges, p in (("abcabc", ARBITRARY, 0.4), ("newest", LEARNED, 0.3)):
        with failures.case():
            first = many_segments(student, word, merges, p, 4500, 30)
            second = many_segments(student, word, merges, p, 4500, 30)
            check(first == second,
                  f"30 calls of bpe_dropout({word!r}, merges, p={p}) with random.Random(4500) "
                  "gave other segmentations the second time: draw only from the generator "
                  "passed in (the global random and numpy.random are seeded otherwise)")
        with failures.case():
            args = (word, merges, p, 50, 4501)
            first, second = (student.call("dropout_segmentations", *args) for _ in range(2))
            check(first == second,
                  f"dropout_segmentations({word!r}, merges, {p}, 50, 4501) gave another count "
                  "the second time: the seed must decide every draw")
    failures.report()


@pytest.mark.points(1)
def test_bad_probability(student):
    """ValueError unless 0 <= p <= 1 (a bool is no probability) and trials is a positive int"""
    failures = Failures()
    for p in (-0.1, 1.5, 2, True):
        with failures.case():
            expect_raises("ValueError", f"bpe_dropout('abab', merges, p={p})", student.call,
                          "bpe_dropout", "abab", ARBITRARY, p, Seeded("random", 4600))
    for trials in (0, -3, 2.5):
        with failures.case():
            expect_raises("ValueError", f"dropout_segmentations('abab', merges, 0.1, {trials}, 1)",
                          student.call, "dropout_segmentations", "abab", ARBITRARY, 0.1, trials,
                          1)
    failures.report()


def judge_distribution(counts: dict, word: str, merges: list, p: float, trials: int,
                       what: str) -> None:
    truth = exact_distribution(word, merges, p)
    impossible = [key for key in counts if key not in truth]
    check(not impossible,
          lambda: f"{what} gave a segmentation the spec's loop never gives: "
                  f"{show(list(impossible[0]))}")
    distance = l1_distance(counts, truth)
    bound = false_failure_bound(len(truth), trials)
    print(f"{what}: L1 {distance:.4f} (threshold {L1_THRESHOLD}, false-failure bound "
          f"{bound:.1e})")
    check(distance < L1_THRESHOLD,
          lambda: f"over {trials:,} calls, {what} gives segmentations in other proportions than "
                  f"the spec's loop (total variation {distance / 2:.2f}; a correct one stays "
                  f"under {L1_THRESHOLD / 2} except with probability {bound:.0e}). Check: drop "
                  "one occurrence at a time (not every occurrence of a pair), merge one "
                  "occurrence at a time, go on after a drop, forget drops after a merge")


@pytest.mark.points(3)
def test_distribution_of_bpe_dropout(student):
    """over 4,000 calls on "abab", bpe_dropout's segmentations follow the spec's distribution"""
    word, merges, p, trials, seed = DISTRIBUTION_CASES[0]
    what = f"bpe_dropout({word!r}, merges, p={p})"
    got = [segmentation(value, what) for value in
           many_segments(student, word, merges, p, seed, trials)]
    counts: dict = {}
    for key in got:
        counts[key] = counts.get(key, 0) + 1
    judge_distribution(counts, word, merges, p, trials, what)


@pytest.mark.points(2)
def test_distribution_of_dropout_segmentations(student):
    """dropout_segmentations counts 5,000 calls on "aaaaa" in the spec's proportions"""
    word, merges, p, trials, seed = DISTRIBUTION_CASES[1]
    what = f"dropout_segmentations({word!r}, merges, {p}, {trials}, {seed})"
    counts = student.call("dropout_segmentations", word, merges, p, trials, seed)
    check(type(counts) is dict and all(
        type(key) is tuple and all(type(piece) is str for piece in key) and type(n) is int
        for key, n in counts.items()),
        lambda: f"{what} should return a dict from tuples of str to int counts, "
                f"got {show(counts)}")
    check(sum(counts.values()) == trials,
          lambda: f"the counts of {what} add up to {sum(counts.values())}, not {trials}")
    judge_distribution(counts, word, merges, p, trials, what)
