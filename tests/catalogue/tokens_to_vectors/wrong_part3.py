"""Part 3 (RoPE and ALiBi): wrong implementations students hand in.

RoPE with the other exponent, the rotation turned the wrong way, the argument
``positions`` ignored, GPT-J's duplicated frequencies mixed with GPT-NeoX's rotate-half,
an odd ``head_dim`` let through, a rotation worked out and never returned, or returned
with the last position's angles, and one rotation matrix per position (right answers, a
``(T, head_dim, head_dim)`` array: only the cost test catches it); ALiBi slopes that start
at 1, that take the first instead of every other slope for the extra heads, or that skip
the check of ``n_heads``; and biases with the wrong sign, without the causal mask, or
masking the diagonal too.

RoPE's cost test judges the values its timed calls return; wrong values are the value
tests' to charge, so a RoPE with wrong values must not lose the cost test as well
(``spares``).
"""

import numpy as np

from ..catalogue import differs
from . import wrong
from .helpers import allocates_more, mutated, rounded

COST = ("part3::test_rope_linear_in_length",)

ROPE = """
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    theta = rope_frequencies(x.shape[-1], base)
    angles = positions[:, None] * theta[None, :]
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin
"""


def rope(ns, positions=(3, 5)):
    """The entry's RoPE of two fixed vectors of head_dim 8 at ``positions``."""
    x = np.arange(16.0).reshape(2, 8) / 10
    return rounded(ns["apply_rope"](x, np.array(positions)))


@wrong(3, "the i-th frequency is base^(-i/head_dim)",
       """
def rope_frequencies(head_dim, base=10000.0):
    head_dim = check_even(head_dim, "head_dim")
    return 1.0 / base ** (np.arange(head_dim // 2) / head_dim)
""", spares=COST)
def p3_rope_exponent_i_over_head_dim(bug, ref):
    differs(bug, ref, lambda ns: rounded(ns["rope_frequencies"](8)))


@wrong(3, "HF's one-line inverse frequencies need no check",
       """
def rope_frequencies(head_dim, base=10000.0):
    return 1.0 / (base ** (np.arange(0, head_dim, 2) / head_dim))
""")
def p3_rope_frequencies_odd_accepted(bug, ref):
    differs(bug, ref, lambda ns: rounded(ns["rope_frequencies"](7)))


@wrong(3, "rotate_half moves the second half forward and negates the first",
       mutated(ROPE, "[-x[..., half:], x[..., :half]]", "[x[..., half:], -x[..., :half]]"),
       spares=COST)
def p3_rope_rotates_backwards(bug, ref):
    differs(bug, ref, rope)


@wrong(3, "the t-th row is at position t, whatever positions says",
       mutated(ROPE, "positions = np.asarray(positions)",
               "positions = np.arange(x.shape[-2])"),
       spares=COST)
def p3_rope_ignores_positions(bug, ref):
    differs(bug, ref, lambda ns: rope(ns, (4, 9)))


@wrong(3, "each frequency is repeated for its pair (GPT-J's code), with rotate_half (GPT-NeoX's)",
       mutated(mutated(ROPE, "cos = np.concatenate([np.cos(angles)] * 2, axis=-1)",
                       "cos = np.repeat(np.cos(angles), 2, axis=-1)"),
               "sin = np.concatenate([np.sin(angles)] * 2, axis=-1)",
               "sin = np.repeat(np.sin(angles), 2, axis=-1)"),
       spares=COST)
def p3_rope_gptj_frequencies_neox_pairs(bug, ref):
    differs(bug, ref, rope)


@wrong(3, "apply_rope works out the rotation and forgets to return it",
       mutated(ROPE, "return x * cos + rotated * sin", "x * cos + rotated * sin"),
       spares=COST)
def p3_rope_returns_nothing(bug, ref):
    differs(bug, ref, lambda ns: ns["apply_rope"](np.ones((2, 8)), np.arange(2)) is None)


@wrong(3, "apply_rope hands back the last position's angles too, to look at them",
       mutated(ROPE, "return x * cos + rotated * sin",
               "return x * cos + rotated * sin, angles[-1]"),
       spares=COST)
