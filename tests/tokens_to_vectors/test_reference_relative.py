"""Part 3's reference: RoPE against complex multiplication, ALiBi against the paper's slopes.

Also the claims the notebook makes about the other conventions: interleaved RoPE (GPT-J, Meta's
LLaMA) is rotate-half on permuted dimensions, and BLOOM's and MPT's ALiBi give the same
attention weights as the spec's form.
"""

import math
import tracemalloc

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref


def rope_by_complex_numbers(x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """RoPE as RoFormer states it: dimensions ``i`` and ``i + h`` are the real and imaginary
    parts of one complex number, multiplied by ``exp(j * p * theta_i)``."""
    h = x.shape[-1] // 2
    theta = [base ** (-2 * i / x.shape[-1]) for i in range(h)]
    z = x[..., :h] + 1j * x[..., h:]
    turn = np.array([[complex(math.cos(p * t), math.sin(p * t)) for t in theta]
                     for p in positions])
    turned = z * turn
    return np.concatenate([turned.real, turned.imag], axis=-1)


def interleaved_rope(x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """GPT-J / Meta LLaMA: dimensions ``2i`` and ``2i + 1`` are the complex number."""
    z = x[..., 0::2] + 1j * x[..., 1::2]
    theta = ref.rope_frequencies(x.shape[-1], base)
    turned = z * np.exp(1j * np.asarray(positions)[:, None] * theta)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = turned.real, turned.imag
    return out


def softmax(scores: np.ndarray) -> np.ndarray:
    top = scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores - top)
    return weights / weights.sum(axis=-1, keepdims=True)


# --- RoPE -----------------------------------------------------------------------------------


def test_frequencies():
    np.testing.assert_allclose(ref.rope_frequencies(4), [1, 0.01], rtol=1e-15)
    np.testing.assert_allclose(ref.rope_frequencies(8, base=16.0), [1, 0.5, 0.25, 0.125])
    table = ref.sinusoidal_positions(5, 12)
    np.testing.assert_allclose(np.arcsin(table[1, 0::2]), ref.rope_frequencies(12), rtol=1e-12)
    for args in [(0,), (3,), (-4,), (True,), (4.0,), (4, 0), (4, -1.0), (4, math.inf)]:
        with pytest.raises(ValueError):
            ref.rope_frequencies(*args)


@pytest.mark.parametrize("shape, base", [((5, 4), 10_000.0), ((9, 16), 10_000.0),
                                         ((2, 3, 7, 8), 500_000.0), ((6, 2), 3.0)])
def test_rope_is_complex_multiplication(shape, base):
    rng = np.random.default_rng(shape[-1])
    x = rng.standard_normal(shape)
    positions = rng.integers(-50, 3000, size=shape[-2])
    out = ref.apply_rope(x, positions, base)
    assert out.shape == shape and out.dtype == np.float64
    np.testing.assert_allclose(out, rope_by_complex_numbers(x, positions, base), rtol=0,
                               atol=1e-9)


def test_the_worked_examples():
    np.testing.assert_allclose(ref.apply_rope([[1, 0, 0, 0]], [1]), [[0.540302, 0, 0.841471, 0]],
                               atol=5e-7)
    np.testing.assert_allclose(ref.apply_rope([[1, 2, 3, 4]], [2]),
                               [[-3.144039, 1.919605, -0.339143, 4.039197]], atol=5e-7)


def test_position_zero_is_the_identity_and_norms_are_kept():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4, 6, 32))
    np.testing.assert_allclose(ref.apply_rope(x, np.zeros(6, dtype=int)), x, rtol=0, atol=0)
    out = ref.apply_rope(x, rng.integers(0, 10_000, size=6))
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1),
                               rtol=1e-12)


def test_scores_depend_only_on_the_offset():
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal((2, 1, 64))
    for m, n in [(0, 0), (7, 3), (3, 7), (100, 1)]:
        score = ref.apply_rope(q, [m]) @ ref.apply_rope(k, [n]).T
        for shift in (1, 17, 2048):
            moved = ref.apply_rope(q, [m + shift]) @ ref.apply_rope(k, [n + shift]).T
            np.testing.assert_allclose(moved, score, rtol=0, atol=1e-9)


def test_rope_is_linear_in_x():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 5, 8))
    positions = np.arange(5) * 13
    np.testing.assert_allclose(ref.apply_rope(2.5 * a - b, positions),
                               2.5 * ref.apply_rope(a, positions) - ref.apply_rope(b, positions),
                               atol=1e-12)


