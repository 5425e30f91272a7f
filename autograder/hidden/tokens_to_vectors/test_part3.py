"""Part 3: relative positions, RoPE and ALiBi (20 points).

RoPE is judged in the pairing the reply follows (the spec's rotate-half, or interleaved
pairs: ``conventions.py``); only the convention test charges the interleaved one. Its
properties (position 0 is the identity, norms kept, scores that depend on ``m - n`` only,
linear in ``x``) hold in both and are checked on the student's own outputs. Its cost is a
ratio measured in one run: one call at ``T = 8,192`` against 16 calls at 512, head_dim 32
(``make timing-stability`` measures it under load), where a ``(T, T)`` array is 512 MiB,
over a worker's 256 MiB; then one call at ``T = 2,048`` with head_dim 128, where a
``(T, head_dim, head_dim)`` array is 256 MiB. Running out of memory is reported in words
(``remote.growth_in_memory``).

ALiBi is judged by what attention sees, ``softmax(scores + bias)`` row by row on random
scores, so a per-row constant (the original code and BLOOM add ``slope * j``, MPT
``slope * (j - (T - 1))``) and a finite mask (the dtype's most negative value) lose only
the one test of the exact form, whose message names the difference it found. That test
reads the form alone (0 on the diagonal, ``-inf`` above it), so a wrong slope or sign is
the attention test's to charge. The RoPE convention test likewise reads only which
dimensions are paired, from each basis vector turned at position 1,000.
"""

import itertools

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.sandbox import StudentError
from autograder.suite.checks import Failures, check, expect_raises, raised_at, show
from autograder.suite.fixtures import HASH_SEED
from autograder.suite.numeric import Tolerance, as_array, expect_close, same_reply
from autograder.suite.remote import Own, Run, cannot_time, growth_in_memory, ratio_text

from .conventions import INTERLEAVED, NAMES, SPEC, follows, rope
from .inputs import angle_tolerance, rng

PART = 3

SLOPES = Tolerance(relative=1e-6, measured="float32 powers of two: exact to 1e-7")
WEIGHTS = Tolerance(absolute=1e-6, measured="softmax of float32 biases: under 1e-7 measured")


@pytest.mark.points(2)
def test_rope_frequencies(student):
    """rope_frequencies: base^(-2i/head_dim); ValueError for bad sizes, positions that don't fit"""
    failures = Failures()
    for args in ((4,), (64,), (128, 500000.0), (2,), (10, 100.0)):
        with failures.case():
            got = student.call("rope_frequencies", *args)
            expect_close(got, ref.rope_frequencies(*args), f"rope_frequencies{args}",
                         Tolerance(relative=1e-5, measured="float32 powers: 1e-6 measured"))
    for args in ((7,), (0,), (-4,)):  # a bad base: the contract names no error for it
        with failures.case():
            expect_raises("ValueError", f"rope_frequencies{args}", student.call,
                          "rope_frequencies", *args)
    for x, positions, what in ((np.ones((3, 4)), [0, 1], "3 vectors and 2 positions"),):
        with failures.case():  # shapes that do not fit: the notebook's contract
            expect_raises("ValueError", f"apply_rope({what})", student.call, "apply_rope", x,
                          np.array(positions))
    failures.report()


def rope_case(seed: int, shape: tuple[int, ...], top: int) -> tuple[np.ndarray, np.ndarray]:
    """Vectors of ``shape`` (entries in [-1, 1]) and sorted positions below ``top``."""
    r = rng(seed)
    return r.uniform(-1, 1, size=shape), np.sort(r.choice(top, size=shape[-2], replace=False))


ROPE_CASES = [  # (x, positions, base): the worked examples first
    (np.array([[1.0, 0, 0, 0]]), np.array([1]), 10000.0),
    (np.array([[1.0, 2, 3, 4]]), np.array([2]), 10000.0),
    (*rope_case(301, (8, 16), 64), 10000.0),
    (*rope_case(302, (2, 3, 12, 8), 512), 10000.0),
    (*rope_case(303, (40, 64), 4096), 10000.0),
    (*rope_case(304, (5, 6), 100), 500.0),
]


