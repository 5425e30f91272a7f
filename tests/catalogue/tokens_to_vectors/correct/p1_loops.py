"""Part 1 written with loops, the way a student new to numpy writes it (catalogue: a
correct alternative, edited into the reference).

* ``embedding_lookup`` checks and copies one ID at a time into a preallocated array: slower
  than fancy indexing by a constant, and like it, never touches the rows it is not asked
  for, so its time does not grow with the vocabulary;
* ``one_hot`` sets one 1.0 per ID in a loop;
* ``padded_vocab_size`` counts up in steps of ``multiple``;
* ``gpt_parameter_count`` adds up a list of every weight's shape, layer by layer.

Nothing may be charged.
"""

import numbers

import numpy as np


def _count(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def _checked_ids(ids, vocab_size):
    ids = np.asarray(ids)
    flat = ids.reshape(-1)
    if flat.size and ids.dtype.kind not in "iu":
        raise ValueError(f"token IDs must be integers: the first bad ID is {flat[0].item()!r}")
    for token in flat:
        if token < 0 or token >= vocab_size:
            raise ValueError(f"token ID {token} is not in [0, {vocab_size})")
    return ids.astype(np.intp)


def embedding_lookup(ids, table):
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"the table must be 2-D, got shape {table.shape}")
    ids = _checked_ids(ids, table.shape[0])
    rows = np.empty((ids.size, table.shape[1]), dtype=table.dtype)
    for n, token in enumerate(ids.reshape(-1)):
        rows[n] = table[token]
    return rows.reshape(ids.shape + (table.shape[1],))


def one_hot(ids, vocab_size):
    vocab_size = _count(vocab_size, "vocab_size")
    ids = _checked_ids(ids, vocab_size)
    out = np.zeros((ids.size, vocab_size))
    for n, token in enumerate(ids.reshape(-1)):
        out[n, token] = 1.0
    return out.reshape(ids.shape + (vocab_size,))


def padded_vocab_size(vocab_size, multiple=64):
    vocab_size = _count(vocab_size, "vocab_size")
    multiple = _count(multiple, "multiple")
    size = multiple
    while size < vocab_size:
        size += multiple
    return size


def gpt_parameter_count(vocab_size, n_positions, d_model, n_layers, tied=True):
    v, t = _count(vocab_size, "vocab_size"), _count(n_positions, "n_positions")
    d, layers = _count(d_model, "d_model"), _count(n_layers, "n_layers")
    if not isinstance(tied, bool):
        raise ValueError(f"tied must be a bool, got {tied!r}")
    shapes = [(v, d), (t, d)]  # wte, wpe
    for _ in range(layers):
        shapes += [(d,), (d,)]                    # ln_1 weight and bias
        shapes += [(d, 3 * d), (3 * d,)]          # c_attn
        shapes += [(d, d), (d,)]                  # attention c_proj
        shapes += [(d,), (d,)]                    # ln_2
        shapes += [(d, 4 * d), (4 * d,)]          # c_fc
        shapes += [(4 * d, d), (d,)]              # mlp c_proj
    shapes += [(d,), (d,)]                        # ln_f
    if not tied:
        shapes.append((v, d))                     # lm_head, no bias
    total = 0
    for shape in shapes:
        count = 1
        for size in shape:
            count *= size
        total += count
    return total