def test_the_interleaved_convention_is_rotate_half_on_permuted_dimensions():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((6, 8))
    positions = np.arange(6) * 5
    # the dimensions (0, 2, 4, 6 | 1, 3, 5, 7) put each adjacent pair i apart by h
    order = np.concatenate([np.arange(0, 8, 2), np.arange(1, 8, 2)])
    via_rotate_half = np.empty_like(x)
    via_rotate_half[:, order] = ref.apply_rope(x[:, order], positions)
    interleaved = interleaved_rope(x, positions, 10_000.0)
    np.testing.assert_allclose(interleaved, via_rotate_half, atol=1e-12)
    assert np.abs(interleaved - ref.apply_rope(x, positions)).max() > 0.1  # a real difference


def test_rope_memory_is_linear_in_the_sequence():
    x = np.random.default_rng(0).standard_normal((4096, 8))
    tracemalloc.start()
    ref.apply_rope(x, np.arange(4096))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * x.nbytes, f"{peak:,} bytes for a {x.nbytes:,}-byte input"


@pytest.mark.parametrize("x, positions", [(np.zeros(4), [0]), (np.zeros((3, 4)), [0, 1]),
                                          (np.zeros((3, 5)), [0, 1, 2]),
                                          (np.zeros((2, 4)), [True, False]),
                                          (np.zeros((2, 4)), ["a", "b"]),
                                          (np.zeros((2, 4)), [[0, 1]])])
def test_rope_refuses_bad_shapes_and_positions(x, positions):
    with pytest.raises(ValueError):
        ref.apply_rope(x, positions)


# --- ALiBi ----------------------------------------------------------------------------------

# Press et al.: 8 heads get 1/2 ... 1/256; 16 heads 2^(-1/2) ... 2^(-8).
PUBLISHED = {
    8: [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256],
    12: [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256,
         0.707107, 0.353553, 0.176777, 0.088388],
    16: [2 ** (-(i + 1) / 2) for i in range(16)],
    # not powers of two, by the rule: c = 4, then every other slope of 8 heads
    6: [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8],
    # c = 16, then the odd powers of 2^(-1/4) of 32 heads
    24: [2 ** (-(i + 1) / 2) for i in range(16)] + [2 ** (-(2 * i + 1) / 4) for i in range(8)],
    1: [2**-8],
    3: [2**-4, 2**-8, 2**-2],
}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_slopes_match_the_paper(n):
    slopes = ref.alibi_slopes(n)
    assert slopes.shape == (n,)
    np.testing.assert_allclose(slopes, PUBLISHED[n], rtol=0, atol=5e-7)


def test_slopes_refuse_bad_head_counts():
    for bad in (0, -8, True, 8.0, None):
        with pytest.raises(ValueError):
            ref.alibi_slopes(bad)


def test_bias_entries_and_mask():
    bias = ref.alibi_bias(12, 9)
    assert bias.shape == (12, 9, 9) and bias.dtype == np.float64
    slopes = ref.alibi_slopes(12)
    for h in range(12):
        for i in range(9):
            for j in range(9):
                if j > i:
                    assert bias[h, i, j] == -np.inf
                else:
                    assert bias[h, i, j] == pytest.approx(-slopes[h] * (i - j), abs=1e-15)
    for args in [(0, 4), (4, 0), (4, -1), (True, 4), (4, 2.0)]:
        with pytest.raises(ValueError):
            ref.alibi_bias(*args)


def test_bloom_and_mpt_give_the_same_attention():
    heads, length = 4, 7
    scores = np.random.default_rng(1).standard_normal((heads, length, length))
    slopes = ref.alibi_slopes(heads)[:, None, None]
    i, j = np.arange(length)[:, None], np.arange(length)[None, :]
    future = j > i
    finite = np.finfo(np.float64).min
    bloom = np.where(future, finite, slopes * j)  # the key position only, a finite mask
    mpt = np.where(future, finite, slopes * (j - (length - 1)))
    expected = softmax(scores + ref.alibi_bias(heads, length))
    for other in (bloom, mpt):
        assert np.abs(other - np.where(future, 0, ref.alibi_bias(heads, length))).max() > 0.1
        np.testing.assert_allclose(softmax(scores + other), expected, rtol=0, atol=1e-12)
    assert not expected[:, future].any()
