"""Reference solution of the tokens-to-vectors assignment (spec: tokens_to_vectors.md).

One idea per module, as in the other assignments' references: ``embedding`` (the table, the
one-hot product, padding and GPT-2's parameter count), ``positions`` (the sinusoidal table,
its shift matrix, learned positions), ``relative`` (RoPE and ALiBi), ``dropout``
(BPE-dropout), ``beyond`` (bytes, patches and codebook codes as tokens; GPT-2's tokens that
are not whole characters or never occur) and ``context`` (the KV cache and attention). This package
re-exports every name of the spec, so ``import solutions.tokens_to_vectors as ref`` reads
like a student's notebook namespace.
"""

from .beyond import (
    Q_BYTE_LEVEL_ATTENTION_FACTOR,
    Q_BYTES_PER_GPT2_TOKEN,
    byte_detokenize,
    byte_tokens,
    incomplete_utf8_tokens,
    patchify,
    unused_tokens,
    vq_tokenize,
)
from .context import (
    Q_GPT2_KV_BYTES_PER_TOKEN,
    Q_LLAMA2_7B_KV_BYTES_PER_TOKEN,
    Q_LLAMA2_7B_KV_GIB_AT_4096,
    Q_LLAMA3_8B_KV_BYTES_PER_TOKEN,
    Q_LLAMA3_8B_MAX_CONTEXT_80GB,
    attention_flops,
    attention_score_bytes,
    context_cost,
    kv_cache_bytes,
    max_context,
)
from .dropout import bpe_dropout, dropout_segmentations
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
    # Part 4
    "bpe_dropout",
    "dropout_segmentations",
    # Part 5
    "byte_tokens",
    "byte_detokenize",
    "patchify",
    "vq_tokenize",
    "incomplete_utf8_tokens",
    "unused_tokens",
    "Q_BYTES_PER_GPT2_TOKEN",
    "Q_BYTE_LEVEL_ATTENTION_FACTOR",
    # Part 6
    "kv_cache_bytes",
    "attention_score_bytes",
    "attention_flops",
    "max_context",
    "context_cost",
    "Q_GPT2_KV_BYTES_PER_TOKEN",
    "Q_LLAMA2_7B_KV_BYTES_PER_TOKEN",
    "Q_LLAMA3_8B_KV_BYTES_PER_TOKEN",
    "Q_LLAMA2_7B_KV_GIB_AT_4096",
    "Q_LLAMA3_8B_MAX_CONTEXT_80GB",
]
