# %%
import json
import math
import numbers
import random
import re
from collections.abc import Callable
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
gpt2_ids = np.load("tinyshakespeare_gpt2.npy")  # the same text as GPT-2 token IDs (uint16)
gpt2_vocab = json.loads(Path("gpt2/vocab.json").read_text(encoding="utf-8"))  # token -> ID
merge_lines = Path("gpt2/merges.txt").read_text(encoding="utf-8").splitlines()[1:]  # after "#version"
gpt2_merges = [tuple(line.split(" ")) for line in merge_lines]  # in rank order
print(f"numpy {np.__version__}; Shakespeare: {len(shakespeare):,} characters, "
      f"{len(gpt2_ids):,} GPT-2 tokens; GPT-2: {len(gpt2_vocab):,} tokens, {len(gpt2_merges):,} merges")

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
def bpe_dropout(word: str, merges: list, p: float, rng: random.Random) -> list[str]:
    """One sampled segmentation of ``word``: its pieces, which join back to ``word``.

    From the characters, repeat: take the candidate with the lowest ``(rank, i)``, draw
    ``rng.random()`` once; below ``p`` drop that position, otherwise merge that one occurrence
    and forget every drop. Stop when no candidate is left. ``ValueError`` unless ``0 <= p <= 1``.
    """
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"the dropout probability p must be a number in [0, 1], got {p!r}")
    ranks: dict[tuple[str, str], int] = {}
    for rank, (left, right) in enumerate(merges):
        ranks.setdefault((left, right), rank)  # a pair's first appearance is its rank
    symbols = list(word)
    dropped: set[int] = set()
    while True:
        candidates = [(ranks[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:]))
                      if pair in ranks and i not in dropped]
        if not candidates:
            return symbols
        _, i = min(candidates)
        if rng.random() < p:  # dropped: this occurrence sits out until the next merge
            dropped.add(i)
            continue
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]  # merge this one occurrence
        dropped.clear()  # the word changed: every pair gets a new chance


def dropout_segmentations(word: str, merges: list, p: float, trials: int, seed: int
                          ) -> dict[tuple[str, ...], int]:
    """How often each segmentation (a tuple of pieces) comes out of ``trials`` calls of
    ``bpe_dropout`` that share one ``random.Random(seed)``. ``ValueError`` unless ``trials``
    is a positive int."""
    trials = check_size(trials, "trials")
    rng = random.Random(seed)
    counts: dict[tuple[str, ...], int] = {}
    for _ in range(trials):
        pieces = tuple(bpe_dropout(word, merges, p, rng))
        counts[pieces] = counts.get(pieces, 0) + 1
    return counts

# %%
counts = dropout_segmentations("abab", [("a", "b"), ("ab", "ab")], 0.5, 20_000, seed=0)
for pieces, probability in [(("abab",), 0.1875), (("ab", "ab"), 0.1875), (("ab", "a", "b"), 0.25),
                            (("a", "b", "ab"), 0.125), (("a", "b", "a", "b"), 0.25)]:
    print(f"{' '.join(pieces):>9}: {counts.get(pieces, 0) / 20_000:.4f} of the samples, "
          f"probability {probability}")

# %%
sampler = random.Random(0)
words = ["Ġ" + w for w in sampler.sample(re.findall(r"[A-Za-z]+", shakespeare), 1_000)]
ranks_by_result = dict()  # "Ġthe" -> the ranks of the merges that make it
for rank, (left, right) in enumerate(gpt2_merges):
    ranks_by_result.setdefault(left + right, []).append(rank)
inside = dict()  # each word's merges that can apply, in rank order
for word in set(words):
    found = {rank for i in range(len(word)) for j in range(i + 2, len(word) + 1)
             for rank in ranks_by_result.get(word[i:j], ())}
    inside[word] = [gpt2_merges[rank] for rank in sorted(found)]

example, trials = "Ġunderstanding", 1_000
found = {rank for i in range(len(example)) for j in range(i + 2, len(example) + 1)
         for rank in ranks_by_result.get(example[i:j], ())}
example_merges = [gpt2_merges[rank] for rank in sorted(found)]
print(f"{len(example_merges)} of GPT-2's merges can apply to {example!r}; at p = 0.1:")
counts = dropout_segmentations(example, example_merges, 0.1, trials, seed=1)
for pieces in sorted(counts, key=counts.get, reverse=True)[:6]:
    print(f"  {counts[pieces]:>4} of {trials:,}  {' | '.join(pieces)}")

ps = np.linspace(0, 1, 11)
mean_pieces = [np.mean([len(bpe_dropout(w, inside[w], p, sampler)) for w in words]) for p in ps]
mean_characters = np.mean([len(w) for w in words])
fig, ax = plt.subplots(figsize=(7, 3.8))
ax.plot(ps, mean_pieces, "o-", label="BPE-dropout with GPT-2's merges")
ax.axhline(mean_characters, color="gray", ls=":", label=f"characters ({mean_characters:.2f} a word)")
ax.annotate(f"p = 0: GPT-2's tokens, {mean_pieces[0]:.2f} a word", (0, mean_pieces[0]),
            textcoords="offset points", xytext=(12, -4))
ax.set(xlabel="dropout probability p", ylabel="mean pieces per word",
       title="1,000 running words of tinyshakespeare, each with its leading space")
