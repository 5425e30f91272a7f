"""Positions computed in float32 and returned as float32, as models compute them
(catalogue: a correct alternative, edited into the reference).

HF LLaMA, Meta's LLaMA and GPT-J build their angles in float32; the contract accepts
float32 accuracy whatever dtype comes back, with a bound that grows with the position.
The frequencies are ``exp(-ln(base) 2i/d)``, another formulation than the reference's
``base ** (-2i/d)``. Nothing may be charged.
"""

import math
import numbers

import numpy as np


def _even(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    if value % 2:
        raise ValueError(f"{name} must be even, got {value}")
    return int(value)


def _frequencies32(d, base):
    exponents = np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    return np.exp(np.float32(-math.log(base)) * exponents)


def sinusoidal_positions(n_positions, d_model, base=10000.0):
    if isinstance(n_positions, bool) or not isinstance(n_positions, numbers.Integral) or (
            n_positions <= 0):
        raise ValueError(f"n_positions must be a positive int, got {n_positions!r}")
    d_model = _even(d_model, "d_model")
    angles = np.arange(n_positions, dtype=np.float32)[:, None] * _frequencies32(d_model, base)
    table = np.empty((n_positions, d_model), dtype=np.float32)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def rope_frequencies(head_dim, base=10000.0):
    return _frequencies32(_even(head_dim, "head_dim"), base)


def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float32)
    positions = np.asarray(positions)
    if x.ndim < 2 or positions.shape != (x.shape[-2],):
        raise ValueError(f"x of shape {x.shape} needs one position per row, "
                         f"got shape {positions.shape}")
    angles = positions.astype(np.float32)[:, None] * rope_frequencies(x.shape[-1], base)
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = x.shape[-1] // 2
    return x * cos + np.concatenate([-x[..., half:], x[..., :half]], axis=-1) * sin
