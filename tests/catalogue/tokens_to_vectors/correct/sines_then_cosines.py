"""Part 2 in tensor2tensor's column layout (catalogue: a correct alternative, edited into
the reference).

``get_timing_signal_1d`` concatenates all the sines, then all the cosines, where the spec
interleaves them: column ``i`` holds ``sin(p w_i)`` and column ``i + d/2`` holds
``cos(p w_i)``, with the spec's frequencies ``w_i = base^(-2i/d)``. The same information in
another order, so the shift matrix pairs column ``i`` with ``i + d/2`` too. Only the layout
test may charge it, and its message must name the layout ("all sines, then all cosines").
"""

import numbers

import numpy as np


def _whole(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def _pairs(d_model):
    d_model = _whole(d_model, "d_model")
    if d_model % 2:
        raise ValueError(f"d_model must be even, got {d_model}")
    return d_model // 2


def sinusoidal_positions(n_positions, d_model, base=10000.0):
    n_positions = _whole(n_positions, "n_positions")
    half = _pairs(d_model)
    omega = float(base) ** (-2.0 * np.arange(half) / d_model)
    angles = np.arange(n_positions)[:, None] * omega[None, :]
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def sinusoidal_shift(k, d_model, base=10000.0):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ValueError(f"k must be an int, got {k!r}")
    half = _pairs(d_model)
    angles = int(k) * float(base) ** (-2.0 * np.arange(half) / d_model)
    sines, cosines = np.arange(half), np.arange(half) + half
    shift = np.zeros((d_model, d_model))
    shift[sines, sines] = np.cos(angles)
    shift[sines, cosines] = -np.sin(angles)
    shift[cosines, sines] = np.sin(angles)
    shift[cosines, cosines] = np.cos(angles)
    return shift