ax.legend(loc="upper left")
plt.show()

# %%
# Test: bpe_dropout at p = 0 is plain BPE, at p = 1 the characters, and p must lie in [0, 1] (5 points)
rng_test = random.Random(0)
merges = [("a", "b"), ("ab", "ab"), ("abab", "abab")]
out = bpe_dropout("abab", merges, 0.0, rng_test)
assert isinstance(out, list) and out == ["abab"], f"p = 0: a+b twice, then ab+ab gives ['abab'], got {out!r}"
assert bpe_dropout("aaa", [("a", "a")], 0, rng_test) == ["aa", "a"], "leftmost first: 'aaa' with (a, a) gives ['aa', 'a']"
assert bpe_dropout("abc", [("b", "c"), ("a", "b")], 0, rng_test) == ["a", "bc"], "lowest rank first: (b, c) comes before (a, b) in the list"
late = bpe_dropout("abc", [("ab", "c"), ("a", "b")], 0, rng_test)
assert late == ["abc"], (
    f"after a+b, the pair (ab, c) is a candidate of rank 0: ['abc'], got {late!r} "
    "(replaying the list once would give ['ab', 'c'])"
)
assert bpe_dropout("abab", [("a", "b"), ("b", "a"), ("a", "b"), ("ab", "ab")], 0, rng_test) == ["abab"], "a repeated pair keeps its first rank"
gpt2_pairs = [tuple(line.split(" ")) for line in Path("gpt2/merges.txt").read_text(encoding="utf-8").splitlines()[1:]]
assert bpe_dropout("Ġtokenization", gpt2_pairs, 0, rng_test) == ["Ġtoken", "ization"], "GPT-2's merges at p = 0 give GPT-2's tokens"
for word in ["abab", "hello", "x", ""]:
    got = bpe_dropout(word, merges + [("l", "l"), ("h", "e")], 1.0, rng_test)
    assert got == list(word), f"p = 1 drops every candidate, leaving the characters of {word!r}; got {got!r}"
for bad in [-0.1, 1.5, True, "0.5", None]:
    try:
        bpe_dropout("ab", [("a", "b")], bad, random.Random(0))
    except ValueError:
        pass
    else:
        raise AssertionError(f"bpe_dropout with p = {bad!r} should raise ValueError")
print("Part 4 limit tests passed.")

# %%
# Test: bpe_dropout draws from rng only, once per candidate taken, and the same seed gives the same pieces (5 points)
merges = [("a", "b"), ("ab", "ab"), ("abab", "abab")]
expected = {0: ["abab", "a", "b", "ab"], 1: ["ab", "ab", "a", "b", "a", "b"],
            2: ["abab", "ab", "ab"], 3: ["ab", "abab", "a", "b"]}
for seed, pieces in expected.items():
    random.seed(1_000 + seed)  # the global generators get other seeds, as in the grader
    np.random.seed(2_000 + seed)
    out = bpe_dropout("abababab", merges, 0.5, random.Random(seed))
    assert "".join(out) == "abababab", f"the pieces must join back to the word, got {out!r}"
    assert out == pieces, (
        f"random.Random({seed}) at p = 0.5 gives {pieces}, you gave {out}: choose the lowest (rank, i) first, "
        "then draw rng.random() once for it (never random.random() or np.random)"
    )
counted = random.Random(5)
bpe_dropout("abab", [("a", "b"), ("ab", "ab")], 0.0, counted)
three = random.Random(5)
three.random(), three.random(), three.random()
assert counted.getstate() == three.getstate(), "three merges at p = 0 take exactly three draws: one per candidate taken, even at p = 0"
for seed in range(20):
    first = bpe_dropout("abababab", merges, 0.3, random.Random(seed))
    assert first == bpe_dropout("abababab", merges, 0.3, random.Random(seed)), "the same seed must give the same pieces"
print("Part 4 sampling tests passed.")

# %%
# Test: dropout_segmentations shares one generator and matches the worked example's probabilities (5 points)
merges = [("a", "b"), ("ab", "ab")]
counts = dropout_segmentations("abab", merges, 0.5, 4_000, seed=1)
assert isinstance(counts, dict) and sum(counts.values()) == 4_000, "a dict of counts that add up to the trials"
assert all(isinstance(k, tuple) and "".join(k) == "abab" for k in counts), "keys are tuples of pieces that join to the word"
shared, by_hand = random.Random(1), {}
for _ in range(4_000):
    key = tuple(bpe_dropout("abab", merges, 0.5, shared))
    by_hand[key] = by_hand.get(key, 0) + 1
assert counts == by_hand, "make random.Random(seed) once, and let every trial draw from it in turn"
exact = {("abab",): 0.1875, ("ab", "ab"): 0.1875, ("ab", "a", "b"): 0.25, ("a", "b", "ab"): 0.125, ("a", "b", "a", "b"): 0.25}
assert set(counts) == set(exact), f"'abab' has five segmentations here, got {sorted(counts)}"
for pieces, probability in exact.items():
    share = counts[pieces] / 4_000
    assert abs(share - probability) < 0.04, f"{pieces}: {share:.3f} of the trials, the loop gives it {probability}"
