# %%
import math
import numbers
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from numpy.typing import ArrayLike


def check_size(value: object, name: str) -> int:
    """Return ``value`` as an int if it is a positive int; raise ``ValueError`` naming ``name``.

    numpy integers count as ints. ``bool`` does not, nor does a float such as ``64.0``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value}")
    return int(value)


def check_even(value: object, name: str) -> int:
    """A positive even int: the size of a vector made of (sine, cosine) pairs."""
    value = check_size(value, name)
    if value % 2:
        raise ValueError(f"{name} must be even (the dimensions come in pairs), got {value}")
    return value


def check_base(base: object) -> float:
    """Return ``base`` as a float if it is a finite real number above 0, else ``ValueError``.

    Frequencies are ``base ** (-2i/d)``: a base of 0 or below has no real powers.
    """
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise ValueError(f"base must be a real number above 0, got {base!r}")
    if not (math.isfinite(base) and base > 0):
        raise ValueError(f"base must be a finite number above 0, got {base!r}")
    return float(base)


shakespeare = Path("tinyshakespeare.txt").read_text(encoding="utf-8")
print(f"numpy {np.__version__}; Shakespeare: {len(shakespeare):,} characters")

# %%
def check_ids(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """``ids`` as an integer array whose every entry lies in ``[0, vocab_size)``.

    ``ValueError`` naming the first bad ID (in ``array.flat`` order) for an array that is not of
    an integer dtype (bool included) or holds an ID outside the range. An empty array of any
    dtype is returned as an empty integer array.
    """
    array = np.asarray(ids)
    if array.size == 0:
        return array.astype(np.intp)
    if array.dtype.kind not in "iu":
        first = array.flat[0]
        first = first.item() if isinstance(first, np.generic) else first  # np.True_ -> True
        raise ValueError(f"token IDs must be integers, got an array of dtype {array.dtype}; "
                         f"the first bad ID is {first!r}")
    if array.min() < 0 or array.max() >= vocab_size:
        bad = array.flat[np.flatnonzero((array < 0) | (array >= vocab_size))[0]]
        raise ValueError(f"token ID {bad} is outside [0, {vocab_size})")
    return array

# %%
def embedding_lookup(ids: ArrayLike, table: ArrayLike) -> np.ndarray:
    """The rows of ``table`` (shape ``(V, d)``) for ``ids`` of any shape: ``ids.shape + (d,)``.

    ``ValueError`` for a table that is not 2-D and for bad IDs. The cost must not depend on V.
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"the table must have shape (V, d), got shape {table.shape}")
    return table[check_ids(ids, table.shape[0])]