def p3_rope_returns_its_angles_too(bug, ref):
    differs(bug, ref, lambda ns: type(ns["apply_rope"](np.ones((2, 8)), np.arange(2))).__name__)


@wrong(3, "RoPE is a rotation matrix per position, as the paper writes it",
       """
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    d = x.shape[-1]
    half = d // 2
    angles = positions[:, None] * rope_frequencies(d, base)[None, :]
    rotation = np.zeros((len(positions), d, d))
    index = np.arange(half)
    rotation[:, index, index] = np.cos(angles)
    rotation[:, index + half, index + half] = np.cos(angles)
    rotation[:, index + half, index] = np.sin(angles)
    rotation[:, index, index + half] = -np.sin(angles)
    return np.einsum("tij,...tj->...ti", rotation, x)
""", timed=True)
def p3_rope_matrix_per_position(bug, ref):
    length, dim = 256, 128
    x, positions = np.ones((length, dim)), np.arange(length)
    allocates_more(bug, ref, lambda ns: ns["apply_rope"](x, positions),
                   at_least=length * dim * dim * 8)


SLOPES = """
import math

def alibi_slopes(n_heads):
    n_heads = check_size(n_heads, "n_heads")
    closest = 2 ** math.floor(math.log2(n_heads))

    def geometric(n):
        start = 2.0 ** (-8.0 / n)
        return start ** np.arange(1, n + 1)

    slopes = geometric(closest)
    if closest < n_heads:
        slopes = np.concatenate([slopes, geometric(2 * closest)[0::2][: n_heads - closest]])
    return slopes
"""


def slopes(ns, n=12):
    return rounded(ns["alibi_slopes"](n))


@wrong(3, "the extra heads take the first slopes of twice as many heads",
       mutated(SLOPES, "geometric(2 * closest)[0::2][: n_heads - closest]",
               "geometric(2 * closest)[: n_heads - closest]"))
def p3_slopes_first_of_the_doubled_sequence(bug, ref):
    differs(bug, ref, slopes)


@wrong(3, "a geometric sequence starts at its ratio to the power 0",
       mutated(SLOPES, "start ** np.arange(1, n + 1)", "start ** np.arange(n)"))
def p3_slopes_start_at_one(bug, ref):
    differs(bug, ref, lambda ns: slopes(ns, 8))


@wrong(3, "the ALiBi authors' get_slopes needs no check of n_heads",
       """
import math

def alibi_slopes(n_heads):
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(get_slopes_power_of_2(n_heads))
    closest_power_of_2 = 2 ** math.floor(math.log2(n_heads))
    extra = get_slopes_power_of_2(2 * closest_power_of_2)[0::2][: n_heads - closest_power_of_2]
    return np.array(get_slopes_power_of_2(closest_power_of_2) + extra)
""")
def p3_slopes_unchecked(bug, ref):
    differs(bug, ref, lambda ns: slopes(ns, 4.0))


BIAS = """
def alibi_bias(n_heads, seq_len):
    slopes = alibi_slopes(n_heads)
    seq_len = check_size(seq_len, "seq_len")
    i = np.arange(seq_len)[:, None]
    j = np.arange(seq_len)[None, :]
    bias = -slopes[:, None, None] * (i - j)[None, :, :]
    return np.where(j > i, -np.inf, bias)
"""


def bias(ns, heads=2, length=4):
    return rounded(ns["alibi_bias"](heads, length))


@wrong(3, "the bias grows with the distance: slope * (i - j)",
       mutated(BIAS, "bias = -slopes", "bias = slopes"))
def p3_bias_positive(bug, ref):
    differs(bug, ref, bias)


@wrong(3, "ALiBi penalises distance in both directions, so it needs no mask",
       mutated(mutated(BIAS, "(i - j)[None, :, :]", "np.abs(i - j)[None, :, :]"),
               "return np.where(j > i, -np.inf, bias)", "return bias"))
def p3_bias_not_causal(bug, ref):
    differs(bug, ref, bias)


@wrong(3, "a token must not attend to itself: the mask covers the diagonal",
       mutated(BIAS, "np.where(j > i,", "np.where(j >= i,"))
def p3_bias_masks_the_diagonal(bug, ref):
    differs(bug, ref, bias)