assert dropout_segmentations("abab", merges, 0.0, 10, seed=3) == {("abab",): 10}, "p = 0: the one BPE segmentation, every time"
for bad in (0, -5, 2.0):
    try:
        dropout_segmentations("abab", merges, 0.5, bad, seed=0)
    except ValueError:
        pass
    else:
        raise AssertionError(f"trials = {bad!r} should raise ValueError")
print("Part 4 segmentation tests passed.")

# %%
def byte_tokens(text: str) -> list[int]:
    """ByT5's IDs of ``text``: each UTF-8 byte plus 3, then the end-of-sequence ID 1."""
    return [byte + 3 for byte in text.encode("utf-8")] + [1]


def byte_detokenize(ids: list[int]) -> str:
    """The text of ByT5 IDs: 0-2 dropped, the rest read as bytes (ID - 3) and decoded with
    ``errors="replace"``. ``ValueError`` for an ID that is not an int in 0-258."""
    data = bytearray()
    for token in ids:
        if isinstance(token, bool) or not isinstance(token, numbers.Integral) or not (
                0 <= token <= 258):
            raise ValueError(f"a ByT5 ID is an int in 0-258, got {token!r}")
        if token >= 3:
            data.append(int(token) - 3)
    return data.decode("utf-8", errors="replace")


def patchify(image: ArrayLike, patch: int) -> np.ndarray:
    """ViT's tokens: ``image`` ``(H, W, C)`` cut into ``patch x patch`` squares, row by row,
    each flattened in (row, column, channel) order: shape ``(H/patch * W/patch,
    patch * patch * C)``. ``ValueError`` unless the image has three axes and ``patch`` is a
    positive int dividing ``H`` and ``W``."""
    image = np.asarray(image)
    patch = check_size(patch, "patch")
    if image.ndim != 3:
        raise ValueError(f"an image has shape (H, W, C), got shape {image.shape}")
    height, width, channels = image.shape
    if height % patch or width % patch:
        raise ValueError(f"a patch of {patch} does not divide an image of {height} x {width}")
    rows, cols = height // patch, width // patch
    blocks = image.reshape(rows, patch, cols, patch, channels).transpose(0, 2, 1, 3, 4)
    return blocks.reshape(rows * cols, patch * patch * channels)


def vq_tokenize(vectors: ArrayLike, codebook: ArrayLike) -> np.ndarray:
    """For each row of ``vectors`` ``(N, D)``, the index of the nearest row of ``codebook``
    ``(K, D)`` by squared Euclidean distance, ties to the smaller index. Uses
    ``|x|^2 - 2 x.c + |c|^2`` (an ``(N, K)`` array), never the ``(N, K, D)`` differences."""
    vectors = np.asarray(vectors, dtype=np.float64)
    codebook = np.asarray(codebook, dtype=np.float64)
    if vectors.ndim != 2 or codebook.ndim != 2 or vectors.shape[1] != codebook.shape[1]:
        raise ValueError(f"vectors (N, D) and codebook (K, D) must share D, got "
                         f"{vectors.shape} and {codebook.shape}")
    if codebook.shape[0] == 0:
        raise ValueError("the codebook is empty")
    distances = (codebook * codebook).sum(axis=1)[None, :] - 2 * vectors @ codebook.T
    return np.argmin(distances, axis=1)

# %%
print("ByT5:", byte_tokens("Où?"), "->", repr(byte_detokenize(byte_tokens("Où?"))))
print("cut after the 'O' and the first byte of 'ù':", repr(byte_detokenize(byte_tokens("Où?")[:2])))
image = np.random.default_rng(0).random((224, 224, 3))
print("a 224 x 224 x 3 image in 16 x 16 patches:", patchify(image, 16).shape)
vectors = rng.standard_normal((10_000, 64))
codebook = rng.standard_normal((512, 64))
codes = vq_tokenize(vectors, codebook)
naive = np.argmin(((vectors[:100, None, :] - codebook[None, :, :]) ** 2).sum(axis=-1), axis=1)
print(f"10,000 vectors -> codes {codes[:8]}...; the same as the broadcast on the first 100:",
      np.array_equal(codes[:100], naive))
print(f"memory: (N, K, D) broadcast {10_000 * 512 * 64 * 8 / 1e9:.1f} GB, "
      f"(N, K) distances {10_000 * 512 * 8 / 1e6:.0f} MB")

# %%
# Test: byte_tokens and byte_detokenize follow ByT5 (3 points)
ids = byte_tokens("hé!")
assert ids == [107, 198, 172, 36, 1], f"'hé!' is the bytes 68 C3 A9 21, each plus 3, then 1: [107, 198, 172, 36, 1]; got {ids}"
assert byte_tokens("") == [1], "the empty text is the end-of-sequence ID alone"
for text in ["hello", "naïve café", "日本語", "🙂", "a\nb"]:
    assert byte_detokenize(byte_tokens(text)) == text, f"{text!r} should survive a round trip"
assert byte_detokenize([0, 107, 2, 111, 1, 0]) == "hl", "the IDs 0, 1 and 2 are dropped"
assert byte_detokenize([107, 198, 1]) == "h\ufffd", "a character cut in the middle decodes to U+FFFD (errors='replace')"
for bad in ([259], [-1], [True], [3.0]):
    try:
        byte_detokenize(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"byte_detokenize({bad!r}) should raise ValueError: an ID is an int in 0-258")
