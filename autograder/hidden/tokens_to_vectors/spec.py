"""The tokens-to-vectors assignment for the engine: parts, points, spec names, settings.

The format is in ``autograder/assignment.py``. Parts 1-3 of the contract are graded here:
the embedding table, absolute positions, and relative positions (RoPE and ALiBi).
"""

TITLE = "Tokens to vectors"

PARTS: dict[int, str] = {
    1: "The embedding table",
    2: "Absolute positions",
    3: "Relative positions: RoPE and ALiBi",
}

POINTS: dict[int, int] = {1: 15, 2: 15, 3: 20}

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
}

# The reference package's modules (solutions/tokens_to_vectors/) in dependency order.
REFERENCE_MODULES = ("embedding", "positions", "relative")

# make bench: wall seconds per sample submission on a quiet machine.
BENCH_SECONDS = 1.0
