"""Checks of numeric replies: arrays of the right shape, floats within a declared tolerance.

A reply meant to be an array may come back as a numpy array (it crossed the pipe as
data: ``sandbox/arrays.py``) or as nested lists: ``numpy.asarray`` decides, as the
contracts promise. A reply is judged in this order, and the first problem is the message:

1. an array of Python objects (numpy makes one from ragged rows) or something numpy cannot
   read as numbers;
2. the shape, before any value ("the expected shape transposed", "one axis too many");
3. the dtype's kind (a float array where floats are asked for: ``bool`` and complex fail);
4. the values: every entry within ``Tolerance`` of the expected one. The message names
   the first entry off and how far off it is, against the allowed error, and says when
   the whole reply is the expected array transposed.

The tolerance belongs to the test: each hidden test that compares floats declares a
``Tolerance`` and writes beside it the measurement it comes from (the disagreement of two
correct formulations at the largest inputs tested). Nothing here picks one.

Messages follow the policy of ``evidence.py``: a shape or an entry's index that a hidden
input decides is evidence, shown in a visible test and described in a hidden one; how far
off an entry is, is said as a power of ten of the allowed error, never as a number.
"""

import math
from dataclasses import dataclass

import numpy as np

from autograder.sandbox import Remote
from autograder.sandbox.arrays import ObjectArray

from .checks import Said, check, said, show
from .evidence import evidence, type_label

KINDS = {"float": "f", "int": "iu"}
KIND_WORDS = {"f": "floats", "iu": "integers"}


@dataclass(frozen=True)
class Tolerance:
    """``|got - expected| <= absolute + relative * |expected|`` for every entry.

    ``absolute`` may be an array that broadcasts against the expected value: a bound per
    entry, for errors that grow along an axis (a float32 angle's error grows with the
    position it encodes). ``measured`` says where the numbers come from.
    """

    absolute: "float | np.ndarray" = 0.0
    relative: float = 0.0
    measured: str = ""

    def bound(self, expected: np.ndarray) -> np.ndarray:
        # abs() in float64: in int64 the lowest value's is itself, negative
        magnitude = np.abs(np.asarray(expected, dtype=np.float64))
        return np.asarray(self.absolute, dtype=np.float64) + self.relative * magnitude


EXACT = Tolerance(measured="integers: compared exactly")


def _shape_text(shape: tuple[int, ...]) -> str:
    return str(tuple(int(n) for n in shape)).replace(",)", ")")


def shape_evidence(shape: tuple[int, ...]) -> str:
    """A shape for a message: shown when the test is visible, its number of axes when hidden."""
    return evidence(_shape_text(shape), f"a {len(shape)}-d shape")


def _shape_relation(got: tuple[int, ...], expected: tuple[int, ...]) -> str:
    """How two shapes differ, in words that give away no size."""
    if len(got) != len(expected):
        more = len(got) - len(expected)
        return (f"{abs(more)} {'axis' if abs(more) == 1 else 'axes'} "
                f"{'too many' if more > 0 else 'too few'}")
    if sorted(got) == sorted(expected) and len(got) >= 2 and got[::-1] == expected:
        return "the expected shape transposed"
    if sorted(got) == sorted(expected):
        return "the expected sizes in another order of axes"
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    return "wrong size on axis " + ", ".join(map(str, wrong))


def as_array(value: object, what: Said, shape: tuple[int, ...], kind: str = "float"
             ) -> np.ndarray:
    """``value`` as an array of ``shape`` holding ``kind`` ("float" or "int"), or a failed
    check that says what is wrong with it first."""
    if isinstance(value, ObjectArray):
        raise AssertionError(
            f"{said(what)} should return an array of {KIND_WORDS[KINDS[kind]]}, got an array "
            "of Python objects (dtype=object): numpy makes one when rows have different "
            "lengths or hold None; build it from numbers of one shape")
    if isinstance(value, Remote):
        raise AssertionError(f"{said(what)} should return an array, "
                             f"got a {type_label(value.type_name)} object")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = None
    if array is None or array.dtype.kind not in "biufc":
        raise AssertionError(f"{said(what)} should return an array of "
                             f"{KIND_WORDS[KINDS[kind]]}, got {show(value)}")
    if array.shape != tuple(shape):
        raise AssertionError(
            f"{said(what)} returned shape {shape_evidence(array.shape)}, expected "
            f"{shape_evidence(tuple(shape))}: {_shape_relation(array.shape, tuple(shape))}")
    check(array.dtype.kind in KINDS[kind] or (kind == "float" and array.size == 0),
          lambda: f"{said(what)} should return an array of {KIND_WORDS[KINDS[kind]]}, "
                  f"got dtype {array.dtype}")
    return array


