"""Variants of the reference for ``make timing-stability`` (tokens_to_vectors).

Each is an override appended to the flattened reference (the grader keeps the last
definition of a name). The slow ones are correct in their answers and wrong in their cost,
so only a timing test may catch them: a lookup through a one-hot product, a lookup that
copies the table first, a RoPE that scales its angles through a ``(T, T)`` diagonal
matrix, and a RoPE that rotates with one ``(head_dim, head_dim)`` matrix per position.
The honest ones are other correct ways to write the same functions (a loop over IDs,
interleaved RoPE, float32 angles), which must fail no timing test.
"""

import re

ONE_HOT_LOOKUP = '''
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = check_ids(ids, table.shape[0])
    return one_hot(ids, table.shape[0]) @ table
'''
COPYING_LOOKUP = '''
def embedding_lookup(ids, table):
    table = np.array(table, dtype=np.asarray(table).dtype, copy=True)
    return table[check_ids(ids, table.shape[0])]
'''
LOOP_LOOKUP = '''
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = check_ids(ids, table.shape[0])
    rows = [table[i] for i in ids.reshape(-1)]
    width = table.shape[1]
    return np.array(rows, dtype=table.dtype).reshape(ids.shape + (width,))
'''
QUADRATIC_ROPE = '''
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions, dtype=np.float64)
    theta = rope_frequencies(x.shape[-1], base)
    # each row of the frequency table scaled by its position, through a (T, T) diagonal
    angles = np.diag(positions) @ np.tile(theta, (len(positions), 1))
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    return x * cos + rotate_half(x) * sin
'''
MATRIX_ROPE = '''
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    d = x.shape[-1]
    h = d // 2
    angles = positions[:, None] * rope_frequencies(d, base)[None, :]
    rotation = np.zeros((len(positions), d, d))
    index = np.arange(h)
    rotation[:, index, index] = np.cos(angles)
    rotation[:, index + h, index + h] = np.cos(angles)
    rotation[:, index + h, index] = np.sin(angles)
    rotation[:, index, index + h] = -np.sin(angles)
    return np.einsum("tij,...tj->...ti", rotation, x)
'''
INTERLEAVED_ROPE = '''
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float64)
    positions = np.asarray(positions)
    angles = positions[:, None] * rope_frequencies(x.shape[-1], base)[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''
FLOAT32_ROPE = '''
def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=np.float32)
    positions = np.asarray(positions).astype(np.float32)
    theta = (np.float32(base) ** (-np.arange(0, x.shape[-1], 2, dtype=np.float32)
                                  / np.float32(x.shape[-1])))
    angles = positions[:, None] * theta[None, :]
    cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
    sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
    return x * cos + rotate_half(x) * sin
'''
# name -> (override appended to the reference, the timing tests meant to catch it)
VARIANTS: dict[str, tuple[str, re.Pattern | None]] = {
    "lookup by a one-hot product": (ONE_HOT_LOOKUP, re.compile(r"part1::.*grow")),
    "lookup that copies the table": (COPYING_LOOKUP, re.compile(r"part1::.*grow")),
    "RoPE through a (T, T) array": (QUADRATIC_ROPE, re.compile(r"part3::.*linear")),
    "RoPE with a matrix per position": (MATRIX_ROPE, re.compile(r"part3::.*linear")),
    "lookup by a loop over IDs": (LOOP_LOOKUP, None),
    "interleaved RoPE": (INTERLEAVED_ROPE, None),
    "RoPE in float32": (FLOAT32_ROPE, None),
}
