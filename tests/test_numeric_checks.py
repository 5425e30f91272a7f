"""The check kit's numeric checks (``autograder/suite/numeric.py``): shape before values, the
dtype's kind, a tolerance the test declares, and messages that keep hidden values hidden."""

import math
import warnings

import numpy as np
import pytest

from autograder.sandbox.arrays import ObjectArray
from autograder.suite import numeric
from autograder.suite.evidence import render
from autograder.suite.numeric import EXACT, Tolerance, agrees, as_array, expect_close, same_reply

TIGHT = Tolerance(absolute=1e-6)
EXPECTED = np.arange(12, dtype=np.float64).reshape(3, 4) / 7


def failure(value, expected=EXPECTED, tolerance=TIGHT, kind="float") -> tuple[str, str]:
    """The message of a failed ``expect_close``: as a visible test shows it, and hidden."""
    with pytest.raises(AssertionError) as caught:
        expect_close(value, expected, "f(x)", tolerance, kind)
    text = str(caught.value)
    return render(text, True, 2000), render(text, False, 2000)


def test_a_list_and_an_array_of_another_float_dtype_are_accepted():
    assert expect_close(EXPECTED.tolist(), EXPECTED, "f(x)", TIGHT).dtype == np.float64
    loose = Tolerance(absolute=1e-6, relative=1e-6)
    assert expect_close(EXPECTED.astype(np.float32), EXPECTED, "f(x)", loose).shape == (3, 4)


def test_the_shape_is_reported_first_and_a_transpose_as_a_transpose():
    shown, hidden = failure(EXPECTED.T.copy())
    assert "shape (4, 3), expected (3, 4)" in shown and "transposed" in shown
    assert "(4, 3)" not in hidden and "transposed" in hidden and "a 2-d shape" in hidden
    shown, _ = failure(EXPECTED[None])
    assert "1 axis too many" in shown
    shown, _ = failure(EXPECTED[:, :3] + 1)
    assert "wrong size on axis 1" in shown


def test_a_square_reply_transposed_says_so():
    square = np.arange(9.0).reshape(3, 3)
    shown, _ = failure(square.T.copy(), square)
    assert "transposed" in shown and "index [0, 1]" in shown


def test_the_first_entry_off_and_how_far_without_numbers_when_hidden():
    got = EXPECTED.copy()
    got[1, 2] += 0.5
    got[2, 0] += 0.001
    shown, hidden = failure(got)
    assert "some entries" in shown and "index [1, 2]" in shown
    assert "about 1,000,000 times the allowed error" in shown and "expected 0.857143" in shown
    assert "[1, 2]" not in hidden and "0.857" not in hidden and "the first… is off" in hidden
    assert "about 1,000,000 times" in hidden  # a power of ten of the allowed error only


def test_a_bound_per_entry_grows_along_an_axis():
    positions = np.arange(4096)[:, None]
    angles = positions * np.array([1.0, 0.1, 0.01])
    float32 = np.sin(angles.astype(np.float32))
    growing = Tolerance(absolute=1e-6 + 1e-6 * positions)
    assert agrees(float32, np.sin(angles), growing)
    assert not agrees(float32, np.sin(angles), Tolerance(absolute=1e-6))
    assert not agrees(np.sin(angles * 1.001), np.sin(angles), growing)


def test_nan_infinity_objects_and_kinds():
    nan = EXPECTED.copy()
    nan[0, 0] = np.nan
    assert "not a finite number" in failure(nan)[0]
    assert "dtype=object" in failure(ObjectArray((3, 4)))[0]
    assert "dtype bool" in failure(EXPECTED > 1)[0]
    assert "array of floats" in failure("text")[0]
    assert "array of floats" in failure([[1.0, 2.0], [3.0]])[0]
    assert as_array([[1, 2]], "f", (1, 2), kind="int").dtype.kind == "i"
    assert "array of integers" in failure(EXPECTED, EXPECTED, kind="int")[0]
    inf = np.full((2,), np.inf)
    assert agrees(inf, inf, TIGHT) and not agrees(inf, -inf, TIGHT)


