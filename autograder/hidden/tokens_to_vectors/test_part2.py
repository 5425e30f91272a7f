"""Part 2: absolute positions (15 points).

The sinusoidal table is judged in the layout the reply follows (the spec's interleaved
sine/cosine, or tensor2tensor's halves: ``conventions.py``); only the layout test charges
the halves. The layout test reads the layout from row 0 alone (zeros where the sines are,
ones where the cosines are), so wrong frequencies are charged by the value tests only.
Floats are compared within ``inputs.angle_tolerance``, float32 accuracy at the positions
tested. The shift matrix is graded by the identity ``PE[p + k] = PE[p] @ M_k``
on hidden ``p`` and ``k`` (negative too), in either layout, not by its entries.
"""

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.suite.checks import Failures, check, expect_raises, show
from autograder.suite.numeric import Tolerance, as_array, expect_close

from .conventions import HALVES, NAMES, SPEC, follows, sinusoidal
from .inputs import angle_tolerance, rng

PART = 2

# A base of None leaves it out of the call: the spec's default, 10,000, is expected.
TABLE_CASES = [(3, 4, 10000.0), (64, 16, 10000.0), (50, 10, 100.0), (1, 2, 10000.0),
               (2048, 128, 10000.0), (300, 6, 500.0), (64, 16, None)]
DEFAULT_BASE = 10000.0


def table_call(n: int, d: int, base: float | None) -> tuple[tuple, str]:
    """The arguments of a ``sinusoidal_positions`` call, and the call as a student reads it."""
    if base is None:
        return (n, d), f"sinusoidal_positions({n}, {d})"
    return (n, d, base), f"sinusoidal_positions({n}, {d}, base={base:g})"


def table_of(student, n: int, d: int, base: float | None) -> tuple[np.ndarray, str | None]:
    """The student's table as an array of the right shape, and the layout it follows."""
    args, what = table_call(n, d, base)
    got = as_array(student.call("sinusoidal_positions", *args), what, (n, d))
    base = DEFAULT_BASE if base is None else base
    tolerance = angle_tolerance(np.arange(n), base)
    layout = follows(got, {layout: sinusoidal(n, d, base, layout) for layout in (SPEC, HALVES)},
                     tolerance)
    return got, layout


@pytest.mark.points(4)
def test_sinusoidal_values(student):
    """sinusoidal_positions: sin(p w_i), cos(p w_i) with w_i = base^(-2i/d), in either layout"""
    failures = Failures()
    for n, d, base in TABLE_CASES:
        with failures.case():
            got, layout = table_of(student, n, d, base)
            what = table_call(n, d, base)[1]
            base = DEFAULT_BASE if base is None else base
            expect_close(got, sinusoidal(n, d, base, layout or SPEC), what,
                         angle_tolerance(np.arange(n), base))
    failures.report()


def layout_of_row_zero(row: np.ndarray) -> str | None:
    """The layout that row 0 (``sin 0 = 0`` where the sines are, ``cos 0 = 1`` where the
    cosines are) shows, whatever the frequencies: the spec's ``[0, 1, 0, 1, ...]`` or the
    halves' ``[0, ..., 0, 1, ..., 1]``."""
    half = len(row) // 2
    shapes = {SPEC: np.tile([0.0, 1.0], half), HALVES: np.repeat([0.0, 1.0], half)}
    return next((name for name, shape in shapes.items() if np.allclose(row, shape, atol=1e-6)),
                None)


@pytest.mark.points(1)
def test_sinusoidal_layout(student):
    """sinusoidal_positions: sines in even columns, cosines in odd ones (the spec's layout)"""
    what = "sinusoidal_positions(64, 16)"
    got = as_array(student.call("sinusoidal_positions", 64, 16), what, (64, 16))
    layout = layout_of_row_zero(got[0])
    check(layout == SPEC,
          lambda: f"{what} follows "
                  + (NAMES[layout] if layout else "neither layout (row 0 should be sin 0 = 0 "
                     "in the sine columns and cos 0 = 1 in the cosine columns)")
                  + "; the spec asks for PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)")


