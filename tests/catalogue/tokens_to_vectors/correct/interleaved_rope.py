"""RoPE with adjacent dimensions paired, as GPT-J and Meta's LLaMA code do (catalogue: a
correct alternative, edited into the reference).

GPT-J's ``rotate_every_two`` turns each pair ``(x[2i], x[2i+1])`` into ``(-x[2i+1], x[2i])``
and ``duplicate_interleave`` repeats each angle for its two dimensions; the rotation is the
spec's, applied to another pairing of the dimensions. Only the convention test may charge
it, and its message must say "interleaved pairs (GPT-J style)".
"""

import numpy as np


def rotate_every_two(x):
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.stack((-x2, x1), axis=-1).reshape(x.shape)


def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    if x.ndim < 2 or positions.shape != (x.shape[-2],):
        raise ValueError(f"x of shape {x.shape} needs one position per row, "
                         f"got shape {positions.shape}")
    if positions.dtype.kind not in "iuf":
        raise ValueError(f"positions must be numbers, got dtype {positions.dtype}")
    theta = rope_frequencies(x.shape[-1], base)  # noqa: F821 - the reference's (this file is edited into it)
    angles = positions[:, None] * theta[None, :]
    sin = np.repeat(np.sin(angles), 2, axis=-1)
    cos = np.repeat(np.cos(angles), 2, axis=-1)
    return x * cos + rotate_every_two(x) * sin