def rope_reply(student, x: np.ndarray, positions: np.ndarray, base: float, lists: bool = False
               ) -> tuple[np.ndarray, str | None, str]:
    """The student's rotation of ``x``, the convention it follows, and the call as said.
    ``lists``: x and positions go as Python lists (the notebook accepts a list wherever it
    expects an array)."""
    given = "lists" if lists else f"x of shape {x.shape}, positions"
    what = f"apply_rope({given}, base={base:g})"
    args = (x.tolist(), positions.tolist()) if lists else (x, positions)
    got = as_array(student.call("apply_rope", *args, base), what, x.shape)
    tolerance = angle_tolerance(positions, base, scale=2.0)
    return got, follows(got, {c: rope(x, positions, base, c) for c in (SPEC, INTERLEAVED)},
                        tolerance), what


@pytest.mark.points(2)
def test_rope_worked_examples(student):
    """apply_rope: [1, 0, 0, 0] at position 1 and [1, 2, 3, 4] at position 2 (head_dim 4)"""
    failures = Failures()
    for (x, positions, base), lists in itertools.product(ROPE_CASES[:2], (False, True)):
        with failures.case():
            got, convention, what = rope_reply(student, x, positions, base, lists)
            expect_close(got, rope(x, positions, base, convention or SPEC), what,
                         angle_tolerance(positions, base, scale=2.0))
    failures.report()


@pytest.mark.points(4)
def test_rope_values(student):
    """apply_rope on random vectors of shape (..., T, head_dim) at positions up to 4,096"""
    failures = Failures()
    for x, positions, base in ROPE_CASES[2:]:
        with failures.case():
            got, convention, what = rope_reply(student, x, positions, base)
            expect_close(got, rope(x, positions, base, convention or SPEC), what,
                         angle_tolerance(positions, base, scale=2.0))
    failures.report()


