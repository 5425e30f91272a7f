"""Part 6: systems costs (20 points).

The functions are checked on the facts the module teaches and on random values against
the reference; the numeric answers (module-level constants) with a tolerance of 0.01.
"""

import random

import pytest

import solutions.tokenization as ref
from autograder.suite.checks import (
    check,
    close,
    is_int,
    is_number,
    show,
    versus,
)
from autograder.suite.remote import (
    many,
)

from .inputs import (
    random_texts,
)

PART = 6

TOLERANCE = 0.01
CORPUS = random_texts(61, ["low", "lower", "newest", "widest", "slow", "new", "wide"], 20)
SIZES = [40, 10, 1000, 16, 25]  # rows come back in the order asked, not sorted


def call(name: str, args: tuple) -> str:
    """``name(args...)`` for a message; hidden, the arguments read as "(…)"."""
    return name + show(args, hidden_as="(…)")


def memory(student, *args) -> int:
    got = student.call("embedding_memory_bytes", *args)
    what = call("embedding_memory_bytes", args)
    check(is_int(got), lambda: f"{what} should return an int, got {show(got)}")
    return got  # type: ignore[return-value]


def scores(student, *args) -> int:
    got = student.call("attention_scores", *args)
    check(is_int(got),
          lambda: f"{call('attention_scores', args)} should return an int, got {show(got)}")
    return got  # type: ignore[return-value]


@pytest.mark.points(3)
def test_embedding_memory_facts(student):
    """embedding_memory_bytes on the module's facts (float32 by default)"""
    facts = [
        ((30_000, 768), 92_160_000),
        ((100, 512), 200 * 1024),
        ((50_000, 512), 102_400_000),
        ((50_000, 12_288), 2_457_600_000),
        ((30_000, 768, 2), 46_080_000),
        ((1, 1, 8), 8),
        ((0, 512), 0),
    ]
    for args, expected in facts:
        got = memory(student, *args)
        check(got == expected, lambda: f"{call('embedding_memory_bytes', args)} returned "
                                       f"{versus(got, expected)}")


RNG = random.Random(62)
MEMORY_CASES = [(RNG.randrange(10**6), RNG.randrange(10**5), RNG.choice([1, 2, 4, 8]))
                for _ in range(40)]
SCORE_CASES = [(RNG.randrange(10**5), RNG.randrange(1, 257)) for _ in range(40)]
SPEEDUP_CASES = [(RNG.randrange(1, 10**5), RNG.randrange(1, 10**5)) for _ in range(40)]


@pytest.mark.points(1)
def test_embedding_memory_random(student):
    """embedding_memory_bytes == vocab_size * embed_dim * bytes_per_param"""
    got_all = many(student, "embedding_memory_bytes", *map(list, zip(*MEMORY_CASES)))
    for args, got in zip(MEMORY_CASES, got_all):
        expected = ref.embedding_memory_bytes(*args)
        check(is_int(got) and got == expected,
              lambda: f"{call('embedding_memory_bytes', args)} returned "
                      f"{versus(got, expected)}")


@pytest.mark.points(2)
def test_attention_scores_facts(student):
    """attention_scores: batch 32 at 200 tokens gives 1,280,000; at 50 tokens 80,000"""
    facts = [((200, 32), 1_280_000), ((50, 32), 80_000), ((200,), 40_000), ((1,), 1),
             ((0, 32), 0)]
    for args, expected in facts:
        got = scores(student, *args)
        check(got == expected,
              lambda: f"{call('attention_scores', args)} returned {versus(got, expected)}")


@pytest.mark.points(1)
def test_attention_scores_random(student):
    """attention_scores == batch_size * seq_len ** 2"""
    got_all = many(student, "attention_scores", *map(list, zip(*SCORE_CASES)))
    for args, got in zip(SCORE_CASES, got_all):
        expected = ref.attention_scores(*args)
        check(is_int(got) and got == expected, lambda: f"{call('attention_scores', args)} returned "
                                                       f"{versus(got, expected)}")


