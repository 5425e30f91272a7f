"""Part 1: the embedding table, the first thing a model does with a token ID.

A model keeps one learned row of ``d`` numbers per token of its vocabulary: a table of shape
``(V, d)``. Looking a token up is reading its row, which is the same as multiplying a one-hot
row vector by the table. The table's size is a real cost, so this module also counts GPT-2's
parameters the way nanoGPT builds the model (token and position tables, twelve blocks of
LayerNorm, attention and MLP, a final LayerNorm, a head that shares the token table) and pads
a vocabulary as nanoGPT does (50,257 rows become 50,304, a multiple of 64).

Follows nanoGPT's ``GPT`` (``wte``, ``wpe``, weight tying) in numpy. Left out: training, the
gradient itself (the notebook argues from the one-hot product instead), dropout, and any
dtype other than the table's own (a lookup returns rows as they are stored).
"""

import numbers

import numpy as np
from numpy.typing import ArrayLike

# Autograded answers about GPT-2 small (50,257 tokens of 768 float32 numbers).
Q_EMBEDDING_MIB = 50_257 * 768 * 4 / 2**20  # 147.24 MiB for the token table alone
Q_EMBEDDING_SHARE = 50_257 * 768 / 124_439_808  # 0.31: almost a third of all parameters
Q_PADDED_EXTRA_ROWS = 47  # nanoGPT's 50,304 rows minus GPT-2's 50,257 tokens


def check_size(value: object, name: str) -> int:
    """Return ``value`` if it is a positive ``int``; raise ``ValueError`` naming ``name``.

    numpy integers count as ints. ``bool`` does not, although Python makes it a subclass of
    ``int``: ``True`` passed as a size is a bug, not the size 1. Neither does a float such as
    ``64.0``: a size is a count.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value}")
    return int(value)


def check_ids(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """``ids`` as an integer array whose every entry lies in ``[0, vocab_size)``.

    A list is turned into an array first. The array must have an integer dtype: a float,
    bool, string or object array raises ``ValueError`` naming its first entry (every entry is
    of the wrong kind). An empty array of any dtype holds no bad ID and passes as an empty
    integer array. Out of range, the message names the first bad ID in C order; negative IDs
    are refused too, because numpy would silently read them from the end of the table.
    Range is checked with one ``min`` and one ``max``, so a valid batch costs two passes.
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


def embedding_lookup(ids: ArrayLike, table: ArrayLike) -> np.ndarray:
    """The rows of ``table`` (shape ``(V, d)``) for ``ids`` of any shape: ``ids.shape + (d,)``.

    This is ``nn.Embedding``'s forward pass (nanoGPT's ``wte(idx)``). It costs one row copy
    per ID, whatever ``V`` is: numpy's fancy indexing reads only the rows asked for, and
    the table itself is never copied. Raises ``ValueError`` for a table that is not 2-D and
    for bad IDs (``check_ids``).
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"the table must have shape (V, d), got shape {table.shape}")
    return table[check_ids(ids, table.shape[0])]


def one_hot(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """Float64 one-hot rows: shape ``ids.shape + (vocab_size,)``, a 1.0 at each ID.

    ``one_hot(ids, V) @ table`` equals ``embedding_lookup(ids, table)``: a lookup is a matrix
    product with mostly zeros. It also shows why a lookup's gradient touches only the rows
    that were used: the gradient of ``one_hot @ table`` with respect to ``table`` is
    ``one_hot.T @ upstream``, and the rows of ``one_hot.T`` for unused tokens are zero.
    """
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = check_ids(ids, vocab_size)
    out = np.zeros(ids.shape + (vocab_size,))
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out


def padded_vocab_size(vocab_size: int, multiple: int = 64) -> int:
    """The smallest multiple of ``multiple`` that is ``>= vocab_size`` (50,257 -> 50,304).

    nanoGPT rounds GPT-2's vocabulary up so that matrix shapes suit the GPU's tiles; the
    extra rows are never produced by the tokenizer and simply go untrained.
    """
    vocab_size = check_size(vocab_size, "vocab_size")
    multiple = check_size(multiple, "multiple")
    return -(-vocab_size // multiple) * multiple


def gpt_parameter_count(vocab_size: int, n_positions: int, d_model: int, n_layers: int,
                        tied: bool = True) -> int:
    """Every parameter of a GPT-2 shaped model, the position table included.

    Per layer, with ``d = d_model``: two LayerNorms (``2d`` each), the fused query-key-value
    projection (``d*3d + 3d``), the attention output (``d*d + d``) and the MLP (``d*4d + 4d``
    and ``4d*d + d``), which adds up to ``12d^2 + 13d``. Around the layers: the token table
    ``V*d``, the position table ``n_positions*d``, a final LayerNorm ``2d``, and an output
    head that reuses the token table when ``tied`` (weight tying, as GPT-2 and nanoGPT do)
    or adds its own ``V*d`` matrix, without bias, when not. GPT-2 small
    ``(50257, 1024, 768, 12)`` has 124,439,808. ``ValueError`` unless the sizes are positive
    ints and ``tied`` is a bool.
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
