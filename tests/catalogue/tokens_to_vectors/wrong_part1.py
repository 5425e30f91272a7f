"""Part 1 (the embedding table): wrong implementations students hand in.

A lookup that lets a bad ID through or rounds its rows to float32, a one-hot matrix of the
wrong kind or shape, a padding that is off on exact multiples or takes floats, a parameter
count that leaves something out of GPT-2 or adds a bias it does not have, the constants in
the wrong unit, and a lookup whose answers are right but whose cost grows with the
vocabulary (it copies the table on every call: ``timed``).

The cost test judges the rows its timed lookups return; rows that are wrong everywhere are
the value test's to charge, so the cost test must not charge them again (``spares``).
"""

import numpy as np

from ..catalogue import differs
from . import wrong
from .helpers import allocates_more, mutated

TABLE = np.arange(12.0).reshape(4, 3)


def lookup(ids):
    """A probe: the lookup of ``ids`` in a 4-row table, as lists, or the exception's name."""
    return lambda ns: ns["embedding_lookup"](ids, TABLE).tolist()


@wrong(1, "only IDs past the end of the table are out of range",
       """
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = np.asarray(ids)
    if ids.size == 0:
        return table[ids.astype(int)]
    if ids.dtype.kind not in "iu":
        raise ValueError(f"token IDs must be integers, the first is {ids.flat[0]!r}")
    too_big = ids >= table.shape[0]
    if too_big.any():
        raise ValueError(f"token ID {ids[too_big][0]} is outside [0, {table.shape[0]})")
    return table[ids]
""")
def p1_lookup_negative_ids_wrap(bug, ref):
    differs(bug, ref, lookup([-1]))


@wrong(1, "IDs that come out of numpy arithmetic as floats are cast back to integers",
       """
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = np.asarray(ids).astype(np.int64)
    bad = (ids < 0) | (ids >= table.shape[0])
    if bad.any():
        raise ValueError(f"token ID {ids[bad][0]} is outside [0, {table.shape[0]})")
    return table[ids]
""")
def p1_lookup_casts_float_ids(bug, ref):
    differs(bug, ref, lookup([1.5]))


@wrong(1, "the last valid ID is V, the size of the table",
       """
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = np.asarray(ids)
    if ids.size and ids.dtype.kind not in "iu":
        raise ValueError(f"token IDs must be integers, the first is {ids.flat[0]!r}")
    vocab_size = table.shape[0]
    for token in ids.flat:
        if token < 0 or token > vocab_size:
            raise ValueError(f"token ID {token} is outside [0, {vocab_size})")
    return table[ids]
""")
def p1_lookup_range_off_by_one(bug, ref):
    differs(bug, ref, lookup([4]))


@wrong(1, "a model computes in float32, so the rows it looks up come out in float32",
       """
def embedding_lookup(ids, table):
    table = np.asarray(table)
    return table[check_ids(ids, table.shape[0])].astype(np.float32)
""", spares=("part1::test_lookup_time_does_not_grow_with_the_vocabulary",))
def p1_lookup_rows_in_float32(bug, ref):
    differs(bug, ref, lambda ns: ns["embedding_lookup"]([1], np.full((2, 3), 0.1)).tolist())


@wrong(1, "np.array and np.asarray are the same (np.array copies the whole table every call)",
       """
def embedding_lookup(ids, table):
    table = np.array(table, dtype=float)
    return table[check_ids(ids, table.shape[0])]
""", timed=True)
def p1_lookup_copies_the_table(bug, ref):
    table = np.zeros((64_000, 16))
    allocates_more(bug, ref, lambda ns: ns["embedding_lookup"]([1, 2, 3], table),
                   at_least=table.nbytes)


@wrong(1, "a one-hot row holds 0s and 1s, so it is an integer array",
       """
def one_hot(ids, vocab_size):
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = check_ids(ids, vocab_size)
    return np.eye(vocab_size, dtype=int)[ids]
""")
def p1_one_hot_integer_dtype(bug, ref):
    differs(bug, ref, lambda ns: ns["one_hot"]([1, 0], 3).dtype.kind)


