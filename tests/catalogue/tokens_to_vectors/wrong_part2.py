"""Part 2 (absolute positions): wrong implementations students hand in.

The sinusoidal table with another exponent, tensor2tensor's frequencies, the sine and the
cosine swapped, positions counted from 1, a base written into the formula, an odd width
let through; a shift matrix transposed, blind to the sign of ``k`` or with the wrong
exponent; learned positions added along the batch axis, a long context cropped instead of
refused, or left for numpy to refuse (which it does, with both lengths in its message,
unless the table has one row, where the row broadcasts silently: the hidden test has that
case).

A table with wrong frequencies still has values in [-1, 1], a row 0 of zeros and ones and
rows of norm sqrt(d/2): the property test must not charge what the value test charges
(``spares``).
"""

import numpy as np

from ..catalogue import differs
from . import wrong
from .helpers import mutated, rounded

PROPERTIES = ("part2::test_sinusoidal_properties",)

TABLE = """
def sinusoidal_positions(n_positions, d_model, base=10000.0):
    n_positions = check_size(n_positions, "n_positions")
    d_model = check_even(d_model, "d_model")
    positions = np.arange(n_positions)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angles = positions / base ** (2 * i / d_model)
    table = np.zeros((n_positions, d_model))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
"""


def table(ns, n=5, d=8, base=10000.0):
    return rounded(ns["sinusoidal_positions"](n, d, base))


@wrong(2, "the i-th pair has frequency base^(-i/d): i already counts the pairs",
       mutated(TABLE, "base ** (2 * i / d_model)", "base ** (i / d_model)"),
       spares=PROPERTIES)
def p2_table_exponent_i_over_d(bug, ref):
    differs(bug, ref, table)


@wrong(2, "tensor2tensor's get_timing_signal_1d is the transformer's table",
       """
import math

def sinusoidal_positions(n_positions, d_model, base=10000.0):
    n_positions = check_size(n_positions, "n_positions")
    d_model = check_even(d_model, "d_model")
    num_timescales = d_model // 2
    log_timescale_increment = math.log(base) / max(num_timescales - 1, 1)
    inv_timescales = np.exp(np.arange(num_timescales) * -log_timescale_increment)
    scaled_time = np.arange(n_positions)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
""", spares=PROPERTIES)
def p2_table_tensor2tensor_frequencies(bug, ref):
    differs(bug, ref, table)


@wrong(2, "even columns cosine, odd columns sine",
       mutated(mutated(TABLE, "table[:, 0::2] = np.sin(angles)", "table[:, 0::2] = np.cos(angles)"),
               "table[:, 1::2] = np.cos(angles)", "table[:, 1::2] = np.sin(angles)"),
       spares=PROPERTIES)
def p2_table_sine_and_cosine_swapped(bug, ref):
    differs(bug, ref, table)


@wrong(2, "the first token is at position 1",
       mutated(TABLE, "np.arange(n_positions)[:, None]", "np.arange(1, n_positions + 1)[:, None]"))
def p2_table_positions_from_one(bug, ref):
    differs(bug, ref, table)


@wrong(2, "the base is always 10,000, whatever the argument says",
       mutated(TABLE, "angles = positions / base ** (2 * i / d_model)",
               "angles = positions / 10000 ** (2 * i / d_model)"),
       spares=PROPERTIES + ("part2::test_sinusoidal_layout",))
def p2_table_base_ignored(bug, ref):
    differs(bug, ref, lambda ns: table(ns, base=100.0))


@wrong(2, "an odd width is fine: the last column is one more sine",
       """
def sinusoidal_positions(n_positions, d_model, base=10000.0):
    n_positions = check_size(n_positions, "n_positions")
    d_model = check_size(d_model, "d_model")
    pairs = (d_model + 1) // 2
    angles = np.arange(n_positions)[:, None] * base ** (-2 * np.arange(pairs) / d_model)
    table = np.zeros((n_positions, 2 * pairs))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table[:, :d_model]
""")
def p2_table_odd_width_accepted(bug, ref):
    differs(bug, ref, lambda ns: table(ns, d=7))


SHIFT = """
import math
import numbers

def sinusoidal_shift(k, d_model, base=10000.0):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ValueError(f"the offset k must be an int, got {k!r}")
    d_model = check_even(d_model, "d_model")
    shift = np.zeros((d_model, d_model))
    for i in range(d_model // 2):
        angle = k * base ** (-2 * i / d_model)
        c, s = math.cos(angle), math.sin(angle)
        shift[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, -s], [s, c]]
    return shift
"""


def shifted(ns, k=3):
    """Rows 2..6 of the reference table moved by the entry's shift matrix of ``k``."""
    rows = np.asarray(ns["sinusoidal_positions"](10, 8))[2:7]
    return rounded(rows @ ns["sinusoidal_shift"](k, 8))


@wrong(2, "a row vector multiplies the transpose: M holds [[cos, sin], [-sin, cos]] blocks",
       mutated(SHIFT, "[[c, -s], [s, c]]", "[[c, s], [-s, c]]"))
def p2_shift_transposed(bug, ref):
    differs(bug, ref, shifted)


@wrong(2, "an offset is a distance: only its size matters",
       mutated(SHIFT, "angle = k * base", "angle = abs(k) * base"))
def p2_shift_ignores_the_sign_of_k(bug, ref):
    differs(bug, ref, lambda ns: shifted(ns, -2))


@wrong(2, "the i-th block turns by k base^(-i/d)",
       mutated(SHIFT, "angle = k * base ** (-2 * i / d_model)",
               "angle = k * base ** (-i / d_model)"))
def p2_shift_exponent_i_over_d(bug, ref):
    differs(bug, ref, shifted)


@wrong(2, "the sequence length is the first axis of the input",
       """
def add_learned_positions(token_vectors, position_table):
    x = np.asarray(token_vectors)
    table = np.asarray(position_table)
    length = x.shape[0]
    if length > table.shape[0]:
        raise ValueError(f"a context of {length} tokens is longer than the table's "
                         f"{table.shape[0]} positions")
    return x + table[:length]
""")
def p2_learned_length_from_the_batch_axis(bug, ref):
    differs(bug, ref, lambda ns: rounded(ns["add_learned_positions"](
        np.zeros((2, 3, 4)), np.arange(20.0).reshape(5, 4))))


@wrong(2, "numpy refuses a context longer than the table by itself: the shapes do not broadcast",
       """
def add_learned_positions(token_vectors, position_table):
    x = np.asarray(token_vectors)
    return x + np.asarray(position_table)[:x.shape[-2]]
""")
def p2_learned_left_to_numpy(bug, ref):
    differs(bug, ref, lambda ns: rounded(ns["add_learned_positions"](
        np.zeros((3, 4)), np.ones((1, 4)))))


@wrong(2, "a context longer than the table keeps its last tokens, as nanoGPT's generate crops",
       """
def add_learned_positions(token_vectors, position_table):
    x = np.asarray(token_vectors)
    table = np.asarray(position_table)
    x = x[..., -table.shape[0]:, :]
    return x + table[:x.shape[-2]]
""")
def p2_learned_crops_a_long_context(bug, ref):
    differs(bug, ref, lambda ns: rounded(ns["add_learned_positions"](
        np.zeros((6, 4)), np.zeros((5, 4)))))