def off_entries(got: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> np.ndarray:
    """A boolean array: the entries of ``got`` that are not within ``tolerance``
    (a NaN or an infinity is off unless the expected entry is the same; an infinite expected
    entry has an infinite bound, which any distance is within, so only a finite one has one).

    Two arrays of integers (or bools) are compared as integers: float64 holds no odd integer
    past 2**53, so as floats 2**53 + 1 was 2**53. ``!=`` compares an int64 with a uint64 by
    value; a distance, needed only when some bound is not 0, is taken in Python's integers
    (no numpy dtype holds a uint64 minus an int64), slower but exact."""
    expected = np.asarray(expected)
    if got.dtype.kind in "biu" and expected.dtype.kind in "biu":
        bound = tolerance.bound(expected)
        if not (bound > 0).any():
            return got != expected
        # np.asarray: two 0-d arrays subtract to a bare int, which np.abs reads as an int64
        # (|-2**63| wrapped round to -2**63, within any bound)
        distance = np.asarray(got.astype(object) - expected.astype(object), dtype=object)
        return ~np.asarray(np.abs(distance) <= bound, dtype=bool)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got.astype(np.float64) - expected.astype(np.float64))
        same = (got == expected) | (np.isnan(got) & np.isnan(expected))
        return ~(same | (np.isfinite(expected) & (diff <= tolerance.bound(expected))))


