"""Reference solution of the tokens-to-vectors assignment, Parts 1-3 (spec: tokens_to_vectors.md).

One idea per module, as in the other assignments' references: ``embedding`` (the table, the
one-hot product, padding and GPT-2's parameter count), ``positions`` (the sinusoidal table,
its shift matrix, learned positions) and ``relative`` (RoPE and ALiBi). This package
re-exports every name of the spec, so ``import solutions.tokens_to_vectors as ref`` reads
like a student's notebook namespace.
"""

from .embedding import (
    Q_EMBEDDING_MIB,
    Q_EMBEDDING_SHARE,
    Q_PADDED_EXTRA_ROWS,
    embedding_lookup,
    gpt_parameter_count,
    one_hot,
    padded_vocab_size,
)
from .positions import add_learned_positions, sinusoidal_positions, sinusoidal_shift
from .relative import alibi_bias, alibi_slopes, apply_rope, rope_frequencies

__all__ = [
    # Part 1
    "embedding_lookup",
    "one_hot",
    "padded_vocab_size",
    "gpt_parameter_count",
    "Q_EMBEDDING_MIB",
    "Q_EMBEDDING_SHARE",
    "Q_PADDED_EXTRA_ROWS",
    # Part 2
    "sinusoidal_positions",
    "sinusoidal_shift",
    "add_learned_positions",
    # Part 3
    "rope_frequencies",
    "apply_rope",
    "alibi_slopes",
    "alibi_bias",
]