print("Part 5 byte tests passed.")

# %%
# Test: patchify cuts row by row and flattens each patch by row, column, channel (3 points)
image = np.arange(32).reshape(4, 4, 2)  # pixel (y, x) holds the values 2(4y + x) and 2(4y + x) + 1
out = patchify(image, 2)
assert isinstance(out, np.ndarray) and out.shape == (4, 8), f"a 4 x 4 x 2 image in 2 x 2 patches gives shape (4, 8), got {np.shape(out)}"
assert out[0].tolist() == [0, 1, 2, 3, 8, 9, 10, 11], f"patch 0 is pixels (0,0), (0,1), (1,0), (1,1), channels innermost; got {out[0].tolist()}"
if out[1].tolist() == [16, 17, 18, 19, 24, 25, 26, 27]:
    raise AssertionError("patch 1 is the top-right patch: patches go row by row (left to right, then down)")
assert out[1].tolist() == [4, 5, 6, 7, 12, 13, 14, 15], f"patch 1 is the top-right one; got {out[1].tolist()}"
assert patchify(np.zeros((224, 224, 3)), 16).shape == (196, 768), "ViT: 224 x 224 x 3 in 16 x 16 patches is 196 tokens of 768"
assert patchify(np.zeros((6, 9, 1)), 3).shape == (6, 9), "H and W need not be equal"
for bad_image, bad_patch in [(np.zeros((224, 224, 3)), 15), (np.zeros((4, 4, 3)), 0), (np.zeros((4, 4)), 2), (np.zeros((4, 4, 3)), 2.0)]:
    try:
        patchify(bad_image, bad_patch)
    except ValueError:
        pass
    else:
        raise AssertionError(f"patchify of shape {bad_image.shape} with patch {bad_patch!r} should raise ValueError")
print("Part 5 patch tests passed.")

# %%
# Test: vq_tokenize finds the nearest code, ties to the smaller index (3 points)
codebook = np.array([[0.0, 0], [1, 0], [0, 1], [1, 1]])
codes = vq_tokenize([[0.9, 0.1], [0.2, 0.8], [0.6, 0.7], [-1, -1]], codebook)
assert isinstance(codes, np.ndarray) and codes.shape == (4,), f"one code per vector: shape (4,), got {np.shape(codes)}"
assert np.issubdtype(codes.dtype, np.integer), f"codes are integer indices, got {codes.dtype}"
assert codes.tolist() == [1, 2, 3, 0], f"the nearest codebook rows are [1, 2, 3, 0], got {codes.tolist()}"
assert vq_tokenize([[0.5, 0.5]], codebook).tolist() == [0], "four codes at the same distance: the smallest index"
rng_test = np.random.default_rng(5)
x, c = rng_test.standard_normal((50, 6)), rng_test.standard_normal((20, 6))
assert np.array_equal(vq_tokenize(x, c), np.argmin(((x[:, None] - c[None]) ** 2).sum(-1), axis=1)), "the nearest code by squared distance"
for bad_x, bad_c in [(np.zeros((2, 3)), np.zeros((4, 2))), (np.zeros(3), np.zeros((4, 3))), (np.zeros((2, 3)), np.zeros((0, 3)))]:
    try:
        vq_tokenize(bad_x, bad_c)
    except ValueError:
        pass
    else:
        raise AssertionError(f"vectors {bad_x.shape} and codebook {bad_c.shape} should raise ValueError")
print("Part 5 codebook tests passed.")

