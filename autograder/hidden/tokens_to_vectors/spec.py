"""The tokens-to-vectors assignment for the engine: parts, points, spec names, settings.

The format is in ``autograder/assignment.py``. Parts 1-3 of the contract are graded here:
the embedding table, absolute positions, and relative positions (RoPE and ALiBi).
"""

TITLE = "Tokens to vectors"

PARTS: dict[int, str] = {
    1: "The embedding table",
    2: "Absolute positions",
    3: "Relative positions: RoPE and ALiBi",
    4: "Subword regularization: BPE-dropout",
    5: "Tokens beyond subwords, and tokens a model never sees",
    6: "The memory and compute of a context",
}

POINTS: dict[int, int] = {1: 15, 2: 15, 3: 20, 4: 15, 5: 15, 6: 20}

PART_OF: dict[str, int] = {
    "embedding_lookup": 1,
    "one_hot": 1,
    "padded_vocab_size": 1,
    "gpt_parameter_count": 1,
    "Q_EMBEDDING_MIB": 1,
    "Q_EMBEDDING_SHARE": 1,
    "Q_PADDED_EXTRA_ROWS": 1,
    "sinusoidal_positions": 2,
    "sinusoidal_shift": 2,
    "add_learned_positions": 2,
    "rope_frequencies": 3,
    "apply_rope": 3,
    "alibi_slopes": 3,
    "alibi_bias": 3,
    "bpe_dropout": 4,
    "dropout_segmentations": 4,
    "byte_tokens": 5,
    "byte_detokenize": 5,
    "patchify": 5,
    "vq_tokenize": 5,
    "incomplete_utf8_tokens": 5,
    "unused_tokens": 5,
    "Q_BYTES_PER_GPT2_TOKEN": 5,
    "Q_BYTE_LEVEL_ATTENTION_FACTOR": 5,
    "kv_cache_bytes": 6,
    "attention_score_bytes": 6,
    "attention_flops": 6,
    "max_context": 6,
    "context_cost": 6,
    "Q_GPT2_KV_BYTES_PER_TOKEN": 6,
    "Q_LLAMA2_7B_KV_BYTES_PER_TOKEN": 6,
    "Q_LLAMA3_8B_KV_BYTES_PER_TOKEN": 6,
    "Q_LLAMA2_7B_KV_GIB_AT_4096": 6,
    "Q_LLAMA3_8B_MAX_CONTEXT_80GB": 6,
}

# The reference package's modules (solutions/tokens_to_vectors/) in dependency order.
REFERENCE_MODULES = ("embedding", "positions", "relative", "dropout", "beyond", "context")

# make bench: wall seconds per sample submission on a quiet machine.
BENCH_SECONDS = 1.0
