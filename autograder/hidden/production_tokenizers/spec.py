"""The production-tokenizers assignment for the engine: parts, points, spec names, settings.

The format is in ``autograder/assignment.py``. Helpers a student writes beside the spec's
names (``merge_by_rank``, ``is_bert_punctuation``) are not listed: they are shared code,
kept in every part's worker.
"""

TITLE = "Production tokenizers"

PARTS: dict[int, str] = {
    1: "GPT-2 byte-level BPE",
    2: "Normalization and gotchas",
    3: "A fast BPE trainer",
    4: "WordPiece",
    5: "Unigram",
    6: "Who pays for tokens",
}

# Points per part for the autograded work (spec: production.md).
POINTS: dict[int, int] = {1: 25, 2: 10, 3: 20, 4: 15, 5: 15, 6: 15}

PART_OF: dict[str, int] = {
    "bytes_to_unicode": 1,
    "gpt2_pretokenize": 1,
    "ByteLevelBPE": 1,
    "normalize": 2,
    "clean_text": 2,
    "GOTCHA_NUMBER_TOKENS": 2,
    "GOTCHA_WORD_TOKENS": 2,
    "GOTCHA_SPACE_WORD_TOKENS": 2,
    "GOTCHA_LOWER_TOKENS": 2,
    "GOTCHA_UPPER_TOKENS": 2,
    "GOTCHA_ZWSP_TOKENS": 2,
    "GOTCHA_ZWSP_CLEAN_TOKENS": 2,
    "train_bpe_fast": 3,
    "bert_pretokenize": 4,
    "wordpiece_tokenize": 4,
    "WordPieceTokenizer": 4,
    "train_wordpiece": 4,
    "unigram_segment": 5,
    "unigram_score": 5,
    "unigram_encode": 5,
    "unigram_prune": 5,
    "fertility": 6,
    "bytes_per_token": 6,
    "token_premium": 6,
    "estimate_cost": 6,
    "pack_tokens": 6,
    "SHAKESPEARE_GPT2_TOKENS": 6,
    "SHAKESPEARE_TRAIN_BIN_BYTES": 6,
    "HIGHEST_PREMIUM_LOCALE": 6,
    "GPT2_PREMIUM_MY": 6,
}

# Constants of the notebook's setup and Part 1 cells that every part may use; never graded.
SHARED_NAMES = ("ENDOFTEXT", "WHITE_SPACE", "GPT2_PATTERN")

# make bench: the most wall seconds per sample submission on a quiet machine it accepts
# (the reference trains BPE and loads GPT-2's 50,000 merges: more than tokenization's 3).
BENCH_SECONDS = 5.0

# The reference package's modules (solutions/production_tokenizers/) in dependency order.
REFERENCE_MODULES = ("byte_table", "pretokenize", "byte_bpe", "normalization", "gotchas",
                     "train_fast", "wordpiece", "wordpiece_train", "unigram", "costs")

# Part 3's tests compare the student's trainer under other hash seeds (test_part3).
EXTRA_WORKERS = {3: (2, 3)}
