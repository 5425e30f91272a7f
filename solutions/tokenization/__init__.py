"""Reference solution of the tokenization assignment (Parts 1-6 of the spec).

Each module holds one part; this package re-exports the names the notebook
and the autograder use, so ``import solutions`` reads like the student's
notebook namespace.
"""

from .base import EOW, UNK, Tokenizer
from .bpe import BPETokenizer
from .bpe_steps import count_pairs, merge_pair, word_frequencies
from .char import CharTokenizer
from .costs import (
    Q1_EMBEDDING_MIB,
    Q2_BPE_ATTENTION_SCORES,
    Q2_CHAR_ATTENTION_SCORES,
    Q4_COMPRESSION_RATIO,
    attention_scores,
    attention_speedup,
    embedding_memory_bytes,
    vocab_tradeoff,
)
from .utils import analyze_tokenization, create_tokenizer, tokenize_dataset

__all__ = [
    "EOW",
    "UNK",
    "Tokenizer",
    "CharTokenizer",
    "BPETokenizer",
    "word_frequencies",
    "count_pairs",
    "merge_pair",
    "create_tokenizer",
    "tokenize_dataset",
    "analyze_tokenization",
    "embedding_memory_bytes",
    "attention_scores",
    "attention_speedup",
    "vocab_tradeoff",
    "Q1_EMBEDDING_MIB",
    "Q2_CHAR_ATTENTION_SCORES",
    "Q2_BPE_ATTENTION_SCORES",
    "Q4_COMPRESSION_RATIO",
]
