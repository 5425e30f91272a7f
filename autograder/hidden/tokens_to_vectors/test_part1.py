"""Part 1: the embedding table (15 points).

A lookup is graded exactly (its rows are copies of the table's), on IDs of every shape the
contract allows and on float32 and float64 tables; every named error, with the first bad ID
in its message; and its cost by a ratio measured in one run: the same IDs looked up in a
table of 1,000 rows and in one of 64,000 rows (both hold the rows asked for, so a correct
lookup touches the same memory in both). Code that builds a one-hot matrix or copies the
table does 64 times the work in the second and fails; ``make timing-stability`` measures
the ratio under load.
"""

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.sandbox import Remote
from autograder.suite.checks import Failures, check, expect_raises, is_int, show, versus
from autograder.suite.fixtures import HASH_SEED
from autograder.suite.numeric import EXACT, Tolerance, agrees, expect_close
from autograder.suite.remote import Own, Run, growth_in_memory, ratio_text

from .inputs import rng

PART = 1

R = rng(101)
TABLES = [R.normal(size=(50, 8)), R.normal(size=(7, 3)).astype(np.float32)]
ID_CASES = [  # (ids, table index): a list, every shape from 0-d to 3-d, an empty batch
    ([3, 1, 4, 1, 5], 0),
    (np.array(42), 0),
    (R.integers(0, 50, size=(4, 6)), 0),
    (R.integers(0, 7, size=(2, 3, 5)).astype(np.int32), 1),
    (np.array([6, 0, 6], dtype=np.uint8), 1),
    (np.zeros((0, 3), dtype=np.int64), 1),
    ([[0, 49], [49, 0]], 0),
]


@pytest.mark.points(3)
def test_lookup_returns_the_rows(student):
    """embedding_lookup returns table[i] for every ID, shape ids.shape + (d,)"""
    failures = Failures()
    for ids, which in ID_CASES:
        table = TABLES[which]
        with failures.case():
            got = student.call("embedding_lookup", ids, table)
            expect_close(got, ref.embedding_lookup(ids, table),
                         f"embedding_lookup(ids of shape {np.shape(ids)}, a table of shape "
                         f"{table.shape})", EXACT)
    failures.report()


BAD_IDS = [([0, 57, 2], 57), ([3, -1, 60], -1), (np.array([[1, 2], [2, 70]]), 70),
           (np.array([1.0, 2.0]), 1.0), (np.array([True, False]), True), ([0.5], 0.5)]


@pytest.mark.points(2)
def test_lookup_refuses_bad_ids(student):
    """embedding_lookup: ValueError naming the first bad ID (negative, float), or a 1-D table"""
    failures = Failures()
    for ids, first in BAD_IDS:
        what = f"embedding_lookup({show(ids if isinstance(ids, list) else ids.tolist())}, " \
               "a table of 50 rows)"
        with failures.case():
            exc = expect_raises("ValueError", what, student.call, "embedding_lookup", ids,
                                TABLES[0])
            check(str(first) in exc.message,
                  lambda: f"{what} raised ValueError, but its message should name the first "
                          f"bad ID, {first!r}; it was {show(exc.message)}")
    with failures.case():  # the notebook's contract: a table has shape (V, d)
        expect_raises("ValueError", "embedding_lookup([0, 1], a table of one axis)",
                      student.call, "embedding_lookup", [0, 1], np.zeros(5))
    failures.report()


# The complexity test: COUNT lookups of ID_COUNT IDs from [0, 1000), in a table of SMALL_V
# rows against one of LARGE_V rows (width WIDTH), in turns (``remote.growth``).
SMALL_V, LARGE_V, WIDTH, ID_COUNT, COUNT = 1_000, 64_000, 16, 512, 32
MAX_RATIO, GIVE_UP = 4.0, 8.0
TABLE_SMALL = rng(102).normal(size=(SMALL_V, WIDTH))
TABLE_LARGE = np.concatenate([TABLE_SMALL, rng(103).normal(size=(LARGE_V - SMALL_V, WIDTH))])