# %%
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table from bytes to printable characters: the 188 printable bytes (33-126,
    161-172, 174-255) stand for themselves; the other 68 become chr(256), chr(257), ... in
    increasing order of the byte."""
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    table = {byte: chr(byte) for byte in printable}
    moved = [byte for byte in range(256) if byte not in table]
    table.update({byte: chr(256 + n) for n, byte in enumerate(moved)})
    return dict(sorted(table.items()))


def incomplete_utf8_tokens(vocab: dict[str, int]) -> list[int]:
    """The sorted IDs of a GPT-2 style vocabulary (token string in the ``bytes_to_unicode``
    alphabet -> ID) whose bytes are not valid UTF-8 on their own."""
    byte_of = {char: byte for byte, char in bytes_to_unicode().items()}
    broken = []
    for token, token_id in vocab.items():
        try:
            bytes(byte_of[char] for char in token).decode("utf-8")
        except UnicodeDecodeError:
            broken.append(token_id)
    return sorted(broken)


def unused_tokens(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """The sorted IDs in ``[0, vocab_size)`` that never occur in ``ids``. ``ValueError`` for
    IDs that are not integers or lie outside that range."""
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = np.asarray(ids).reshape(-1)
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError(f"token IDs must be integers in [0, {vocab_size})")
    seen = np.bincount(ids.astype(np.int64), minlength=vocab_size)
    return np.flatnonzero(seen == 0)

# %%
incomplete = incomplete_utf8_tokens(gpt2_vocab)
token_of = {i: token for token, i in gpt2_vocab.items()}
byte_of = {char: byte for byte, char in bytes_to_unicode().items()}
print(f"{len(incomplete)} incomplete tokens; {sum(i < 256 for i in incomplete)} of them are single "
      "bytes 0x80-0xFF (every byte-level vocabulary has those), the rest are merges")
for i in incomplete[-6:]:
    data = bytes(byte_of[char] for char in token_of[i])
    print(f"  {i:>6}  {token_of[i]!r:>10}  bytes {data.hex(' '):<12} alone: {data.decode('utf-8', errors='replace')!r}")

# %%
counts = np.bincount(gpt2_ids, minlength=len(gpt2_vocab))
unused = unused_tokens(gpt2_ids, len(gpt2_vocab))
print(f"{len(unused):,} of {len(gpt2_vocab):,} tokens never occur in tinyshakespeare; "
      f"43453 is {token_of[43453]!r}, used {counts[43453]} times")
print("the most frequent:", [token_of[i] for i in np.argsort(counts)[::-1][:8]])
print("unused tokens among the first 1,000 IDs:", [token_of[i] for i in unused[unused < 1_000][:8]])
used = np.flatnonzero(counts)
edges = np.arange(0, len(gpt2_vocab) + 1_000, 1_000)
block_sizes = np.minimum(edges[1:], len(gpt2_vocab)) - edges[:-1]
fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True,
                                  gridspec_kw=dict(height_ratios=[3, 1.2]))
top.scatter(used, counts[used], s=2, alpha=0.3, lw=0)
top.set(yscale="log", ylabel="occurrences in tinyshakespeare",
        title=f"GPT-2's tokens in tinyshakespeare: {len(unused):,} of {len(gpt2_vocab):,} never occur")
bottom.stairs(np.histogram(unused, edges)[0] / block_sizes, edges, baseline=None)
bottom.set(xlabel="token ID", ylabel="share unused", ylim=(0, 1.05))
for ax in (top, bottom):
    ax.axvline(43453, color="red", ls="--", lw=1)
top.annotate('" SolidGoldMagikarp" (43453):\nnever', (43453, 3_000), xytext=(-10, 0),
             textcoords="offset points", ha="right", color="red")
plt.show()

# %%
# Q_BYTES_PER_GPT2_TOKEN = ...          bytes of tinyshakespeare per GPT-2 token
# Q_BYTE_LEVEL_ATTENTION_FACTOR = ...   a byte-level model's attention work over GPT-2's, same text
Q_BYTES_PER_GPT2_TOKEN = 1_115_394 / 338_025  # 3.2997 bytes a token
Q_BYTE_LEVEL_ATTENTION_FACTOR = (1_115_394 / 338_025) ** 2  # 10.89 times the attention work

# %%
# Test: bytes_to_unicode, GPT-2's incomplete tokens and the corpus's unused tokens (4 points)
table = bytes_to_unicode()
assert isinstance(table, dict) and sorted(table) == list(range(256)), "one entry for every byte 0-255"
assert len(set(table.values())) == 256, "every byte gets its own character"
assert table[33] == "!" and table[255] == "ÿ" and table[161] == "¡", "printable bytes stand for themselves"
assert table[32] == "Ġ" and table[0] == chr(256) and table[127] == chr(289) and table[173] == chr(323), (
    "the other 68 bytes become chr(256), chr(257), ... in increasing order: 0 -> chr(256), 32 -> 'Ġ', 127 -> chr(289), 173 -> chr(323)"
)
assert incomplete_utf8_tokens({"a": 5, "Ã": 7, "Ã©": 1, "Ġ": 3}) == [7], "'Ã' is the byte 0xC3 alone (incomplete); 'Ã©' is 0xC3 0xA9, 'é'"
vocab = json.loads(Path("gpt2/vocab.json").read_text(encoding="utf-8"))
broken = incomplete_utf8_tokens(vocab)
assert isinstance(broken, list) and len(broken) == 344, f"GPT-2 has 344 tokens that are not valid UTF-8 alone, got {len(broken)}"
assert broken == sorted(broken), "the IDs, sorted"
assert 23294 in broken and vocab["Ġthe"] not in broken, "23294 ('Ġãģ': a space and the first two of a hiragana's three bytes) is one; 'Ġthe' is not"
out = unused_tokens(np.array([[2, 0], [2, 2]]), 5)
assert isinstance(out, np.ndarray) and out.tolist() == [1, 3, 4], f"IDs 1, 3 and 4 never occur: [1, 3, 4], got {out}"
assert unused_tokens([], 3).tolist() == [0, 1, 2], "no IDs: every token is unused"
ids = np.load("tinyshakespeare_gpt2.npy")
unused = unused_tokens(ids, 50_257)
assert len(unused) == 38_551 and 43453 in unused, f"38,551 of GPT-2's tokens never occur in tinyshakespeare, 43453 among them; got {len(unused):,}"
for bad_ids, bad_size in [([0, 5], 5), ([-1], 5), ([1.0], 5), ([0], 0)]:
    try:
        unused_tokens(bad_ids, bad_size)
    except ValueError:
        pass
    else:
        raise AssertionError(f"unused_tokens({bad_ids!r}, {bad_size!r}) should raise ValueError")
print("Part 5 GPT-2 token tests passed.")

# %%
# Test: the numeric answers exist and agree with the data (2 points; exact values are graded hidden)
for name in ["Q_BYTES_PER_GPT2_TOKEN", "Q_BYTE_LEVEL_ATTENTION_FACTOR"]:
    assert name in globals(), f"define the module-level constant {name}"
    assert isinstance(globals()[name], (int, float)) and not isinstance(globals()[name], bool), f"{name} should be a number"
size, tokens = Path("tinyshakespeare.txt").stat().st_size, len(np.load("tinyshakespeare_gpt2.npy"))
assert abs(Q_BYTES_PER_GPT2_TOKEN - size / tokens) < 1e-3, "Q_BYTES_PER_GPT2_TOKEN: the file's bytes over its GPT-2 tokens"
assert abs(Q_BYTE_LEVEL_ATTENTION_FACTOR - Q_BYTES_PER_GPT2_TOKEN ** 2) < 1e-2, "attention grows with the square of the length"
print("Part 5 answer tests passed.")

# %%
def kv_cache_bytes(n_layers: int, n_kv_heads: int, head_dim: int, seq_len: int, batch: int = 1,
                   bytes_per_value: int = 2) -> int:
    """Bytes of the KV cache: a key and a value of ``head_dim`` numbers per token, layer,
    KV head and sequence. ``ValueError`` for a size that is not a positive int."""
    sizes = {"n_layers": n_layers, "n_kv_heads": n_kv_heads, "head_dim": head_dim,
             "seq_len": seq_len, "batch": batch, "bytes_per_value": bytes_per_value}
    total = 2
    for name, value in sizes.items():
        total *= check_size(value, name)
    return total


def attention_score_bytes(n_heads: int, seq_len: int, batch: int = 1,
                          bytes_per_value: int = 2) -> int:
    """One layer's score matrices, ``batch * n_heads * seq_len**2 * bytes_per_value`` bytes."""
    return (check_size(batch, "batch") * check_size(n_heads, "n_heads")
            * check_size(seq_len, "seq_len") ** 2 * check_size(bytes_per_value, "bytes_per_value"))


