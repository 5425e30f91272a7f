"""Inputs and tolerances of the tokens-to-vectors hidden tests.

Every input is made from a fixed seed, so a grade is a function of the submission alone.

Tolerances are declared here, one per kind of float answer, each from a measurement:

- Angles (sinusoidal table, shift matrix, RoPE). The contract accepts float32 accuracy
  whatever dtype comes back, because models compute positions in float32. The error of a
  correct float32 formula grows with the position: the frequency ``base^(-2i/d)`` carries
  a relative error of about ``ln(base)`` float32 roundings, and the angle ``p * w`` multiplies
  it by ``p``. Measured here (``python -m tests.tokens_to_vectors.measure_tolerance``: a
  float32 formula against the float64 reference, ``exp(-ln(base) 2i/d)`` against
  ``base ** (-2i/d)``, d up to 128): at most 3.6e-5 at positions up to 64 and 2.6e-3 up to
  4,096, that is ``p * ln(base) * u`` times 0.95 to 1.2 (``u = 2^-24``, float32's unit
  roundoff). The bound is ``4 u (1 + p ln(base)) + 1e-6`` per row, three times the worst
  measurement; every realistic bug (another exponent, base, pairing or sign) is off by
  0.01 to 2 at the positions tested.
- Rows copied from a table (lookups, one-hot products of integers): exact.
"""

import math

import numpy as np

from autograder.suite.numeric import Tolerance

UNIT_ROUNDOFF_32 = 2.0 ** -24


def angle_tolerance(positions: np.ndarray, base: float = 10000.0, scale: float = 1.0
                    ) -> Tolerance:
    """The bound per row for values computed from the angles ``positions * base^(-2i/d)``,
    for inputs of magnitude up to ``scale`` (see the module docstring)."""
    positions = np.abs(np.asarray(positions, dtype=np.float64))
    per_row = 4 * UNIT_ROUNDOFF_32 * (1 + positions * max(1.0, math.log(base))) + 1e-6
    return Tolerance(absolute=scale * per_row[:, None],
                     measured="float32 angles: 4 u (1 + p ln(base)) + 1e-6 per row")


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
