"""The tokenization assignment for the engine: parts, points, spec names, settings.

This table is the one place that maps the assignment's code to parts (the format is
in ``autograder/assignment.py``). Extraction uses it to cut a submission into parts,
the sandbox to serve the reference for the parts not being graded, and the suite and
the notebook's points must agree with ``POINTS`` (a repository test checks both).
"""

TITLE = "Tokenization"

PARTS: dict[int, str] = {
    1: "Tokenizer base class",
    2: "CharTokenizer",
    3: "BPETokenizer",
    4: "Vocabulary building",
    5: "Utilities",
    6: "Systems costs",
}

# Points per part for the autograded work; the written reflection is graded by hand.
POINTS: dict[int, int] = {1: 5, 2: 15, 3: 25, 4: 20, 5: 15, 6: 20}

# Top-level names of the spec and the part each belongs to.
PART_OF: dict[str, int] = {
    "Tokenizer": 1,
    "CharTokenizer": 2,
    "BPETokenizer": 3,
    "word_frequencies": 4,
    "count_pairs": 4,
    "merge_pair": 4,
    "create_tokenizer": 5,
    "tokenize_dataset": 5,
    "analyze_tokenization": 5,
    "embedding_memory_bytes": 6,
    "attention_scores": 6,
    "attention_speedup": 6,
    "vocab_tradeoff": 6,
    "Q1_EMBEDDING_MIB": 6,
    "Q2_CHAR_ATTENTION_SCORES": 6,
    "Q2_BPE_ATTENTION_SCORES": 6,
    "Q4_COMPRESSION_RATIO": 6,
}

# Methods graded in a different part from their class: Part 4 grades build_vocab.
METHOD_PART: dict[tuple[str, str], int] = {("CharTokenizer", "build_vocab"): 4}

# The order the hidden suite grades the parts in (the notebook's): Part 4's functions
# are graded before Part 3, whose trainer uses them.
GRADING_ORDER = (1, 2, 4, 3, 5, 6)

# Shared constants every part may use; never graded.
SHARED_NAMES = ("UNK", "EOW")

# The reference package's modules (solutions/tokenization/) in dependency order.
REFERENCE_MODULES = ("base", "char", "bpe_steps", "bpe", "utils", "costs")

# Part 3's tests compare the student's BPE under other hash seeds (test_part3).
EXTRA_WORKERS = {3: (2, 3)}

# Students write a reflection (Q3), graded by hand.
REFLECTION = True