def attention_flops(seq_len: int, d_model: int, n_layers: int) -> int:
    """``n_layers * 4 * seq_len**2 * d_model``: ``Q K^T`` and the mixing of ``V``, two FLOPs
    per multiply-add, projections left out."""
    return (check_size(n_layers, "n_layers") * 4 * check_size(seq_len, "seq_len") ** 2
            * check_size(d_model, "d_model"))


def max_context(memory_bytes: int, n_layers: int, n_kv_heads: int, head_dim: int,
                batch: int = 1, bytes_per_value: int = 2) -> int:
    """The longest ``seq_len`` whose KV cache fits in ``memory_bytes`` (0 if no token fits)."""
    per_token = kv_cache_bytes(n_layers, n_kv_heads, head_dim, 1, batch, bytes_per_value)
    return check_size(memory_bytes, "memory_bytes") // per_token


def context_cost(text: str, encode: Callable[[str], list[int]], d_model: int, n_layers: int,
                 bytes_per_value: int = 2) -> dict[str, int]:
    """One text under one tokenizer's ``encode``, in a model with multi-head attention:
    ``{"tokens": T, "kv_cache_bytes": ..., "attention_flops": ...}``."""
    d_model, n_layers = check_size(d_model, "d_model"), check_size(n_layers, "n_layers")
    bytes_per_value = check_size(bytes_per_value, "bytes_per_value")
    tokens = len(encode(text))
    return {"tokens": tokens,
            "kv_cache_bytes": 2 * n_layers * d_model * tokens * bytes_per_value,
            "attention_flops": n_layers * 4 * tokens ** 2 * d_model}

# %%
models = dict([("GPT-2 small", (12, 12, 64)), ("Llama 2 7B", (32, 32, 128)),
               ("Llama 3 8B (8 KV heads)", (32, 8, 128))])
lengths = 2 ** np.arange(8, 23)
fig, ax = plt.subplots(figsize=(7.5, 4))
for name, shape in models.items():
    line, = ax.plot(lengths, [kv_cache_bytes(*shape, int(t)) / 1e9 for t in lengths], label=name)
    longest = max_context(80 * 10**9, *shape)
    ax.plot(longest, kv_cache_bytes(*shape, longest) / 1e9, "o", color=line.get_color())
    print(f"{name:>24}: {kv_cache_bytes(*shape, 1):>9,} bytes a token; "
          f"{kv_cache_bytes(*shape, 4_096) / 2**30:5.2f} GiB at 4,096 tokens; "
          f"{longest:>9,} tokens fit in 80 GB")
ax.axhline(80, color="red", ls="--", lw=1, label="80 GB")
ax.set(xscale="log", yscale="log", xlabel="context length (tokens)", ylabel="KV cache (GB, fp16)",
       title="The KV cache grows linearly with the context")
ax.legend()
plt.show()

# %%
token_lengths = np.zeros(len(gpt2_vocab), dtype=np.int64)
for token, i in gpt2_vocab.items():
    token_lengths[i] = len(token)  # one character of GPT-2's alphabet per byte
ends = np.cumsum(token_lengths[gpt2_ids])  # where each token of the corpus ends, in bytes
encoders = dict([("characters", list), ("bytes (ByT5)", byte_tokens),
                   ("GPT-2", lambda text: gpt2_ids[:np.searchsorted(ends, len(text.encode("utf-8")), "right")])])
