"""Part 3: relative positions, inside attention instead of added to the input.

RoPE (Su et al., "RoFormer") rotates each query and key by an angle proportional to its
position, so the score of a query at ``m`` with a key at ``n`` depends only on ``m - n``.
The layout is *rotate-half*, as in GPT-NeoX and Hugging Face's LLaMA (``rotate_half``,
``apply_rotary_pos_emb``): dimension ``i`` pairs with ``i + head_dim/2``. ALiBi (Press et
al.) adds no vector at all: each head adds ``-slope * distance`` to its causal scores, with
slopes in a geometric sequence.

Left out: the interleaved RoPE of GPT-J and Meta's LLaMA code (adjacent dimensions paired;
the notebook shows it), RoPE scaling for longer contexts (position interpolation, NTK,
YaRN), partial rotary dimensions, caching cos and sin, and ALiBi's equivalent forms in BLOOM
and MPT (a per-row constant, a finite mask), which the notebook explains.
"""

import numpy as np
from numpy.typing import ArrayLike

from .embedding import check_size
from .positions import check_base, check_even


def rope_frequencies(head_dim: int, base: float = 10000.0) -> np.ndarray:
    """RoPE's angles per position, ``theta_i = base^(-2i/head_dim)`` for
    ``i = 0 ... head_dim/2 - 1`` (float64, shape ``(head_dim/2,)``).

    The same frequencies as the sinusoidal table's. ``ValueError`` for a ``head_dim`` that
    is not a positive even int, and for a ``base`` that is not a finite number above 0.
    """
    head_dim = check_even(head_dim, "head_dim")
    base = check_base(base)
    return base ** (-np.arange(0, head_dim, 2) / head_dim)


def rotate_half(x: np.ndarray) -> np.ndarray:
    """``concat(-x[..., h:], x[..., :h])`` with ``h = head_dim/2``: each pair ``(a, b)`` of
    dimensions ``i`` and ``i + h`` becomes ``(-b, a)``, a quarter turn."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x: ArrayLike, positions: ArrayLike, base: float = 10000.0) -> np.ndarray:
    """Rotate every vector of ``x`` (shape ``(..., T, head_dim)``) by its position's angles.

    With ``a = positions[:, None] * theta`` (shape ``(T, head_dim/2)``),
    ``cos = concat(cos a, cos a)`` and ``sin = concat(sin a, sin a)``, the result is
    ``x * cos + rotate_half(x) * sin``: the pair (``i``, ``i + h``) turns by ``a[:, i]``.
    Norms do not change, position 0 is the identity, and ``apply_rope(q, [m]) .
    apply_rope(k, [n])`` depends only on ``m - n``. Memory and time are linear in ``T``
    (cos and sin are ``(T, head_dim)``; nothing is ``(T, T)``). Returns float64.

    ``positions`` must be one real number per row of ``x`` (shape ``(T,)``). Integers are
    the usual case; fractions are accepted because position interpolation stretches a
    context with them. ``ValueError`` for a wrong shape, ``bool`` or non-numeric positions,
    an odd or empty ``head_dim``, or a bad ``base``.
    """
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., T, head_dim), got shape {x.shape}")
    theta = rope_frequencies(x.shape[-1], base)
    if positions.dtype.kind not in "iuf":
        raise ValueError(f"positions must be numbers, got an array of dtype {positions.dtype}")
    if positions.shape != (x.shape[-2],):
        raise ValueError(f"positions must have shape (T,) = ({x.shape[-2]},), "
                         f"got shape {positions.shape}")
    angles = positions[:, None] * theta[None, :]
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    return x * cos + rotate_half(x) * sin


def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's slope per head (float64, shape ``(n_heads,)``).

    For a power of two ``n``: the geometric sequence that starts at ``2^(-8/n)`` with that
    ratio, so 8 heads get 1/2, 1/4, ..., 1/256. Otherwise, with ``c`` the largest power of
    two below ``n``: the ``c`` slopes of ``c`` heads, then every other slope of ``2c`` heads
    (the ones that fall between), the first ``n - c`` of them. ``ValueError`` unless
    ``n_heads`` is a positive int.
    """
    n_heads = check_size(n_heads, "n_heads")
    closest = 1 << (n_heads.bit_length() - 1)  # the largest power of two <= n_heads

    def geometric(n: int) -> np.ndarray:
        start = 2.0 ** (-8.0 / n)
        return start ** np.arange(1, n + 1)

    slopes = geometric(closest)
    if closest == n_heads:
        return slopes
    return np.concatenate([slopes, geometric(2 * closest)[0::2][: n_heads - closest]])


def alibi_bias(n_heads: int, seq_len: int) -> np.ndarray:
    """Causal ALiBi biases, float64 of shape ``(n_heads, seq_len, seq_len)``.

    Entry ``[h, i, j]`` is ``-slope_h * (i - j)`` for a key ``j`` at or before the query
    ``i`` (0 on the diagonal, more negative the further back), and ``-inf`` for ``j > i``,
    so after softmax a query never sees the future. ``ValueError`` unless both sizes are
    positive ints: a sequence of 0 tokens has nothing to attend to, so ``seq_len`` must be
    at least 1.
    """
    slopes = alibi_slopes(n_heads)
    seq_len = check_size(seq_len, "seq_len")
    offset = np.arange(seq_len)[None, :] - np.arange(seq_len)[:, None]  # j - i
    bias = slopes[:, None, None] * offset[None, :, :]
    bias[:, offset > 0] = -np.inf
    return bias