@pytest.mark.points(3)
def test_sinusoidal_properties(student):
    """sinusoidal_positions: values in [-1, 1], row 0 of zeros and ones, row norms sqrt(d/2)"""
    failures = Failures()
    for n, d, base in TABLE_CASES:
        args, what = table_call(n, d, base)
        with failures.case():
            got = as_array(student.call("sinusoidal_positions", *args), what, (n, d))
            slack = angle_tolerance(np.arange(n), base or DEFAULT_BASE).bound(got)
            check(np.all(np.abs(got) <= 1 + slack), f"{what} has values outside [-1, 1]")
            zeros_ones = np.sort(got[0])
            check(np.allclose(zeros_ones, np.repeat([0.0, 1.0], d // 2), atol=1e-6),
                  f"row 0 of {what} should hold d/2 zeros (sin 0) and d/2 ones (cos 0)")
            norms = np.linalg.norm(got, axis=1)
            check(np.allclose(norms, np.sqrt(d / 2), atol=1e-4),
                  lambda: f"every row of {what} should have norm sqrt(d/2) = "
                          f"{np.sqrt(d / 2):.4f} (sin^2 + cos^2 = 1 per pair); row "
                          f"{int(np.argmax(np.abs(norms - np.sqrt(d / 2))))} does not")
    failures.report()


@pytest.mark.points(1)
def test_sinusoidal_errors(student):
    """ValueError for an odd d_model, sizes below 1, and an offset k that is not an int"""
    failures = Failures()
    # A bad base is left alone: the contract names no error for it.
    calls = [("sinusoidal_positions", args) for args in (
        (10, 7), (0, 8), (-3, 8), (10, 0), (10, -4))] + [("sinusoidal_shift", args) for args in (
            (2.5, 8), (True, 8), (3, 7))]
    for name, args in calls:
        with failures.case():
            expect_raises("ValueError", f"{name}{args}", student.call, name, *args)
    failures.report()


# ``None``: called without ``base``, whose default the spec fixes at 10,000.
SHIFT_CASES = [(1, 4, 10000.0), (5, 16, 10000.0), (-3, 16, 10000.0), (17, 32, 100.0),
               (-40, 8, 10000.0), (0, 6, 10000.0), (200, 64, 10000.0), (300, 64, None)]


@pytest.mark.points(3)
def test_shift_moves_every_position(student):
    """sinusoidal_shift(k) maps row p of the table to row p + k, for every p (negative k too)"""
    failures = Failures()
    for k, d, given in SHIFT_CASES:
        positions = rng(200 + d).integers(max(0, -k), 300, size=12)
        base = DEFAULT_BASE if given is None else given
        what = f"sinusoidal_shift({k}, {d}" + ("" if given is None else f", base={given:g}") + ")"
        with failures.case():
            args = (k, d) if given is None else (k, d, given)
            shift = as_array(student.call("sinusoidal_shift", *args), what, (d, d))
            reached = None
            for layout in (SPEC, HALVES):
                table = sinusoidal(max(positions) + max(k, 0) + 1, d, base, layout)
                tolerance = angle_tolerance(positions + abs(k), base, scale=2.0)
                moved = table[positions] @ shift
                if np.all(np.abs(moved - table[positions + k]) <= tolerance.bound(moved)):
                    reached = layout
                    break
            check(reached is not None,
                  f"with M = {what}, PE[p] @ M should be PE[p + {k}] for every position p, "
                  "in the spec's layout (or with all sines first); it is not")
    failures.report()


@pytest.mark.points(3)
def test_add_learned_positions(student):
    """add_learned_positions adds table[:T] to (T, d) and (B, T, d); too long raises ValueError"""
    failures = Failures()
    table = rng(210).normal(size=(16, 8))
    close = Tolerance(absolute=1e-12, relative=1e-12, measured="one float64 addition")
    for shape in ((16, 8), (5, 8), (3, 7, 8), (1, 1, 8)):
        x = rng(211 + len(shape)).normal(size=shape)
        with failures.case():
            got = student.call("add_learned_positions", x, table)
            expect_close(got, ref.add_learned_positions(x, table),
                         f"add_learned_positions(vectors of shape {shape}, a table of shape "
                         "(16, 8))", close)
    for shape, rows in (((4, 8), np.zeros(16)), ((4, 6), table)):
        what = f"add_learned_positions(vectors of shape {shape}, a table of shape {rows.shape})"
        with failures.case():  # shapes that do not fit: the notebook's contract
            expect_raises("ValueError", what, student.call, "add_learned_positions",
                          np.zeros(shape), rows)
    # A table of one row is the case numpy's broadcasting lets through silently.
    for shape, rows in (((17, 8), 16), ((2, 20, 8), 16), ((3, 8), 1)):
        what = f"add_learned_positions(vectors of shape {shape}, a table of {rows} positions)"
        with failures.case():
            exc = expect_raises("ValueError", what, student.call, "add_learned_positions",
                                np.zeros(shape), table[:rows])
            length = str(shape[-2])
            check(length in exc.message and str(rows) in exc.message,
                  lambda: f"{what} raised ValueError; its message should give the context "
                          f"length ({length}) and the table size ({rows}), it was "
                          f"{show(exc.message)}")
    failures.report()