@wrong(1, "one-hot vectors are columns, as in the maths (the lookup is W e_i)",
       """
def one_hot(ids, vocab_size):
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = check_ids(ids, vocab_size)
    return np.eye(vocab_size)[:, ids]
""")
def p1_one_hot_columns(bug, ref):
    differs(bug, ref, lambda ns: ns["one_hot"]([2, 0, 2], 4).shape)


@wrong(1, "rounding up is dividing and adding one more multiple",
       """
def padded_vocab_size(vocab_size, multiple=64):
    vocab_size = check_size(vocab_size, "vocab_size")
    multiple = check_size(multiple, "multiple")
    return (vocab_size // multiple + 1) * multiple
""")
def p1_padded_grows_exact_multiples(bug, ref):
    differs(bug, ref, lambda ns: ns["padded_vocab_size"](128, 64))


@wrong(1, "math.ceil does the rounding, and sizes need no checking",
       """
import math

def padded_vocab_size(vocab_size, multiple=64):
    return math.ceil(vocab_size / multiple) * multiple
""")
def p1_padded_accepts_floats(bug, ref):
    differs(bug, ref, lambda ns: ns["padded_vocab_size"](100, 8.0))


PARAMETERS = """
def gpt_parameter_count(vocab_size, n_positions, d_model, n_layers, tied=True):
    for size in (vocab_size, n_positions, d_model, n_layers):
        check_size(size, "size")
    if not isinstance(tied, bool):
        raise ValueError(f"tied must be a bool, got {tied!r}")
    d = d_model
    layer_norms = 2 * (2 * d)
    attention = (d * 3 * d + 3 * d) + (d * d + d)
    mlp = (d * 4 * d + 4 * d) + (4 * d * d + d)
    embeddings = vocab_size * d + n_positions * d
    final_norm = 2 * d
    head = 0 if tied else vocab_size * d
    return embeddings + n_layers * (layer_norms + attention + mlp) + final_norm + head
"""


def gpt2_small(ns):
    return ns["gpt_parameter_count"](50_257, 1024, 768, 12)


@wrong(1, "the model's parameters are nanoGPT's printed count (the position table left out)",
       mutated(PARAMETERS, "embeddings = vocab_size * d + n_positions * d",
               "embeddings = vocab_size * d"))
def p1_params_without_position_table(bug, ref):
    differs(bug, ref, gpt2_small)


@wrong(1, "each block has its LayerNorms, so the model needs no other",
       mutated(PARAMETERS, "final_norm = 2 * d", "final_norm = 0"))
def p1_params_without_final_layernorm(bug, ref):
    differs(bug, ref, gpt2_small)


@wrong(1, "an untied output head is a Linear layer with a bias, like the others",
       mutated(PARAMETERS, "head = 0 if tied else vocab_size * d",
               "head = 0 if tied else vocab_size * d + vocab_size"))
def p1_params_untied_head_with_bias(bug, ref):
    differs(bug, ref, lambda ns: ns["gpt_parameter_count"](50_257, 1024, 768, 12, False))


@wrong(1, "a LayerNorm has one weight per dimension and nothing else",
       mutated(mutated(PARAMETERS, "layer_norms = 2 * (2 * d)", "layer_norms = 2 * d"),
               "final_norm = 2 * d", "final_norm = d"))
def p1_params_layernorm_without_bias(bug, ref):
    differs(bug, ref, gpt2_small)


@wrong(1, "a share is a percentage", """
Q_EMBEDDING_SHARE = 100 * 50_257 * 768 / 124_439_808
""")
def p1_share_as_a_percentage(bug, ref):
    differs(bug, ref, lambda ns: round(ns["Q_EMBEDDING_SHARE"], 6))


@wrong(1, "a MiB is a million bytes", """
Q_EMBEDDING_MIB = 50_257 * 768 * 4 / 1e6
""")
def p1_mib_in_megabytes(bug, ref):
    differs(bug, ref, lambda ns: round(ns["Q_EMBEDDING_MIB"], 6))
