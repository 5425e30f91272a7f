"""Reference solution of the production-tokenizers assignment (spec: production.md).

One module per idea; this package re-exports every name the spec lists.
"""

# --- Parts 4-6 (WordPiece, Unigram, costs) ---
from .costs import (
    GPT2_PREMIUM_MY,
    HIGHEST_PREMIUM_LOCALE,
    SHAKESPEARE_GPT2_TOKENS,
    SHAKESPEARE_TRAIN_BIN_BYTES,
    bytes_per_token,
    estimate_cost,
    fertility,
    pack_tokens,
    token_premium,
)
from .unigram import unigram_encode, unigram_prune, unigram_score, unigram_segment
from .wordpiece import WordPieceTokenizer, bert_pretokenize, wordpiece_tokenize
from .wordpiece_train import train_wordpiece

__all__ = [
    # --- Parts 4-6 ---
    "bert_pretokenize",
    "wordpiece_tokenize",
    "WordPieceTokenizer",
    "train_wordpiece",
    "unigram_segment",
    "unigram_score",
    "unigram_encode",
    "unigram_prune",
    "fertility",
    "bytes_per_token",
    "token_premium",
    "estimate_cost",
    "pack_tokens",
    "SHAKESPEARE_GPT2_TOKENS",
    "SHAKESPEARE_TRAIN_BIN_BYTES",
    "HIGHEST_PREMIUM_LOCALE",
    "GPT2_PREMIUM_MY",
]