sizes = np.unique(np.geomspace(100, len(shakespeare), 14).astype(int))
fig, ax = plt.subplots(figsize=(7.5, 4))
for (name, encode), style in zip(encoders.items(), ["-", "--", "-"]):
    flops = [context_cost(shakespeare[:n], encode, 768, 12)["attention_flops"] for n in sizes]
    ax.plot(sizes, flops, style, label=name)
whole = {name: context_cost(shakespeare, encode, 768, 12) for name, encode in encoders.items()}
ratio = whole["bytes (ByT5)"]["attention_flops"] / whole["GPT-2"]["attention_flops"]
low, high = whole["GPT-2"]["attention_flops"], whole["bytes (ByT5)"]["attention_flops"]
ax.annotate("", xy=(sizes[-1], high), xytext=(sizes[-1], low), arrowprops=dict(arrowstyle="<->"))
ax.text(sizes[-1] * 0.8, math.sqrt(low * high), f"×{ratio:.1f}", ha="right", va="center")
ax.set(xscale="log", yscale="log", xlabel="characters of Shakespeare in one context",
       ylabel="attention FLOPs (12 layers, d = 768)", title="Attention grows with the square of the tokens")
ax.legend()
plt.show()
for name, cost in whole.items():
    print(f"the whole corpus as {name:>12}: {cost['tokens']:>9,} tokens, KV cache "
          f"{cost['kv_cache_bytes'] / 2**30:6.1f} GiB, attention {cost['attention_flops']:.2e} FLOPs")
print("beyond ASCII:", {name: context_cost("Ἐν ἀρχῇ ἦν ὁ λόγος", encode, 768, 12)["tokens"]
                        for name, encode in list(encoders.items())[:2]}, "tokens")

# %%
# Test: kv_cache_bytes on three models, with batches and other widths, and its bad sizes (6 points)
gpt2_small = kv_cache_bytes(12, 12, 64, 1)
assert type(gpt2_small) is int and gpt2_small == 36_864, f"GPT-2 small, one token at fp16: 2 * 12 * 12 * 64 * 2 = 36,864 bytes, got {gpt2_small!r}"
assert kv_cache_bytes(32, 32, 128, 1) == 524_288, "Llama 2 7B: 512 KiB a token"
assert kv_cache_bytes(32, 32, 128, 8_192) == 4 * 2**30, "Llama 2 7B: 4 GiB at 8,192 tokens"
assert kv_cache_bytes(32, 8, 128, 1) == 131_072, "Llama 3 8B: 8 KV heads, a quarter of Llama 2's cache"
assert kv_cache_bytes(12, 12, 64, 1_024, batch=8) == 8 * kv_cache_bytes(12, 12, 64, 1_024), "the cache grows with the batch"
assert kv_cache_bytes(2, 3, 4, 5, batch=6, bytes_per_value=4) == 2 * 2 * 3 * 4 * 5 * 6 * 4, "every factor counts, bytes_per_value too"
for bad in [(0, 12, 64, 10), (12, 12, 64, -1), (12, 12, 64.0, 10), (12, True, 64, 10)]:
    try:
        kv_cache_bytes(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"kv_cache_bytes{bad} should raise ValueError")
try:
    kv_cache_bytes(12, 12, 64, 10, batch=0)
except ValueError:
    pass
else:
    raise AssertionError("batch=0 should raise ValueError")
print("Part 6 KV cache tests passed.")

# %%
# Test: attention_score_bytes and attention_flops grow with the square of the length (5 points)
scores = attention_score_bytes(12, 1_024)
assert type(scores) is int and scores == 12 * 1_024**2 * 2, f"GPT-2 small's scores in one layer: 12 heads * 1,024^2 * 2 bytes, got {scores!r}"
assert attention_score_bytes(4, 10, batch=3, bytes_per_value=4) == 3 * 4 * 100 * 4, "batch * heads * seq_len^2 * bytes_per_value"
assert attention_score_bytes(8, 2_000) == 4 * attention_score_bytes(8, 1_000), "twice the length, four times the scores"
flops = attention_flops(1_024, 768, 12)
assert type(flops) is int and flops == 12 * 4 * 1_024**2 * 768, f"12 layers * 4 * 1,024^2 * 768, got {flops!r}"
assert attention_flops(1, 1, 1) == 4, "one token, one dimension, one layer: Q K^T and the mix of V, 2 FLOPs each"
assert attention_flops(3_000, 64, 2) == 9 * attention_flops(1_000, 64, 2), "three times the length, nine times the FLOPs"
for bad_call in [lambda: attention_score_bytes(0, 10), lambda: attention_score_bytes(4, 1.5),
                 lambda: attention_flops(10, 0, 2), lambda: attention_flops(True, 8, 2)]:
    try:
        bad_call()
    except ValueError:
        pass
    else:
        raise AssertionError("sizes must be positive ints: ValueError expected")
print("Part 6 attention tests passed.")

