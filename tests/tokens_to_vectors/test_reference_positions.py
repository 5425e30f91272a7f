"""Part 2's reference: the sinusoidal table, its shift matrix, and learned positions."""

import math

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref

# "Attention Is All You Need" at (3, 4), rounded to 6 decimals (the spec's worked example).
WORKED = [[0, 1, 0, 1], [0.841471, 0.540302, 0.01, 0.99995],
          [0.909297, -0.416147, 0.019999, 0.9998]]


def table_by_loops(n: int, d: int, base: float) -> list[list[float]]:
    """The table as the paper writes it, one entry at a time: PE(p, 2i) = sin(p / base^(2i/d)),
    PE(p, 2i+1) = cos(p / base^(2i/d))."""
    rows = []
    for p in range(n):
        row = []
        for column in range(d):
            i = column // 2
            angle = p / math.pow(base, 2 * i / d)
            row.append(math.sin(angle) if column % 2 == 0 else math.cos(angle))
        rows.append(row)
    return rows


@pytest.mark.parametrize("n, d, base", [(3, 4, 10_000.0), (50, 16, 10_000.0), (20, 10, 100.0),
                                        (7, 2, 10_000), (300, 64, 500_000.0)])
def test_the_table_matches_the_paper_written_as_loops(n, d, base):
    table = ref.sinusoidal_positions(n, d, base)
    assert table.shape == (n, d) and table.dtype == np.float64
    np.testing.assert_allclose(table, table_by_loops(n, d, base), rtol=0, atol=1e-12)


def test_the_worked_example():
    np.testing.assert_allclose(ref.sinusoidal_positions(3, 4), WORKED, rtol=0, atol=5e-7)


def test_the_properties_graded():
    table = ref.sinusoidal_positions(200, 32)
    assert np.abs(table).max() <= 1
    np.testing.assert_array_equal(table[0], [0, 1] * 16)
    np.testing.assert_allclose(np.linalg.norm(table, axis=1), math.sqrt(16), rtol=1e-12)


@pytest.mark.parametrize("d", [2, 8, 32])
@pytest.mark.parametrize("k", [0, 1, 5, 37, -1, -13])
def test_a_shift_moves_every_position_by_k(d, k):
    table = ref.sinusoidal_positions(120, d)
    shift = ref.sinusoidal_shift(k, d)
    assert shift.shape == (d, d)
    for p in range(max(0, -k), 120 - max(k, 0)):
        np.testing.assert_allclose(table[p] @ shift, table[p + k], rtol=0, atol=1e-12)


def test_a_shift_is_a_rotation_undone_by_the_opposite_shift():
    for k in (3, -40, 1000):
        shift = ref.sinusoidal_shift(k, 16, base=50.0)
        np.testing.assert_allclose(shift @ shift.T, np.eye(16), atol=1e-12)
        np.testing.assert_allclose(shift @ ref.sinusoidal_shift(-k, 16, base=50.0), np.eye(16),
                                   atol=1e-12)
        np.testing.assert_allclose(
            ref.sinusoidal_shift(k, 16, 50.0) @ ref.sinusoidal_shift(7, 16, 50.0),
            ref.sinusoidal_shift(k + 7, 16, 50.0), atol=1e-9)
    # block diagonal: nothing outside the 2x2 blocks of (sine, cosine) pairs
    outside = np.kron(np.eye(8), np.ones((2, 2))) == 0
    assert not ref.sinusoidal_shift(5, 16)[outside].any()


@pytest.mark.parametrize("args", [(0, 4), (-2, 4), (3, 0), (3, 5), (3, -4), (True, 4), (3, 4.0),
                                  (3.0, 4), (3, 4, 0.0), (3, 4, -10.0), (3, 4, math.inf),
                                  (3, 4, math.nan), (3, 4, True), (3, 4, "10000")])
def test_the_table_refuses_bad_sizes_and_bases(args):
    with pytest.raises(ValueError):
        ref.sinusoidal_positions(*args)


def test_the_shift_refuses_bad_arguments():
    for args in [(1.5, 4), (True, 4), (1, 3), (1, 0), (1, 4, 0)]:
        with pytest.raises(ValueError):
            ref.sinusoidal_shift(*args)
    np.testing.assert_allclose(ref.sinusoidal_shift(np.int64(2), 4), ref.sinusoidal_shift(2, 4))


def test_learned_positions_are_added_row_by_row_to_every_sequence():
    rng = np.random.default_rng(3)
    table = rng.standard_normal((10, 4))
    x = rng.standard_normal((6, 4))
    np.testing.assert_array_equal(ref.add_learned_positions(x, table), x + table[:6])
    batch = rng.standard_normal((3, 10, 4))
    out = ref.add_learned_positions(batch, table)
    assert out.shape == (3, 10, 4)
    for b in range(3):
        np.testing.assert_array_equal(out[b], batch[b] + table)
    np.testing.assert_array_equal(ref.add_learned_positions(x.tolist(), table), x + table[:6])


def test_a_context_longer_than_the_table_is_refused_with_both_numbers():
    table = np.zeros((1_024, 8))
    ref.add_learned_positions(np.zeros((1_024, 8)), table)  # exactly full is fine
    with pytest.raises(ValueError) as caught:
        ref.add_learned_positions(np.zeros((2, 1_025, 8)), table)
    assert "1025" in str(caught.value) and "1024" in str(caught.value)


@pytest.mark.parametrize("x_shape, table_shape", [((4, 8), (10, 6)), ((8,), (10, 8)),
                                                  ((1, 2, 4, 8), (10, 8)), ((4, 8), (10, 8, 1))])
def test_learned_positions_refuse_shapes_that_do_not_fit(x_shape, table_shape):
    with pytest.raises(ValueError):
        ref.add_learned_positions(np.zeros(x_shape), np.zeros(table_shape))