def test_showing_an_array_reply_costs_little_whatever_its_shape():
    """``show`` writes its text whether or not the check fails; numpy's repr skips the middle
    of an axis only past 6 entries, so an array of 2 million entries on 21 axes of 2 (2 MB
    of bools on the pipe) took numpy 20 s of the scoring process to write out in full. Past
    the limit, numpy's repr is never asked for."""
    from autograder.suite.checks import show

    class Unwritten(np.ndarray):
        def __repr__(self) -> str:
            raise AssertionError("the whole array was written out")

    wide = np.zeros((2,) * 21, dtype=bool).view(Unwritten)
    text = show(wide)
    assert render(text, True, 2000).startswith("<an array of shape (2, 2, 2,")
    assert "bool" in render(text, True, 2000)
    assert "False" not in render(text, False, 2000)  # hidden: its outline, no entries
    assert show(np.arange(3)) == show(np.arange(3))  # a small one keeps its repr
    assert "array([0, 1, 2])" in render(show(np.arange(3)), True, 2000)


def test_an_infinite_expected_entry_is_met_only_by_the_same_infinity():
    """With a relative tolerance the bound of an infinite entry is infinite, and so is the
    distance of any other value from it: every number, and the other infinity, was within."""
    relative = Tolerance(relative=1e-6)
    expected = np.array([np.inf, -np.inf, 1.0])
    assert agrees(expected.copy(), expected, relative)
    for wrong in ([0.0, -np.inf, 1.0], [-np.inf, -np.inf, 1.0], [np.inf, 5.0, 1.0]):
        assert not agrees(np.array(wrong), expected, relative)
    shown, _ = failure(np.array([1.0, -np.inf, 1.0]), expected, relative)
    assert "an infinity is expected" in shown


def test_an_entry_off_by_more_than_a_float_holds_is_said_as_over():
    """``diff / allowed`` overflows to infinity for a finite reply of 1e308 against an
    allowed error of 1e-12; ``round`` of that raised ``OverflowError``, an internal error in
    place of the message."""
    shown, _ = failure(np.full((3, 4), 1e308), tolerance=Tolerance(absolute=1e-12))
    assert "over 10^12 times the allowed error" in shown


def test_integers_are_compared_exactly_past_what_a_float_holds():
    """float64 holds no odd integer past 2**53: compared as floats, 2**53 + 1 was 2**53 and
    met an exact check. Integers are compared as integers, an int64 with a uint64 by value
    (2**64 - 1 is not -1), and a tolerance on integers is a distance in integers."""
    big = np.array([2**53 + 1, 7])
    assert not agrees(big, np.array([2**53, 7]), EXACT)
    assert agrees(big, big.copy(), EXACT) and agrees(big.astype(np.uint64), big, EXACT)
    assert not agrees(np.array([2**64 - 1], dtype=np.uint64), np.array([-1]), EXACT)
    assert "an exact value is expected" in failure(big, np.array([2**53, 7]), EXACT, "int")[0]
    one = Tolerance(absolute=1)
    assert agrees(np.array([2**62 + 1]), np.array([2**62]), one)
    assert not agrees(np.array([2**62 + 2]), np.array([2**62]), one)
    assert not agrees(np.array([2**64 - 1], dtype=np.uint64), np.array([-1]), one)
    lowest = np.array([np.iinfo(np.int64).min])  # its abs() in int64 is itself, negative
    assert agrees(lowest + 1, lowest, Tolerance(relative=1e-6))
    shown, _ = failure(np.array([2**62 + 12]), np.array([2**62]), one, "int")
    assert "about 10 times the allowed error" in shown