def same_rows(got: object, wanted: list[np.ndarray]) -> bool:
    """``got`` is one array per batch, each equal to the one wanted."""
    return type(got) is list and len(got) == len(wanted) and all(
        agrees(rows, want, EXACT) for rows, want in zip(got, wanted)
        if isinstance(rows, np.ndarray)) and all(isinstance(r, np.ndarray) for r in got)


def lookups(student, own: Own, table: Remote, turn: int, large: bool) -> Run:
    """COUNT lookups in one request, in the small table or the large one. A timing test
    judges time only: a timed output that differs from the spec must be the student's own
    answer, worked out untimed in a fresh worker (``remote.Own``), where the correctness
    tests charged the difference."""
    batches = [rng(1000 + 2 * turn + large).integers(0, SMALL_V, size=ID_COUNT)
               for _ in range(COUNT)]
    func = student.get(None, "embedding_lookup")

    def yours(other) -> object:
        full = TABLE_LARGE if large else TABLE_SMALL
        return other.map(other.get(None, "embedding_lookup"), batches,
                         [other.put(full)] * COUNT)

    def judge(got: object) -> None:
        check(type(got) is list and len(got) == COUNT,
              lambda: f"{COUNT} embedding_lookup calls gave {show(got)}")
        if same_rows(got, [TABLE_SMALL[ids] for ids in batches]):
            return
        if not large:  # the baseline run: its deviation needs the gate only
            own.gate()
            return
        check(same_rows(got, own(yours)),
              f"embedding_lookup of {ID_COUNT} IDs in a table of {LARGE_V:,} rows (a timing "
              "test) gave other rows than your own embedding_lookup gives on them when not "
              "timed: the timed run skipped work")

    return Run(lambda: student.map(func, batches, [table] * COUNT, keep=True),
               lambda kept: student.get(kept, None), judge)


@pytest.mark.points(2)
def test_lookup_time_does_not_grow_with_the_vocabulary(student, spawn):
    """embedding_lookup takes as long in a 64,000-row table as in a 1,000-row one"""
    own = Own(spawn, HASH_SEED, "test_lookup_returns_the_rows")
    small, large = student.put(TABLE_SMALL), student.put(TABLE_LARGE)
    ratio, t_small, t_large = growth_in_memory(
        student, lambda turn: lookups(student, own, small, turn, False),
        lambda turn: lookups(student, own, large, turn, True),
        too_big=f"looking up {ID_COUNT} IDs in a table of {LARGE_V:,} rows: a one-hot matrix "
                f"of {ID_COUNT} x {LARGE_V:,} floats is {ID_COUNT * LARGE_V * 8 / 2**20:,.0f} "
                "MiB. A lookup should read only the rows asked for (table[ids])",
        charged_by="test_lookup_returns_the_rows", give_up=GIVE_UP, clear=MAX_RATIO / 2)
    print(f"timing: lookup ratio={ratio:.2f} small={t_small * 1e3:.2f}ms "
          f"large={t_large * 1e3:.2f}ms")
    check(ratio <= MAX_RATIO,
          f"the same {COUNT} lookups of {ID_COUNT} IDs took {ratio_text(ratio, GIVE_UP)} as "
          f"long in a table of {LARGE_V:,} rows as in one of {SMALL_V:,}: a lookup should "
          "read only the rows asked for (fancy indexing, table[ids]), not build a one-hot "
          "matrix or copy the table")


@pytest.mark.points(2)
def test_one_hot(student):
    """one_hot: float rows with a single 1.0, and one_hot(ids, V) @ table is the lookup"""
    failures = Failures()
    for ids, size in (([2, 0, 2], 4), (np.array([[1, 0], [0, 1]]), 2), (np.array(3), 5),
                      (R.integers(0, 50, size=(3, 4)), 50)):
        with failures.case():
            got = student.call("one_hot", ids, size)
            expect_close(got, ref.one_hot(ids, size),
                         f"one_hot(ids of shape {np.shape(ids)}, {size})", EXACT)
    for ids, size in (([0, 4], 4), ([-1], 4)):
        with failures.case():
            expect_raises("ValueError", f"one_hot({ids}, {size})", student.call, "one_hot",
                          ids, size)
    failures.report()


