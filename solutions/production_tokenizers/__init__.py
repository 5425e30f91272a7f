"""Reference solution of the production-tokenizers assignment (spec: production.md).

One idea per module, as in the first assignment's reference. This package re-exports every
name of the spec, so ``import solutions.production_tokenizers as ref`` reads like a
student's notebook namespace.

Parts 1-3: ``byte_table`` (GPT-2's byte alphabet), ``pretokenize`` (GPT-2's split
pattern, standard library only), ``byte_bpe`` (``ByteLevelBPE``), ``normalization``
(NFC/NFD/NFKC/NFKD and ``clean_text``), ``gotchas`` (Part 2's numeric answers),
``train_fast`` (the incremental BPE trainer).

Parts 4-6: ``wordpiece`` (BERT's pre-tokenizer and greedy longest match),
``wordpiece_train`` (the likelihood-score trainer), ``unigram`` (Viterbi segmentation
and one pruning round), ``costs`` (fertility, token premium, request cost, train.bin).
"""

from .byte_bpe import ENDOFTEXT, ByteLevelBPE, merge_by_rank
from .byte_table import bytes_to_unicode
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
from .gotchas import (
    GOTCHA_LOWER_TOKENS,
    GOTCHA_NUMBER_TOKENS,
    GOTCHA_SPACE_WORD_TOKENS,
    GOTCHA_TEXTS,
    GOTCHA_UPPER_TOKENS,
    GOTCHA_WORD_TOKENS,
    GOTCHA_ZWSP_CLEAN_TOKENS,
    GOTCHA_ZWSP_TOKENS,
    gotcha_token_counts,
)
from .normalization import FORMS, clean_text, normalize
from .pretokenize import GPT2_PATTERN, WHITE_SPACE, gpt2_pretokenize
from .train_fast import train_bpe_fast
from .unigram import unigram_encode, unigram_prune, unigram_score, unigram_segment
from .wordpiece import WordPieceTokenizer, bert_pretokenize, wordpiece_tokenize
from .wordpiece_train import train_wordpiece

__all__ = [
    # Parts 1-3
    "bytes_to_unicode",
    "gpt2_pretokenize",
    "GPT2_PATTERN",
    "WHITE_SPACE",
    "ENDOFTEXT",
    "ByteLevelBPE",
    "merge_by_rank",
    "FORMS",
    "normalize",
    "clean_text",
    "GOTCHA_NUMBER_TOKENS",
    "GOTCHA_WORD_TOKENS",
    "GOTCHA_SPACE_WORD_TOKENS",
    "GOTCHA_LOWER_TOKENS",
    "GOTCHA_UPPER_TOKENS",
    "GOTCHA_ZWSP_TOKENS",
    "GOTCHA_ZWSP_CLEAN_TOKENS",
    "GOTCHA_TEXTS",
    "gotcha_token_counts",
    "train_bpe_fast",
    # Parts 4-6
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