def agrees(got: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> bool:
    """True when ``got`` is an array of real numbers of ``expected``'s shape and every entry
    is within tolerance. ``got`` may be a reply as it came (a timing test's output): complex
    numbers agree with none (cast to floats, their imaginary parts would be dropped), nor
    text (read as the numbers it spells) nor Python objects."""
    got = np.asarray(got)
    return (got.dtype.kind in "biuf" and got.shape == np.shape(expected)
            and not off_entries(got, expected, tolerance).any())


def same_reply(got: object, other: object, tolerance: Tolerance) -> bool:
    """True when two replies of a student's code are the same answer: arrays of real numbers
    within ``tolerance`` of each other, anything else (text, ``None``, ragged lists, lists of
    arrays) equal item by item. Never raises: a timing test compares a timed reply with the
    untimed one whatever the code returned, and a reply numpy cannot read is an answer too.

    Two plain numbers are compared as ``agrees`` compares them, in Python: through numpy
    each pair cost 75 us, and a reply of a million numbers and one word (numpy reads no
    numbers there, so every item is compared alone) kept the scorer busy for over a minute."""
    bounds = np.asarray(tolerance.absolute, dtype=np.float64)
    lowest = float(bounds.min()) if bounds.size else None
    return _same(got, other, tolerance, lowest)


def _same(got: object, other: object, tolerance: Tolerance, lowest: float | None) -> bool:
    if lowest is not None and type(got) in _NUMBERS and type(other) in _NUMBERS:
        verdict = _numbers_agree(got, other, tolerance.relative, lowest)  # type: ignore[arg-type]
        if verdict is not None:
            return verdict
    try:
        with np.errstate(all="ignore"):
            first, second = np.asarray(got), np.asarray(other)
    except (TypeError, ValueError, OverflowError):
        first = second = None
    if first is not None and first.dtype.kind in "biuf" and second.dtype.kind in "biuf":
        return agrees(first, second, tolerance)
    if type(got) is not type(other):
        return False
    if isinstance(got, (list, tuple)):
        return len(got) == len(other) and all(  # type: ignore[arg-type]
            _same(a, b, tolerance, lowest)
            for a, b in zip(got, other))  # type: ignore[call-overload]
    if isinstance(got, dict):
        return got.keys() == other.keys() and all(  # type: ignore[attr-defined]
            _same(got[k], other[k], tolerance, lowest) for k in got)  # type: ignore[index]
    if isinstance(got, np.ndarray):  # text: the same dtype, shape and entries
        return got.dtype == other.dtype and bool(np.array_equal(got, other))  # type: ignore
    try:
        return bool(got == other)
    except (TypeError, ValueError):
        return False


_NUMBERS = (bool, int, float)
_INT_RANGE = range(-(2**63), 2**64)  # the Python ints numpy reads as int64 or uint64


def _numbers_agree(got: float, expected: float, relative: float, lowest: float) -> bool | None:
    """``agrees`` on two Python numbers, ``lowest`` the smallest absolute bound; ``None`` for
    an int numpy would read as an object (past 64 bits), left to the general path."""
    if any(type(v) is int and v not in _INT_RANGE for v in (got, expected)):
        return None
    bound = lowest + relative * abs(float(expected))
    if type(got) is not float and type(expected) is not float:  # integers: exactly
        return abs(got - expected) <= bound if bound > 0 else got == expected
    got, expected = float(got), float(expected)
    if got == expected or (math.isnan(got) and math.isnan(expected)):
        return True
    return math.isfinite(expected) and abs(got - expected) <= bound


def _how_far(got: float, expected: float, allowed: float) -> str:
    """How far an entry ``got`` is from ``expected``, against ``allowed``, as a power of ten
    (never the number itself). Both are Python numbers: integers subtract exactly."""
    if not math.isfinite(expected):
        return "off (a NaN or an infinity is expected there)"
    if not math.isfinite(got):
        return "not a finite number where a finite one is expected"
    if allowed <= 0:
        return "off (an exact value is expected)"
    diff = abs(got - expected)
    # Two finite floats can be further apart than a float holds (1e308 against -1e308): half
    # that is within it. A ratio past float's range (1e308 against 1e-12) is over 10^12.
    ratio = diff / allowed if math.isfinite(diff) else abs(got / 2 - expected / 2) / allowed * 2
    power = max(0, round(math.log10(ratio))) if math.isfinite(ratio) else 13
    if power > 12:
        return "off by over 10^12 times the allowed error"
    return f"off by about {10 ** power:,} times the allowed error"


def expect_close(value: object, expected: np.ndarray, what: Said, tolerance: Tolerance,
                 kind: str = "float") -> np.ndarray:
    """``value`` as an array equal to ``expected`` within ``tolerance``, or a failed check
    naming the first entry off, how far, and a transposed reply as such."""
    expected = np.asarray(expected)
    if _transposed(value, expected, tolerance):
        raise AssertionError(f"{said(what)} returned shape {shape_evidence(expected.shape[::-1])}"
                             f", expected {shape_evidence(expected.shape)}: the reply is the "
                             "expected array transposed")
    got = as_array(value, what, expected.shape, kind)
    off = off_entries(got, expected, tolerance)
    if not off.any():
        return got
    first = tuple(int(i) for i in np.argwhere(off)[0])
    bound = np.broadcast_to(tolerance.bound(expected), expected.shape)[first]
    how = _how_far(got[first].item(), expected[first].item(), float(bound))
    share = "every entry" if off.all() else "some entries"
    square = got.ndim >= 2 and agrees(got.T, expected, tolerance)
    note = "; the reply is the expected array transposed" if square else ""
    index = evidence(f", at index {list(first)},", "")
    values = evidence(f" ({float(got[first]):.6g}, expected {float(expected[first]):.6g}, "
                      f"allowed error {float(bound):.2g})", "")
    raise AssertionError(f"{said(what)} is wrong in {share}: the first{index} is "
                         f"{how}{values}{note}")


def _transposed(value: object, expected: np.ndarray, tolerance: Tolerance) -> bool:
    """True when ``value`` is an array of numbers whose transpose is ``expected``."""
    if not isinstance(value, (np.ndarray, list)):
        return False
    try:
        value = np.asarray(value)
    except (ValueError, TypeError):
        return False
    if value.ndim < 2 or value.dtype.kind not in "biuf" or value.shape == expected.shape:
        return False
    return value.shape[::-1] == expected.shape and agrees(value.T, expected, tolerance)