@pytest.mark.points(2)
def test_attention_speedup(student):
    """attention_speedup == (long_len / short_len) ** 2; 200 vs 50 tokens is 16x"""
    cases = [(200, 50), (10_000, 2_500), (100, 100), (50, 200), *SPEEDUP_CASES]
    got_all = many(student, "attention_speedup", *map(list, zip(*cases)))
    for args, got in zip(cases, got_all):
        expected = ref.attention_speedup(*args)
        check(is_number(got) and close(got, expected),
              lambda: f"{call('attention_speedup', args)} returned {versus(got, expected)}")


ROW_KEYS = ("vocab_size", "actual_vocab_size", "avg_sequence_length", "embedding_bytes",
            "attention_scores")


@pytest.mark.points(4)
def test_vocab_tradeoff(student):
    """vocab_tradeoff gives one row per requested size with every key of the spec"""
    for sizes, dim in ((SIZES, 64), ([], 64), ([30], 128)):
        expected = ref.vocab_tradeoff(CORPUS, sizes, dim)
        what = f"vocab_tradeoff(corpus, {show(sizes)}, {show(dim)})"
        got = student.call("vocab_tradeoff", CORPUS, sizes, dim)
        check(type(got) is list and all(type(row) is dict for row in got),
              lambda: f"{what} should return a list of dicts, got {show(got)}")
        check(len(got) == len(expected), lambda: f"{what} returned {len(got)} rows, expected "
                                                 f"{len(expected)}")
        for row, want in zip(got, expected):
            for key in ROW_KEYS:
                check(key in row, f"a row of {what} has no key {key!r}")
                check(is_number(row[key]), lambda: f"{what}: {key!r} should be a number, got "
                                                   f"{show(row[key])}")
                check(close(row[key], want[key]),
                      lambda: f"{what}: for vocab_size {show(want['vocab_size'])}, {key!r} is "
                              f"{versus(row[key], want[key])}")


def constant(student, name: str) -> float:
    value = student.get(None, name)
    check(is_number(value), lambda: f"{name} should be a number, got {show(value)}")
    return value  # type: ignore[return-value]


@pytest.mark.points(2)
def test_q1_embedding_mib(student):
    """Q1_EMBEDDING_MIB: 30,000 x 768 float32 parameters in MiB"""
    value = constant(student, "Q1_EMBEDDING_MIB")
    check(abs(value - ref.Q1_EMBEDDING_MIB) <= TOLERANCE,
          f"Q1_EMBEDDING_MIB is {value!r}; that is not the size of a 30,000 x 768 float32 "
          "table in MiB (1 MiB = 1024**2 bytes), to 2 decimals")


@pytest.mark.points(3)
def test_q2_attention_scores(student):
    """Q2_CHAR_ATTENTION_SCORES and Q2_BPE_ATTENTION_SCORES: batch 32 at 200 and 50 tokens"""
    for name, expected, tokens in (("Q2_CHAR_ATTENTION_SCORES", ref.Q2_CHAR_ATTENTION_SCORES, 200),
                                   ("Q2_BPE_ATTENTION_SCORES", ref.Q2_BPE_ATTENTION_SCORES, 50)):
        value = constant(student, name)
        check(abs(value - expected) <= TOLERANCE,
              f"{name} is {value!r}; that is not the number of attention scores of a batch "
              f"of 32 sequences of {tokens} tokens")


@pytest.mark.points(2)
def test_q4_compression_ratio(student):
    """Q4_COMPRESSION_RATIO: 10,000 characters in 2,500 tokens"""
    value = constant(student, "Q4_COMPRESSION_RATIO")
    check(abs(value - ref.Q4_COMPRESSION_RATIO) <= TOLERANCE,
          f"Q4_COMPRESSION_RATIO is {value!r}; that is not the characters per token of "
          "10,000 characters in 2,500 tokens")