def pairing(rotated: np.ndarray) -> str | None:
    """Which dimension each basis vector was turned into at position 1,000, where every
    pair turns by a visible angle (``rotated[i]`` is ``e_i`` rotated): the spec pairs ``i``
    with ``i + h``, GPT-J with its neighbour. Read from where the mass goes, whatever the
    angles or their sign, so a wrong frequency or a sign is the value tests' to charge, not
    this one's."""
    d = rotated.shape[-1]
    partner = {SPEC: (np.arange(d) + d // 2) % d, INTERLEAVED: np.arange(d) ^ 1}
    for name, other in partner.items():
        inside = np.zeros((d, d), dtype=bool)
        inside[np.arange(d), np.arange(d)] = inside[np.arange(d), other] = True
        if np.allclose(rotated[~inside], 0, atol=1e-6) and np.all(
                np.abs(rotated[np.arange(d), other]) > 1e-3):
            return name
    return None


@pytest.mark.points(1)
def test_rope_convention(student):
    """apply_rope pairs dimension i with i + head_dim/2 (rotate-half, as GPT-NeoX and HF LLaMA)"""
    d = 8
    what = "apply_rope(each basis vector of 8 dimensions, at position 1,000)"
    rotated = as_array(student.call("apply_rope", np.eye(d)[:, None, :], np.array([1000])), what,
                       (d, 1, d))[:, 0, :]
    convention = pairing(rotated)
    check(convention == SPEC,
          lambda: f"{what} follows " + (NAMES[convention] if convention else
                                          "no pairing of dimensions (each vector should turn "
                                          "within one pair)")
                  + "; the spec pairs dimension i with i + head_dim/2 (rotate_half)")


@pytest.mark.points(3)
def test_rope_properties(student):
    """apply_rope: identity at position 0, norms kept, q.k depends on m - n only, linear in x"""
    failures = Failures()
    r = rng(310)
    q, k = r.uniform(-1, 1, size=(2, 32))
    shifts = [(3, 1), (40, 38), (1000, 998), (7, 7), (2000, 2000)]
    with failures.case():
        x = r.uniform(-1, 1, size=(6, 32))
        got = as_array(student.call("apply_rope", x, np.zeros(6, dtype=int)), "apply_rope "
                       "at position 0", x.shape)
        check(np.allclose(got, x, atol=1e-6), "apply_rope at position 0 should return x as it is")
    with failures.case():
        x = r.uniform(-1, 1, size=(3, 50, 32))
        positions = np.arange(0, 5000, 100)
        got = as_array(student.call("apply_rope", x, positions), "apply_rope(x, positions)",
                       x.shape)
        check(np.allclose(np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1), atol=1e-5),
              "apply_rope should keep the norm of every vector (it only rotates pairs)")
    with failures.case():
        scores = []
        for m, n in shifts:
            rq = as_array(student.call("apply_rope", q[None], np.array([m])), "apply_rope(q)",
                          (1, 32))
            rk = as_array(student.call("apply_rope", k[None], np.array([n])), "apply_rope(k)",
                          (1, 32))
            scores.append(float(rq[0] @ rk[0]))
        check(abs(scores[0] - scores[1]) < 1e-4 and abs(scores[1] - scores[2]) < 1e-3
              and abs(scores[3] - scores[4]) < 1e-3,
              "apply_rope(q, [m]) . apply_rope(k, [n]) should depend only on m - n: it differs "
              "between (3, 1), (40, 38) and (1000, 998), or between (7, 7) and (2000, 2000)")
    with failures.case():
        a, b = r.uniform(-1, 1, size=(2, 10, 16))
        positions = np.arange(10) * 7
        fa, fb, fab = (as_array(student.call("apply_rope", v, positions), "apply_rope",
                                (10, 16)) for v in (a, b, 2 * a - 3 * b))
        check(np.allclose(fab, 2 * fa - 3 * fb, atol=1e-5),
              "apply_rope should be linear in x: apply_rope(2a - 3b) = 2 apply_rope(a) - "
              "3 apply_rope(b)")
    failures.report()


# The complexity test: one call at T = FACTOR * SHORT against FACTOR calls at SHORT, and
# one call of WIDE_T positions of WIDE_DIM dimensions.
SHORT, FACTOR, HEAD_DIM = 512, 16, 32
WIDE_T, WIDE_DIM = 2048, 128
MAX_RATIO, GIVE_UP = 4.0, 8.0


def rope_runs(student, own: Own, turn: int, count: int) -> Run:
    """``count`` calls that cover SHORT * FACTOR positions in all. A timed output that differs
    from the spec must be the student's own, worked out untimed in a fresh worker
    (``remote.Own``), where the correctness tests charged the difference."""
    length = SHORT * FACTOR // count
    cases = [rope_case(3000 + 97 * turn + 7 * count + i, (length, HEAD_DIM), 16384)
             for i in range(count)]
    func = student.get(None, "apply_rope")

    def yours(other) -> object:
        return other.map(other.get(None, "apply_rope"), [x for x, _ in cases],
                         [p for _, p in cases])

    def judge(got: object) -> None:
        check(type(got) is list and len(got) == count,
              lambda: f"{count} apply_rope calls gave {show(got)}")
        right = all(follows(value, {c: rope(x, positions, 10000.0, c)
                                    for c in (SPEC, INTERLEAVED)},
                            angle_tolerance(positions, scale=2.0)) is not None
                    for (x, positions), value in zip(cases, got))  # type: ignore[arg-type]
        if right:
            return
        if count > 1:  # the baseline run: its deviation needs the gate only
            own.gate()
            return
        mine = own(yours)
        check(type(mine) is list and len(mine) == count and all(
            same_reply(value, answer, angle_tolerance(positions, scale=2.0))
            for value, answer, (_, positions) in zip(got, mine, cases)),  # type: ignore
            f"apply_rope on {length} positions (a timing test) gave other values than your "
            "own apply_rope gives on them when not timed: the timed run skipped work")

    def compute() -> object:
        xs, ps = student.put([x for x, _ in cases]), student.put([p for _, p in cases])
        return student.map(func, xs, ps, keep=True)

    return Run(compute, lambda kept: student.get(kept, None), judge)


def too_big(length: int, dim: int) -> str:
    mib = 8 / 2**20
    return (f"in apply_rope on {length:,} positions of head_dim {dim}: a (T, T) array is "
            f"{length * length * mib:,.0f} MiB there and a (T, head_dim, head_dim) one "
            f"{length * dim * dim * mib:,.0f} MiB, while x is {length * dim * mib:,.0f} MiB. "
            "Build cos and sin of shape (T, head_dim) and combine them with x and "
            "rotate_half(x) element by element")


@pytest.mark.points(2)
def test_rope_linear_in_length(student, spawn):
    """apply_rope takes time and memory proportional to the sequence length"""
    long = SHORT * FACTOR
    own = Own(spawn, HASH_SEED, "test_rope_values")
    ratio, t_batch, t_single = growth_in_memory(
        student, lambda turn: rope_runs(student, own, turn, FACTOR),
        lambda turn: rope_runs(student, own, turn, 1), too_big=too_big(long, HEAD_DIM),
        charged_by="test_rope_values", give_up=GIVE_UP, clear=MAX_RATIO / 2)
    print(f"timing: rope ratio={ratio:.2f} batch={t_batch * 1e3:.2f}ms "
          f"single={t_single * 1e3:.2f}ms")
    check(ratio <= MAX_RATIO,
          f"apply_rope on {long:,} positions took {ratio_text(ratio, GIVE_UP)} as long as "
          f"{FACTOR} calls on {SHORT}: it should be linear in T. Build cos and sin of shape "
          "(T, head_dim), never a (T, T) array")
    x, positions = rope_case(3999, (WIDE_T, WIDE_DIM), 4096)
    try:
        got = student.call("apply_rope", x, positions)
    except StudentError as exc:
        if exc.is_a("MemoryError"):
            raise AssertionError(f"your code ran out of memory{raised_at(exc)} "
                                 f"{too_big(WIDE_T, WIDE_DIM)}") from None
        raise AssertionError(cannot_time(exc, "test_rope_values")) from None
    try:
        as_array(got, f"apply_rope on {WIDE_T:,} positions of head_dim {WIDE_DIM}", x.shape)
    except AssertionError as wrong:  # a wrong reply is the value tests' to charge, if they did
        try:
            own.gate()
        except AssertionError:
            raise wrong from None


@pytest.mark.points(2)
def test_alibi_slopes(student):
    """alibi_slopes: 2^(-8/n) powers for a power of two; 12 heads add 0.707, 0.354, 0.177, 0.088"""
    failures = Failures()
    for n in (8, 12, 1, 2, 3, 6, 16, 24, 64, 40):
        with failures.case():
            expect_close(student.call("alibi_slopes", n), ref.alibi_slopes(n),
                         f"alibi_slopes({n})", SLOPES)
    for n in (0, -8, 2.0):
        with failures.case():
            expect_raises("ValueError", f"alibi_slopes({n})", student.call, "alibi_slopes", n)
    failures.report()


def softmax(scores: np.ndarray) -> np.ndarray:
    top = np.max(scores, axis=-1, keepdims=True)
    weights = np.exp(scores - top)
    return weights / weights.sum(axis=-1, keepdims=True)


ALIBI_CASES = [(1, 1), (8, 5), (12, 9), (3, 16), (16, 33)]


def bias_of(student, heads: int, length: int) -> np.ndarray:
    what = f"alibi_bias({heads}, {length})"
    return as_array(student.call("alibi_bias", heads, length), what, (heads, length, length))


@pytest.mark.points(3)
def test_alibi_attention_weights(student):
    """softmax(scores + alibi_bias) is the spec's attention row by row; ValueError for size 0"""
    failures = Failures()
    for heads, length in ALIBI_CASES:
        with failures.case():
            got = bias_of(student, heads, length).astype(np.float64)
            scores = rng(320 + length).normal(size=(heads, length, length))
            with np.errstate(over="ignore", invalid="ignore"):
                weights = softmax(scores + got)
            expect_close(weights, softmax(scores + ref.alibi_bias(heads, length)),
                         f"softmax(scores + alibi_bias({heads}, {length}))", WEIGHTS)
    for args in ((0, 4), (4, 0), (-1, 3)):
        with failures.case():
            expect_raises("ValueError", f"alibi_bias{args}", student.call, "alibi_bias", *args)
    failures.report()


def form_difference(got: np.ndarray, expected: np.ndarray) -> str:
    """How ``got`` departs from the spec's form, in words; ``""`` when it does not."""
    future = ~np.isfinite(expected)
    found = []
    if not np.all(np.isneginf(got[future])):
        found.append("a finite mask above the diagonal (BLOOM and MPT use the dtype's most "
                     "negative value) where the spec has -inf")
    diagonal = np.diagonal(got, axis1=1, axis2=2)
    if not np.all(diagonal == 0):
        found.append("a constant added to each row, seen on the diagonal, where the spec has 0 "
                     "(the original ALiBi code and BLOOM add slope * j, MPT slope * "
                     "(j - (T - 1)))")
    return " and ".join(found)


@pytest.mark.points(1)
def test_alibi_exact_form(student):
    """alibi_bias is 0 on the diagonal and -inf above it (the spec's form, not a row constant)"""
    got = bias_of(student, 8, 6)
    difference = form_difference(got, ref.alibi_bias(8, 6))
    check(not difference, lambda: f"alibi_bias(8, 6) differs from the spec's form by "
                                  f"{difference}; softmax gives the same attention, and only "
                                  "this test asks for the exact form")