@pytest.mark.points(2)
def test_padded_vocab_size(student):
    """padded_vocab_size: the smallest multiple >= the size (50,257 -> 50,304), ValueError"""
    failures = Failures()
    cases = [((50_257,), 50_304), ((50_304,), 50_304), ((1,), 64), ((65, 8), 72),
             ((100, 1), 100), ((7, 128), 128), ((256_000, 64), 256_000)]
    for args, expected in cases:
        with failures.case():
            got = student.call("padded_vocab_size", *args)
            check(is_int(got) and got == expected,
                  lambda: f"padded_vocab_size{args} returned {versus(got, expected)}")
    for args in ((0,), (-5,), (100, 0), (True,), (2.5,), ("64",), (100, 8.0)):
        with failures.case():
            expect_raises("ValueError", f"padded_vocab_size{args}", student.call,
                          "padded_vocab_size", *args)
    failures.report()


PARAMETER_CASES = [((50_257, 1024, 768, 12), 124_439_808),
                   ((50_304, 1024, 768, 12), 124_475_904),
                   ((50_257, 1024, 768, 12, False), 163_037_184),
                   ((1, 1, 1, 1), None), ((32_000, 2048, 512, 6, False), None),
                   ((50_257, 1024, 1600, 48), None)]


@pytest.mark.points(2)
def test_gpt_parameter_count(student):
    """gpt_parameter_count: GPT-2 small's 124,439,808, padded and untied, other shapes"""
    failures = Failures()
    for args, fact in PARAMETER_CASES:
        expected = ref.gpt_parameter_count(*args)
        assert fact is None or fact == expected
        with failures.case():
            got = student.call("gpt_parameter_count", *args)
            check(is_int(got) and got == expected,
                  lambda: f"gpt_parameter_count{args} returned {versus(got, expected)}")
    for args in ((0, 1024, 768, 12), (50_257, 1024, 768, -1), (50_257, 1024, 76.8, 12),
                 (50_257, 0, 768, 12), (50_257, 1024, 768, 12, 1)):  # tied must be a bool
        with failures.case():
            expect_raises("ValueError", f"gpt_parameter_count{args}", student.call,
                          "gpt_parameter_count", *args)
    failures.report()


@pytest.mark.points(2)
def test_embedding_constants(student):
    """Q_EMBEDDING_MIB, Q_EMBEDDING_SHARE and Q_PADDED_EXTRA_ROWS of GPT-2 small"""
    failures = Failures()
    answers = (("Q_EMBEDDING_MIB", ref.Q_EMBEDDING_MIB, "GPT-2 small's token table in MiB "
                "(50,257 x 768 float32 numbers; 1 MiB = 1024**2 bytes)"),
               ("Q_EMBEDDING_SHARE", ref.Q_EMBEDDING_SHARE, "the token table's share of GPT-2 "
                "small's 124,439,808 parameters (a fraction, not a percentage)"),
               ("Q_PADDED_EXTRA_ROWS", ref.Q_PADDED_EXTRA_ROWS, "the rows nanoGPT adds to "
                "GPT-2's vocabulary"))
    for name, expected, meaning in answers:
        with failures.case():
            value = student.get(None, name)
            number = type(value) in (int, float)
            check(number, lambda: f"{name} should be a number, got {show(value)}")
            exact = Tolerance(relative=0.0 if type(expected) is int else 1e-3)
            check(abs(value - expected) <= exact.relative * abs(expected),
                  f"{name} is {value!r}; that is not {meaning}, to 3 significant digits")
    failures.report()
