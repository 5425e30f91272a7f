"""Part 2: absolute positions, added to the token vectors before the first layer.

Attention by itself does not know the order of its inputs, so a model adds a vector that
depends on each token's position. Two ways are here: the fixed sinusoidal table of
"Attention Is All You Need" (even columns sine, odd columns cosine, frequency
``base^(-2i/d)``), with the rotation matrix that shifts it by ``k`` positions, and a learned
table as in GPT-2 (nanoGPT's ``wpe``), which is added row by row and has nothing to offer past
its last row.

Left out: tensor2tensor's other column layout (all sines, then all cosines; the notebook
shows it), dropout after the sum, and positions that do not start at 0 (a cache offset
during generation).
"""

import math
import numbers

import numpy as np
from numpy.typing import ArrayLike

from .embedding import check_size


def check_base(base: object) -> float:
    """Return ``base`` as a float if it is a finite real number above 0, else ``ValueError``.

    The frequencies are ``base^(-2i/d)``: a base of 0 or below has no real powers, and a
    base of 1 (allowed, though useless) gives every pair the same frequency 1. ``bool`` is
    refused like everywhere else.
    """
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise ValueError(f"base must be a real number above 0, got {base!r}")
    if not (math.isfinite(base) and base > 0):
        raise ValueError(f"base must be a finite number above 0, got {base!r}")
    return float(base)


def check_even(value: object, name: str) -> int:
    """A positive even ``int``: the size of a vector made of (sine, cosine) pairs."""
    value = check_size(value, name)
    if value % 2:
        raise ValueError(f"{name} must be even (the dimensions come in pairs), got {value}")
    return value


def sinusoidal_positions(n_positions: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The sinusoidal table, float64 of shape ``(n_positions, d_model)``.

    ``PE[p, 2i] = sin(p * w_i)`` and ``PE[p, 2i+1] = cos(p * w_i)`` with
    ``w_i = base^(-2i/d_model)``: the first pair turns once per 2*pi positions, the last
    almost not at all, so together the pairs tell positions apart like the hands of a clock.
    Row 0 is ``[0, 1, 0, 1, ...]`` and every row has norm ``sqrt(d_model / 2)``.
    ``ValueError`` for non-positive sizes, an odd ``d_model`` or a bad ``base``.
    """
    n_positions = check_size(n_positions, "n_positions")
    d_model = check_even(d_model, "d_model")
    base = check_base(base)
    omega = base ** (-np.arange(0, d_model, 2) / d_model)
    angles = np.arange(n_positions)[:, None] * omega[None, :]
    table = np.empty((n_positions, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def sinusoidal_shift(k: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The matrix ``M_k`` (float64, ``(d_model, d_model)``) with ``PE[p + k] = PE[p] @ M_k``.

    Each (sine, cosine) pair is a point on a circle, and moving ``k`` positions turns it by
    the angle ``k * w_i``, whatever ``p`` is. So ``M_k`` is block-diagonal, one 2x2 rotation
    ``[[cos, -sin], [sin, cos]]`` of ``k * w_i`` per pair (row-vector convention: the vector
    is on the left). One fixed matrix shifts every position by the same offset, which is why
    a linear layer can learn to look a fixed number of tokens back. ``k`` may be negative
    and must be an int (``ValueError`` otherwise, ``bool`` included).
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ValueError(f"the offset k must be an int, got {k!r}")
    d_model = check_even(d_model, "d_model")
    base = check_base(base)
    angles = int(k) * base ** (-np.arange(0, d_model, 2) / d_model)
    cos, sin = np.cos(angles), np.sin(angles)
    shift = np.zeros((d_model, d_model))
    even, odd = np.arange(0, d_model, 2), np.arange(1, d_model, 2)
    shift[even, even] = cos
    shift[even, odd] = -sin
    shift[odd, even] = sin
    shift[odd, odd] = cos
    return shift


def add_learned_positions(token_vectors: ArrayLike, position_table: ArrayLike) -> np.ndarray:
    """``token_vectors + position_table[:T]`` for inputs of shape ``(T, d)`` or ``(B, T, d)``.

    GPT-2's way (nanoGPT: ``tok_emb + wpe(pos)``): position ``p`` owns row ``p`` of a learned
    table, the same row in every sequence of a batch. A sequence longer than the table has
    positions with no row at all, so it raises ``ValueError`` giving the context length and
    the table size (GPT-2's table has 1,024 rows). Also ``ValueError`` when the table is not
    2-D, the input is neither 2-D nor 3-D, or the widths ``d`` differ. The result has the
    dtype numpy gives the sum.
    """
    x = np.asarray(token_vectors)
    table = np.asarray(position_table)
    if table.ndim != 2:
        raise ValueError(f"the position table must have shape (n_positions, d), "
                         f"got shape {table.shape}")
    if x.ndim not in (2, 3):
        raise ValueError(f"token_vectors must have shape (T, d) or (B, T, d), got {x.shape}")
    if x.shape[-1] != table.shape[1]:
        raise ValueError(f"token vectors have width {x.shape[-1]} but the position table "
                         f"has width {table.shape[1]}")
    length = x.shape[-2]
    if length > table.shape[0]:
        raise ValueError(f"a context of {length} tokens does not fit a position table of "
                         f"{table.shape[0]} positions: learned positions stop at the table's "
                         "last row")
    return x + table[:length]