def test_a_reply_of_complex_numbers_or_text_never_agrees_with_real_numbers():
    """``agrees`` judges replies as they come (a timing test's output): a complex array was
    cast to float64, its imaginary part dropped with a ``ComplexWarning``, and an array of
    strings was read as the numbers they spell. Only real numbers agree, without a warning."""
    expected = np.array([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for reply in (expected + 1j, expected + 0j, np.array(["1.0", "2.0"]),
                      np.array([1.0, 2.0], dtype=object)):
            assert not agrees(reply, expected, TIGHT)
        assert agrees(expected.astype(np.float32), expected, TIGHT)
        assert agrees(np.array([1, 2]), expected, TIGHT)


def test_two_finite_numbers_whose_difference_overflows_are_far_off_not_infinite():
    """1e308 against an expected -1e308: their difference is past float's range, infinite,
    and was said to be "not a finite number" of a reply that is one. A reply that is a NaN or
    an infinity is said to be one."""
    expected = np.full((3, 4), -1e308)
    shown, hidden = failure(-expected, expected)
    assert "over 10^12 times the allowed error" in shown and "not a finite" not in shown
    assert "over 10^12 times the allowed error" in hidden
    shown, _ = failure(-expected, expected, Tolerance(relative=1e-9))  # 2e308 against 1e299
    assert "about 1,000,000,000 times the allowed error" in shown
    for wrong in (np.inf, -np.inf, np.nan):
        assert "not a finite number" in failure(np.full((3, 4), wrong), expected)[0]


def test_two_replies_of_any_type_are_compared_without_raising():
    """``same_reply`` judges a timed reply against the untimed one, whatever they are: numbers
    within the tolerance, anything numpy cannot read as numbers equal item by item."""
    loose = Tolerance(absolute=1e-3)
    assert same_reply(EXPECTED, EXPECTED + 1e-4, loose)
    assert same_reply(EXPECTED.tolist(), EXPECTED, loose)  # a list spells the same numbers
    assert not same_reply(EXPECTED, EXPECTED + 1e-2, loose)
    assert not same_reply(EXPECTED, EXPECTED.T, loose)
    for reply in (None, "not yet", [[1.0], [2.0, 3.0]], [EXPECTED, "x"], {"a": [1, [2]]},
                  np.array(["a", "b"]), [None, None], EXPECTED + 1j):
        assert same_reply(reply, reply, loose), reply
    for reply, other in ((None, "None"), ("a", "b"), ([[1.0], [2.0, 3.0]], [[1.0], [2.0, 4.0]]),
                         ([EXPECTED, "x"], [EXPECTED + 1, "x"]), ({"a": 1}, {"b": 1}),
                         (np.array(["a", "b"]), np.array(["a", "c"])), (None, EXPECTED),
                         (EXPECTED + 1j, EXPECTED + 2j), ([1.0, 2.0], (1.0, 2.0, 3.0))):
        assert not same_reply(reply, other, loose), (reply, other)


def test_two_plain_numbers_are_judged_as_agrees_judges_their_arrays():
    """``same_reply`` compares a pair of Python numbers without numpy, with ``agrees``'s
    verdict on the same pair as arrays: integers exactly within the bound, NaN like NaN, an
    infinite expected value only by itself, the smallest bound of a per-entry tolerance."""
    values = [0, 1, -1, 3, 2**53 + 1, 2**63 - 1, 2**64 - 1, -(2**63), True, False, 0.0, -0.0,
              1e-9, 1.0, 1.0 + 1e-7, 3.0, 1e308, -1e308, math.inf, -math.inf, math.nan]
    tolerances = [EXACT, Tolerance(absolute=1e-6), Tolerance(relative=1e-6), Tolerance(
        absolute=np.array([0.5, 1e-8, 2.0]), relative=1e-9), Tolerance(absolute=2.0)]
    for tolerance in tolerances:
        for got in values:
            for expected in values:
                wanted = agrees(np.asarray(got), np.asarray(expected), tolerance)
                assert same_reply(got, expected, tolerance) == wanted, (got, expected, tolerance)


def test_a_long_reply_numpy_cannot_read_costs_no_numpy_call_per_number(monkeypatch):
    """A million numbers and one word (numpy reads text, not numbers) once took the scorer
    75 us per number through ``agrees``: the numbers now never reach it."""
    calls = []
    real = numeric.agrees
    monkeypatch.setattr(numeric, "agrees", lambda *args: calls.append(1) or real(*args))
    timed, untimed = [0.0] * 1000 + ["a"], [1e-9] * 1000 + ["a"]
    assert same_reply(timed, untimed, Tolerance(absolute=1e-6))
    assert not same_reply(timed, [1.0] * 1000 + ["a"], Tolerance(absolute=1e-6))
    assert calls == []