def one_hot(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """Float64 one-hot rows: shape ``ids.shape + (vocab_size,)``, a 1.0 at each ID."""
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = check_ids(ids, vocab_size)
    out = np.zeros(ids.shape + (vocab_size,))
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out

# %%
rng = np.random.default_rng(0)
table = rng.standard_normal((6, 3))
ids = np.array([[4, 0, 4], [2, 5, 1]])
print("lookup shape:", embedding_lookup(ids, table).shape)
print("one_hot(ids, 6) @ table == embedding_lookup(ids, table):",
      np.allclose(one_hot(ids, 6) @ table, embedding_lookup(ids, table)))
print(one_hot(ids[0], 6))

# %%
characters = sorted(set(shakespeare))
index = {ch: i for i, ch in enumerate(characters)}
batch_ids = np.array([index[ch] for ch in shakespeare[:64]])
upstream = rng.standard_normal((len(batch_ids), 16))  # the gradient arriving at the 64 vectors
table_gradient = one_hot(batch_ids, len(characters)).T @ upstream
touched = np.flatnonzero(np.abs(table_gradient).sum(axis=1))
print(repr(shakespeare[:64]))
print(f"{len(characters)} rows in the table; rows with a gradient: {len(touched)}, "
      f"the characters {''.join(characters[i] for i in touched)!r}")

# %%
# Test: embedding_lookup returns the rows of the table and equals the one-hot product (4 points)
table = np.arange(15.0).reshape(5, 3)
out = embedding_lookup(np.array([4, 0, 4]), table)
assert isinstance(out, np.ndarray), f"embedding_lookup should return a numpy array, got {type(out).__name__}"
assert out.shape == (3, 3), f"3 IDs into a (5, 3) table give shape (3, 3), got {out.shape}"
assert np.array_equal(out, [[12, 13, 14], [0, 1, 2], [12, 13, 14]]), f"row i of the table for ID i; got {out.tolist()}"
assert embedding_lookup([[1, 2], [3, 4]], table).shape == (2, 2, 3), "ids of shape (2, 2) give shape (2, 2, 3), and a list is accepted"
assert embedding_lookup(np.int64(2), table).shape == (3,), "a single ID (shape ()) gives one row of shape (d,)"
assert embedding_lookup([], table).shape == (0, 3), "no IDs give shape (0, d)"
hot = one_hot(np.array([[2, 0]]), 4)
assert isinstance(hot, np.ndarray) and hot.shape == (1, 2, 4), f"one_hot of shape (1, 2) with V = 4 has shape (1, 2, 4), got {np.shape(hot)}"
assert np.issubdtype(hot.dtype, np.floating), f"one_hot should be float, got {hot.dtype}"
assert np.array_equal(hot[0], [[0, 0, 1, 0], [1, 0, 0, 0]]), f"one 1.0 per row, at the ID; got {hot[0].tolist()}"
rng_test = np.random.default_rng(1)
big_table = rng_test.standard_normal((50, 8))
some_ids = rng_test.integers(0, 50, size=(4, 7))
assert np.allclose(one_hot(some_ids, 50) @ big_table, embedding_lookup(some_ids, big_table)), "one_hot(ids, V) @ table must equal embedding_lookup(ids, table)"
print("Part 1 lookup tests passed.")

# %%
# Test: bad IDs raise ValueError naming the first bad one (3 points)
table = np.zeros((5, 2))
cases = [
    ([0, 7, 2, 9], "7", "an ID >= V"),
    ([1, -1, 3], "-1", "a negative ID (numpy would read the last row)"),
    (np.array([[0, 1], [6, 2]]), "6", "an out-of-range ID in a 2-D array"),
    (np.array([1.0, 2.0]), "1.0", "a float array, even with whole values"),
    (np.array([True, False]), "True", "a bool array (numpy would use it as a mask)"),
]
for bad_ids, named, what in cases:
    for function, argument in [(embedding_lookup, table), (one_hot, 5)]:
        try:
            function(bad_ids, argument)
        except ValueError as err:
            assert named in str(err), f"{function.__name__} with {what}: the message should name the bad ID {named}; it was {str(err)!r}"
        else:
            raise AssertionError(f"{function.__name__}({bad_ids!r}, ...) should raise ValueError: {what}")
try:
    embedding_lookup([0], np.zeros(5))
except ValueError:
    pass
else:
    raise AssertionError("embedding_lookup with a 1-D table should raise ValueError: a table has shape (V, d)")
print("Part 1 bad-ID tests passed.")

# %%
def padded_vocab_size(vocab_size: int, multiple: int = 64) -> int:
    """The smallest multiple of ``multiple`` that is ``>= vocab_size`` (50,257 -> 50,304).

    ``ValueError`` unless both are positive ints.
    """
    vocab_size = check_size(vocab_size, "vocab_size")
    multiple = check_size(multiple, "multiple")
    return -(-vocab_size // multiple) * multiple


def gpt_parameter_count(vocab_size: int, n_positions: int, d_model: int, n_layers: int,
                        tied: bool = True) -> int:
    """Every parameter of a GPT-2 shaped model, the position table included.

    Token and position tables, ``n_layers`` blocks (two LayerNorms, the fused QKV projection,
    the attention output, the two MLP matrices, all with biases), a final LayerNorm, and an
    output head that shares the token table when ``tied`` or adds ``vocab_size * d_model``
    (no bias) when not. ``ValueError`` unless the sizes are positive ints and ``tied`` a bool.
    """
    vocab_size = check_size(vocab_size, "vocab_size")
    n_positions = check_size(n_positions, "n_positions")
    d = check_size(d_model, "d_model")
    n_layers = check_size(n_layers, "n_layers")
    if not isinstance(tied, bool):
        raise ValueError(f"tied must be a bool, got {tied!r}")
    per_layer = 2 * (2 * d) + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (
        4 * d * d + d)
    tables = vocab_size * d + n_positions * d
    head = 0 if tied else vocab_size * d
    return tables + n_layers * per_layer + 2 * d + head

# %%
gpt2 = gpt_parameter_count(50_257, 1_024, 768, 12)
print(f"GPT-2 small:                     {gpt2:>12,}")
print(f"  as nanoGPT prints it:          {gpt2 - 1_024 * 768:>12,}  (no position table)")
print(f"  padded to {padded_vocab_size(50_257):,} tokens:       "
      f"{gpt_parameter_count(padded_vocab_size(50_257), 1_024, 768, 12):>12,}")
print(f"  with its own output head:      {gpt_parameter_count(50_257, 1_024, 768, 12, tied=False):>12,}")
print(f"  one block:                     "
      f"{gpt_parameter_count(50_257, 1_024, 768, 2) - gpt_parameter_count(50_257, 1_024, 768, 1):>12,}")

# %%
vocab_sizes = np.geomspace(1_000, 256_000, 60)
fig, ax = plt.subplots(figsize=(7, 3.8))
for width in (768, 4_096):
    ax.plot(vocab_sizes, vocab_sizes * width * 4 / 2**20, label=f"d = {width:,}")
for name, vocab, width in [("GPT-2", 50_257, 768), ("Llama 2 7B", 32_000, 4_096),
                           ("Llama 3 8B", 128_256, 4_096)]:
    mib = vocab * width * 4 / 2**20
    ax.plot(vocab, mib, "o", color="black")
    ax.annotate(f"{name}: {mib:,.0f} MiB", (vocab, mib), textcoords="offset points",
                xytext=(-10, 8), ha="right")
ax.set(xscale="log", yscale="log", xlabel="vocabulary size (tokens)",
       ylabel="token table (MiB, float32)", title="The embedding table grows with the vocabulary")
ax.legend()
plt.show()

# %%
# Test: padded_vocab_size and gpt_parameter_count on GPT-2 small, and their bad inputs (5 points)
assert padded_vocab_size(50_257) == 50_304, f"nanoGPT pads 50,257 to 50,304, got {padded_vocab_size(50_257)}"
assert padded_vocab_size(50_304) == 50_304, "a multiple of 64 stays as it is"
assert padded_vocab_size(10, 8) == 16 and padded_vocab_size(1) == 64, "the smallest multiple of `multiple` that is >= vocab_size"
count = gpt_parameter_count(50_257, 1_024, 768, 12)
assert count == 124_439_808, f"GPT-2 small has 124,439,808 parameters (position table included), got {count:,}"
if count == 124_439_808 - 786_432:
    raise AssertionError("that is nanoGPT's printed count: count the position table too")
assert gpt_parameter_count(50_257, 1_024, 768, 1) == 38_597_376 + 786_432 + 7_087_872 + 1_536, "one block holds 7,087,872 parameters"
assert gpt_parameter_count(50_304, 1_024, 768, 12) == 124_475_904, "with nanoGPT's padded vocabulary: 124,475,904"
assert gpt_parameter_count(50_257, 1_024, 768, 12, tied=False) == 163_037_184, "untied, the head adds V * d: 163,037,184"
for bad in [(0, 1_024, 768, 12), (50_257, -1, 768, 12), (50_257, 1_024, 768.0, 12), (50_257, 1_024, 768, True)]:
    try:
        gpt_parameter_count(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"gpt_parameter_count{bad} should raise ValueError: sizes are positive ints")
for bad in [(0,), (True,), (100, 0), (100.0,)]:
    try:
        padded_vocab_size(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"padded_vocab_size{bad} should raise ValueError")
try:
    gpt_parameter_count(50_257, 1_024, 768, 12, tied=1)
except ValueError:
    pass
else:
    raise AssertionError("tied must be a bool: tied=1 should raise ValueError")
print("Part 1 parameter-count tests passed.")

# %%
# Q_EMBEDDING_MIB = ...       MiB of GPT-2 small's token table at float32
# Q_EMBEDDING_SHARE = ...     its share of GPT-2 small's parameters (0 to 1)
# Q_PADDED_EXTRA_ROWS = ...   rows nanoGPT's padding adds to GPT-2's vocabulary
Q_EMBEDDING_MIB = 50_257 * 768 * 4 / 2**20  # 147.24 MiB for the token table alone
Q_EMBEDDING_SHARE = 50_257 * 768 / 124_439_808  # 0.31: almost a third of all parameters
Q_PADDED_EXTRA_ROWS = 47  # nanoGPT's 50,304 rows minus GPT-2's 50,257 tokens

# %%
# Test: the numeric answers exist and agree with your Part 1 functions (3 points; exact values are graded hidden)
for name in ["Q_EMBEDDING_MIB", "Q_EMBEDDING_SHARE", "Q_PADDED_EXTRA_ROWS"]:
    assert name in globals(), f"define the module-level constant {name}"
    assert isinstance(globals()[name], (int, float)) and not isinstance(globals()[name], bool), f"{name} should be a number"
assert abs(Q_EMBEDDING_MIB * 2**20 - 50_257 * 768 * 4) < 0.01 * 2**20, (
    "Q_EMBEDDING_MIB: 50,257 x 768 numbers of 4 bytes, in MiB (1024**2 bytes), not decimal MB or bytes"
)
assert 0 < Q_EMBEDDING_SHARE < 1, "Q_EMBEDDING_SHARE is a fraction of the whole, between 0 and 1"
assert abs(Q_EMBEDDING_SHARE * gpt_parameter_count(50_257, 1_024, 768, 12) - 50_257 * 768) < 1e-3 * 50_257 * 768, (
    "Q_EMBEDDING_SHARE: token-table parameters divided by all parameters"
)
assert Q_PADDED_EXTRA_ROWS == padded_vocab_size(50_257) - 50_257, "Q_PADDED_EXTRA_ROWS: padded size minus GPT-2's vocabulary"
print("Part 1 answer tests passed.")

# %%
def sinusoidal_positions(n_positions: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The sinusoidal table, float64 of shape ``(n_positions, d_model)``.

    ``PE[p, 2i] = sin(p * w_i)``, ``PE[p, 2i+1] = cos(p * w_i)``, ``w_i = base ** (-2i/d_model)``.
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

# %%
np.set_printoptions(precision=6, suppress=True)
print(sinusoidal_positions(3, 4))
fig, ax = plt.subplots(figsize=(8, 4))
image = ax.imshow(sinusoidal_positions(128, 64), aspect="auto", cmap="RdBu", vmin=-1, vmax=1,
                  interpolation="nearest")
ax.set(xlabel="dimension (even: sine, odd: cosine)", ylabel="position p",
       title="The sinusoidal table, d = 64")
fig.colorbar(image, ax=ax)
plt.show()

# %%
# Test: sinusoidal_positions: the worked example, its properties and its bad inputs (6 points)
table = sinusoidal_positions(3, 4)
assert isinstance(table, np.ndarray) and table.shape == (3, 4), f"3 positions in 4 dimensions give shape (3, 4), got {np.shape(table)}"
expected = [[0, 1, 0, 1], [0.841471, 0.540302, 0.01, 0.99995], [0.909297, -0.416147, 0.019999, 0.9998]]
if np.allclose(table[:, [0, 2, 1, 3]], expected, atol=1e-5):
    raise AssertionError("your columns are all sines, then all cosines (tensor2tensor's layout); "
                         "here even columns are sines and odd columns cosines")
assert np.allclose(table, expected, atol=1e-5), f"the worked example (3, 4) should be {expected}, got {np.round(table, 6).tolist()}"
big = sinusoidal_positions(300, 32)
assert np.abs(big).max() <= 1 + 1e-9, "sines and cosines lie in [-1, 1]"
assert np.allclose(big[0], [0, 1] * 16), "row 0 is [0, 1, 0, 1, ...]"
assert np.allclose(np.linalg.norm(big, axis=1), 4), "every row of a 32-wide table has norm sqrt(32 / 2) = 4"
assert np.allclose(sinusoidal_positions(2, 2, base=100.0), [[0, 1], [np.sin(1), np.cos(1)]]), "d = 2 has the one frequency 1"
assert np.allclose(sinusoidal_positions(2, 4, base=100.0)[1, 2], np.sin(0.1)), "w_1 = base ** (-2/4): 0.1 at base 100"
for bad in [(0, 4), (3, 5), (3, -2), (True, 4), (3, 4, 0.0), (3, 4, -1.0)]:
    try:
        sinusoidal_positions(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"sinusoidal_positions{bad} should raise ValueError")
print("Part 2 sinusoidal table tests passed.")

# %%
def sinusoidal_shift(k: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The matrix ``M_k`` (float64, ``(d_model, d_model)``) with ``PE[p + k] = PE[p] @ M_k``.

    Block-diagonal: for each pair (2i, 2i+1) the rotation ``[[cos a, -sin a], [sin a, cos a]]``
    with ``a = k * w_i``. ``k`` is an int, negative allowed; ``ValueError`` otherwise.
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

# %%
pe = sinusoidal_positions(400, 64)
for k in (1, 5, -7):
    moved = pe[20:300] @ sinusoidal_shift(k, 64)
    print(f"k = {k:>2}: PE[p] @ M_k == PE[p + k] for p = 20..299: {np.allclose(moved, pe[20 + k:300 + k])}")
offsets = np.arange(-100, 101)
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(offsets, pe[100] @ pe[100 + offsets].T, label="p = 100")
ax.plot(offsets, pe[250] @ pe[250 + offsets].T, "--", label="p = 250")
ax.set(xlabel="offset k", ylabel="PE[p] · PE[p + k]",
       title="Sinusoidal positions: the dot product depends on the offset only")
ax.legend()
plt.show()

# %%
# Test: sinusoidal_shift moves every position by k, backwards too (5 points)
d = 16
table = sinusoidal_positions(200, d)
for k in [0, 1, 3, 40, -1, -25]:
    shift = sinusoidal_shift(k, d)
    assert isinstance(shift, np.ndarray) and shift.shape == (d, d), f"M_k has shape (d_model, d_model), got {np.shape(shift)}"
    for p in [30, 50, 101]:
        assert np.allclose(table[p] @ shift, table[p + k], atol=1e-9), (
            f"PE[{p}] @ sinusoidal_shift({k}, {d}) should equal PE[{p + k}] (row vector on the left)"
        )
assert np.allclose(sinusoidal_shift(5, 8, base=30.0) @ sinusoidal_shift(-5, 8, base=30.0), np.eye(8)), "M_k @ M_-k is the identity"
for bad in [(1.5, 4), (True, 4), (2, 3)]:
    try:
        sinusoidal_shift(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"sinusoidal_shift{bad} should raise ValueError")
print("Part 2 shift tests passed.")

# %%
def add_learned_positions(token_vectors: ArrayLike, position_table: ArrayLike) -> np.ndarray:
    """``token_vectors + position_table[:T]`` for inputs of shape ``(T, d)`` or ``(B, T, d)``.

    ``ValueError`` giving the context length and the table size when ``T`` exceeds the table;
    also for a table that is not 2-D, an input that is not 2-D or 3-D, or different widths.
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

# %%
wpe = rng.standard_normal((1_024, 8)) * 0.02  # a learned table would start like this
print(add_learned_positions(np.zeros((2, 5, 8)), wpe).shape)
try:
    add_learned_positions(np.zeros((1_025, 8)), wpe)
except ValueError as err:
    print("ValueError:", err)

# %%
# Test: add_learned_positions adds row p to position p and refuses a context longer than the table (4 points)
table = np.arange(24.0).reshape(6, 4)
x = np.ones((3, 4))
out = add_learned_positions(x, table)
assert isinstance(out, np.ndarray) and out.shape == (3, 4), f"(T, d) in, (T, d) out; got {np.shape(out)}"
assert np.array_equal(out, 1 + table[:3]), "position p gets row p of the table"
batch = np.stack([np.zeros((6, 4)), np.ones((6, 4))])
out = add_learned_positions(batch, table)
assert np.shape(out) == (2, 6, 4) and np.array_equal(out[1], 1 + table), "every sequence of a batch gets the same rows"
try:
    add_learned_positions(np.zeros((1_025, 4)), np.zeros((1_024, 4)))
except ValueError as err:
    message = str(err).replace(",", "")
    assert "1025" in message and "1024" in message, f"say the context length (1025) and the table size (1024); the message was {str(err)!r}"
else:
    raise AssertionError("a context of 1,025 tokens with a table of 1,024 positions should raise ValueError")
for bad_x, bad_table in [(np.zeros((3, 5)), table), (np.zeros(4), table), (x, np.zeros(4))]:
    try:
        add_learned_positions(bad_x, bad_table)
    except ValueError:
        pass
    else:
        raise AssertionError(f"shapes {bad_x.shape} and {bad_table.shape} do not fit: ValueError expected")
print("Part 2 learned positions tests passed.")

# %%
def rope_frequencies(head_dim: int, base: float = 10000.0) -> np.ndarray:
    """``theta_i = base ** (-2i/head_dim)`` for ``i = 0 ... head_dim/2 - 1``, float64.

    ``ValueError`` for a ``head_dim`` that is not a positive even int, or a bad ``base``.
    """
    head_dim = check_even(head_dim, "head_dim")
    base = check_base(base)
    return base ** (-np.arange(0, head_dim, 2) / head_dim)


def rotate_half(x: np.ndarray) -> np.ndarray:
    """``concat(-x[..., h:], x[..., :h])`` along the last axis, ``h = x.shape[-1] // 2``."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x: ArrayLike, positions: ArrayLike, base: float = 10000.0) -> np.ndarray:
    """Rotate-half RoPE: ``x * cos + rotate_half(x) * sin`` for ``x`` of shape ``(..., T, head_dim)``.

    ``cos`` and ``sin`` are ``concat(cos a, cos a)`` and ``concat(sin a, sin a)`` with
    ``a = positions[:, None] * theta``. ``positions`` has shape ``(T,)``, real numbers. Returns
    float64; memory and time linear in ``T``. ``ValueError`` for wrong shapes or positions.
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

# %%
print(apply_rope([[1, 0, 0, 0]], [1]), apply_rope([[1, 2, 3, 4]], [2]))
x = rng.standard_normal((6, 8))
positions = np.arange(6) * 3
# interleaved: dimensions (2i, 2i + 1) are the real and imaginary parts of one complex number
pairs = x[:, 0::2] + 1j * x[:, 1::2]
turned = pairs * np.exp(1j * positions[:, None] * rope_frequencies(8))
interleaved = np.stack([turned.real, turned.imag], axis=-1).reshape(6, 8)
order = np.concatenate([np.arange(0, 8, 2), np.arange(1, 8, 2)])  # 0, 2, 4, 6, 1, 3, 5, 7
reordered = np.empty_like(x)
reordered[:, order] = apply_rope(x[:, order], positions)
print("interleaved RoPE == rotate-half RoPE on reordered dimensions:", np.allclose(interleaved, reordered))
print("interleaved RoPE == rotate-half RoPE on the same dimensions: ",
      np.allclose(interleaved, apply_rope(x, positions)))

# %%
q, k = rng.standard_normal((2, 1, 64))
offsets = np.arange(-100, 101)
pe = sinusoidal_positions(301, 64)
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.5))
for m in (100, 3_000):
    keys = apply_rope(np.repeat(k, len(offsets), axis=0), m - offsets)
    left.plot(offsets, keys @ apply_rope(q, [m])[0], "-" if m == 100 else "--", label=f"query at m = {m:,}")
left.set(xlabel="offset m − n", ylabel="score", title="RoPE, random q and k")
left.legend()
ones = np.ones((len(offsets), 64))
right.plot(offsets, apply_rope(ones, 150 - offsets) @ apply_rope(ones[:1], [150])[0], label="RoPE, q = k = ones")
right.plot(offsets, 2 * pe[150 - offsets] @ pe[150], "--", label="2 · sinusoidal PE[p] · PE[p − offset]")
right.set(xlabel="offset m − n", title="All-ones q and k")
right.legend(fontsize=8)
plt.show()

# %%
# Test: rope_frequencies are base ** (-2i / head_dim) (3 points)
theta = rope_frequencies(4)
assert isinstance(theta, np.ndarray) and theta.shape == (2,), f"head_dim 4 gives 2 frequencies, got shape {np.shape(theta)}"
assert np.allclose(theta, [1, 0.01]), f"theta for head_dim 4 should be [1, 0.01], got {theta}"
assert np.allclose(rope_frequencies(8, base=16.0), [1, 0.5, 0.25, 0.125]), "base 16, head_dim 8: 16 ** (-2i/8) = 2 ** -i"
if np.allclose(rope_frequencies(8, base=16.0), 16.0 ** (-np.arange(4) / 3)):
    raise AssertionError("the exponent is -2i/head_dim, not -i/(head_dim/2 - 1) (tensor2tensor's)")
for bad in [(0,), (5,), (True,), (8.0,), (8, 0.0), (8, -2.0)]:
    try:
        rope_frequencies(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"rope_frequencies{bad} should raise ValueError")
print("Part 3 frequency tests passed.")

# %%
# Test: apply_rope: the worked examples, the rotate-half pairing, shapes and bad inputs (5 points)
one = apply_rope([[1, 0, 0, 0]], [1])
assert isinstance(one, np.ndarray) and one.shape == (1, 4), f"x of shape (1, 4) gives shape (1, 4), got {np.shape(one)}"
if np.allclose(one, [[0.540302, 0.841471, 0, 0]], atol=1e-5):
    raise AssertionError("you paired adjacent dimensions (2i, 2i+1): that is interleaved pairs (GPT-J style); "
                         "here dimension i pairs with i + head_dim/2 (rotate-half)")
assert np.allclose(one, [[0.540302, 0, 0.841471, 0]], atol=1e-5), f"[1, 0, 0, 0] at position 1 should become [0.540302, 0, 0.841471, 0], got {np.round(one, 6).tolist()}"
two = apply_rope([[1, 2, 3, 4]], [2])
assert np.allclose(two, [[-3.144039, 1.919605, -0.339143, 4.039197]], atol=1e-5), f"[1, 2, 3, 4] at position 2: got {np.round(two, 6).tolist()}"
rng_test = np.random.default_rng(3)
x = rng_test.standard_normal((2, 3, 5, 8))
positions = np.array([0, 4, 9, 100, 2_000])
out = apply_rope(x, positions)
assert np.shape(out) == x.shape, f"the output has the shape of x {x.shape}, got {np.shape(out)}"
for b in range(2):
    for h in range(3):
        assert np.allclose(out[b, h], apply_rope(x[b, h], positions)), "every (batch, head) slice uses the same positions"
assert np.allclose(out[..., 1, :], apply_rope(x[..., 1:2, :], [4])[..., 0, :]), "row t is rotated by positions[t]"
for bad_x, bad_positions in [(np.zeros((3, 4)), [0, 1]), (np.zeros((2, 5)), [0, 1]), (np.zeros(4), [0])]:
    try:
        apply_rope(bad_x, bad_positions)
    except ValueError:
        pass
    else:
        raise AssertionError(f"apply_rope on x of shape {bad_x.shape} with {len(bad_positions)} positions should raise ValueError")
print("Part 3 apply_rope tests passed.")

# %%
# Test: RoPE keeps norms, is the identity at position 0, and scores depend on the offset only (5 points)
rng_test = np.random.default_rng(4)
x = rng_test.standard_normal((6, 32))
assert np.allclose(apply_rope(x, np.zeros(6, dtype=int)), x), "position 0 rotates by angle 0: the identity"
rotated = apply_rope(x, rng_test.integers(0, 4_096, size=6))
assert np.allclose(np.linalg.norm(rotated, axis=1), np.linalg.norm(x, axis=1)), "a rotation keeps every vector's norm"
q, k = rng_test.standard_normal((2, 1, 32))
for m, n in [(5, 2), (2, 5), (40, 40)]:
    score = (apply_rope(q, [m]) @ apply_rope(k, [n]).T).item()
    for shift in (1, 100, 1_000):
        moved = (apply_rope(q, [m + shift]) @ apply_rope(k, [n + shift]).T).item()
        assert abs(moved - score) < 1e-6, (
            f"q at {m}, k at {n} score {score:.6f}, but shifted by {shift} they score {moved:.6f}: "
            "the score must depend on m - n only"
        )
a, b = rng_test.standard_normal((2, 4, 16))
assert np.allclose(apply_rope(2 * a + b, np.arange(4)), 2 * apply_rope(a, np.arange(4)) + apply_rope(b, np.arange(4))), "RoPE is linear in x"
print("Part 3 RoPE property tests passed.")

# %%
def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's slope per head, float64 of shape ``(n_heads,)``.

    A power of two ``n``: ``2 ** (-8/n)`` to the powers 1..n. Otherwise the slopes of the
    largest power of two ``c < n``, then every other slope of ``2c`` heads, the first ``n - c``.
    ``ValueError`` unless ``n_heads`` is a positive int.
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

    ``[h, i, j] = -slope_h * (i - j)`` for ``j <= i`` and ``-inf`` for ``j > i``. ``ValueError``
    unless both sizes are positive ints.
    """
    slopes = alibi_slopes(n_heads)
    seq_len = check_size(seq_len, "seq_len")
    offset = np.arange(seq_len)[None, :] - np.arange(seq_len)[:, None]  # j - i
    bias = slopes[:, None, None] * offset[None, :, :]
    bias[:, offset > 0] = -np.inf
    return bias

# %%
print("slopes of 12 heads:", alibi_slopes(12))
bias = alibi_bias(8, 64)
fig, ax = plt.subplots(figsize=(7, 3.5))
for h, slope in enumerate(alibi_slopes(8)):
    ax.plot(np.arange(64), bias[h, -1, ::-1], label=f"head {h}: slope 1/{round(1 / slope)}")
ax.set(xlabel="distance i − j (tokens back)", ylabel="bias added to the score",
       title="ALiBi: each head's penalty grows linearly with distance")
ax.legend(fontsize=7, ncol=2)
plt.show()

heads, length = 4, 6
scores = rng.standard_normal((heads, length, length))
slopes = alibi_slopes(heads)[:, None, None]
query, key = np.arange(length)[:, None], np.arange(length)[None, :]
lowest = np.finfo(np.float64).min
forms = {
    "ours (-inf mask)": alibi_bias(heads, length),
    "BLOOM (slope * j)": np.where(key > query, lowest, slopes * key),
    "MPT (slope * (j - (T-1)))": np.where(key > query, lowest, slopes * (key - (length - 1))),
}
weights = dict()
for name, form in forms.items():
    shifted = scores + form
    e = np.exp(shifted - shifted.max(axis=-1, keepdims=True))
    weights[name] = e / e.sum(axis=-1, keepdims=True)
    row = ["-inf" if v == -np.inf else "min" if v == lowest else f"{v:.2f}" for v in form[0, 3]]
    print(f"{name:>27}: row 3 of head 0 = {', '.join(row)}")
print('("min" is float64\'s most negative finite number, about -1.8e308)')
print("same attention weights in all three forms:",
      all(np.allclose(w, weights["ours (-inf mask)"]) for w in weights.values()))

# %%
# Test: alibi_slopes follow the paper for powers of two and for other head counts (4 points)
eight = alibi_slopes(8)
assert isinstance(eight, np.ndarray) and eight.shape == (8,), f"8 heads give 8 slopes, got shape {np.shape(eight)}"
assert np.allclose(eight, [1 / 2 ** i for i in range(1, 9)]), f"8 heads: 1/2, 1/4, ..., 1/256; got {eight}"
assert np.allclose(alibi_slopes(4), [1 / 4, 1 / 16, 1 / 64, 1 / 256]), "4 heads start at 2 ** (-8/4) = 1/4"
twelve = alibi_slopes(12)
assert np.allclose(twelve[:8], eight), "12 heads: first the 8 slopes of 8 heads"
assert np.allclose(twelve[8:], [0.707107, 0.353553, 0.176777, 0.088388], atol=1e-6), (
    f"then every other slope of 16 heads, the first 4: 0.707107, 0.353553, 0.176777, 0.088388; got {twelve[8:]}"
)
assert np.allclose(alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]), "6 heads: the 4-head slopes, then 1/2 and 1/8"
for bad in (0, -4, True, 8.0):
    try:
        alibi_slopes(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"alibi_slopes({bad!r}) should raise ValueError")
print("Part 3 ALiBi slope tests passed.")

# %%
# Test: alibi_bias is -slope * (i - j) on and below the diagonal and -inf above it (3 points)
bias = alibi_bias(2, 4)
assert isinstance(bias, np.ndarray) and bias.shape == (2, 4, 4), f"shape (n_heads, seq_len, seq_len) = (2, 4, 4), got {np.shape(bias)}"
assert np.issubdtype(bias.dtype, np.floating), f"the bias should be float, got {bias.dtype}"
assert np.isneginf(bias[0, 0, 1]) and np.isneginf(bias[1, 2, 3]), "keys after the query (j > i) are masked with -inf"
expected_head0 = -(1 / 16) * np.array([[0, 0, 0, 0], [1, 0, 0, 0], [2, 1, 0, 0], [3, 2, 1, 0]])
below = np.tril(np.ones((4, 4), dtype=bool))
assert np.allclose(bias[0][below], expected_head0[below]), f"head 0 of 2 has slope 1/16: -slope * (i - j); got {bias[0].tolist()}"
assert np.allclose(bias[1, 3, 0], -3 / 256), "head 1 of 2 has slope 1/256"
for bad in [(0, 4), (4, 0), (True, 4), (4, 2.0)]:
    try:
        alibi_bias(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"alibi_bias{bad} should raise ValueError")
print("Part 3 ALiBi bias tests passed.")

# %%
# %run -e preflight.py tokens_to_vectors.ipynb