# %%
# Test: max_context is the longest context whose cache fits (4 points)
longest = max_context(80 * 10**9, 32, 8, 128)
assert type(longest) is int, f"a number of tokens is an int, got {type(longest).__name__}"
assert kv_cache_bytes(32, 8, 128, longest) <= 80 * 10**9 < kv_cache_bytes(32, 8, 128, longest + 1), (
    f"{longest:,} tokens: the cache must fit, and one token more must not"
)
assert max_context(36_864, 12, 12, 64) == 1 and max_context(36_863, 12, 12, 64) == 0, "exactly one token fits, then none"
assert max_context(10**9, 12, 12, 64, batch=4) == 10**9 // (4 * 36_864), "the batch shares the memory"
for bad in [(0, 12, 12, 64), (10**9, 12, 0, 64), (1e9, 12, 12, 64)]:
    try:
        max_context(*bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"max_context{bad} should raise ValueError")
print("Part 6 max_context tests passed.")

# %%
# Test: context_cost counts one text's tokens, cache and attention under a tokenizer (3 points)
cost = context_cost("to be or not", list, 8, 2)
assert isinstance(cost, dict) and set(cost) == {"tokens", "kv_cache_bytes", "attention_flops"}, f"three keys, got {cost!r}"
assert cost["tokens"] == 12, f"list() makes one token per character: 12, got {cost['tokens']}"
assert cost["kv_cache_bytes"] == 2 * 2 * 8 * 12 * 2, f"2 * layers * d_model * tokens * bytes_per_value, got {cost['kv_cache_bytes']}"
assert cost["attention_flops"] == attention_flops(12, 8, 2), "the attention FLOPs of 12 tokens"
words = context_cost("to be or not", str.split, 8, 2, bytes_per_value=4)
assert words == {"tokens": 4, "kv_cache_bytes": 2 * 2 * 8 * 4 * 4, "attention_flops": 2 * 4 * 16 * 8}, f"by words, fp32: got {words}"
assert context_cost("", list, 8, 2) == {"tokens": 0, "kv_cache_bytes": 0, "attention_flops": 0}, "no tokens cost nothing"
try:
    context_cost("abc", list, 0, 2)
except ValueError:
    pass
else:
    raise AssertionError("d_model = 0 should raise ValueError")
print("Part 6 context_cost tests passed.")

# %%
# Q_GPT2_KV_BYTES_PER_TOKEN = ...        GPT-2 small's KV cache per token (bytes, fp16)
# Q_LLAMA2_7B_KV_BYTES_PER_TOKEN = ...   Llama 2 7B's
# Q_LLAMA3_8B_KV_BYTES_PER_TOKEN = ...   Llama 3 8B's (grouped-query attention)
# Q_LLAMA2_7B_KV_GIB_AT_4096 = ...       Llama 2 7B's cache at 4,096 tokens, in GiB
# Q_LLAMA3_8B_MAX_CONTEXT_80GB = ...     tokens of Llama 3 8B's cache that fit in 80 * 10**9 bytes
Q_GPT2_KV_BYTES_PER_TOKEN = 2 * 12 * 12 * 64 * 2  # 36,864
Q_LLAMA2_7B_KV_BYTES_PER_TOKEN = 2 * 32 * 32 * 128 * 2  # 524,288: 512 KiB
Q_LLAMA3_8B_KV_BYTES_PER_TOKEN = 2 * 32 * 8 * 128 * 2  # 131,072: a quarter, thanks to GQA
Q_LLAMA2_7B_KV_GIB_AT_4096 = 2 * 32 * 32 * 128 * 2 * 4_096 / 2**30  # 2.0 GiB
Q_LLAMA3_8B_MAX_CONTEXT_80GB = 80 * 10**9 // (2 * 32 * 8 * 128 * 2)  # 610,351 tokens

# %%
# Test: the numeric answers exist and agree with your Part 6 functions (2 points; exact values are graded hidden)
names = ["Q_GPT2_KV_BYTES_PER_TOKEN", "Q_LLAMA2_7B_KV_BYTES_PER_TOKEN", "Q_LLAMA3_8B_KV_BYTES_PER_TOKEN",
         "Q_LLAMA2_7B_KV_GIB_AT_4096", "Q_LLAMA3_8B_MAX_CONTEXT_80GB"]
for name in names:
    assert name in globals(), f"define the module-level constant {name}"
    assert isinstance(globals()[name], (int, float)) and not isinstance(globals()[name], bool), f"{name} should be a number"
assert Q_GPT2_KV_BYTES_PER_TOKEN == kv_cache_bytes(12, 12, 64, 1), "GPT-2 small: 12 layers, 12 KV heads of 64"
assert Q_LLAMA2_7B_KV_BYTES_PER_TOKEN == kv_cache_bytes(32, 32, 128, 1), "Llama 2 7B: 32 layers, 32 KV heads of 128"
assert Q_LLAMA3_8B_KV_BYTES_PER_TOKEN == kv_cache_bytes(32, 8, 128, 1), "Llama 3 8B: 32 layers, 8 KV heads of 128"
assert abs(Q_LLAMA2_7B_KV_GIB_AT_4096 * 2**30 - kv_cache_bytes(32, 32, 128, 4_096)) < 1e-3 * 2**30, "in GiB: 2**30 bytes"
assert Q_LLAMA3_8B_MAX_CONTEXT_80GB == max_context(80 * 10**9, 32, 8, 128), "80 GB is 80 * 10**9 bytes"
print("Part 6 answer tests passed.")

# %%
# %run -e preflight.py tokens_to_vectors.ipynb

