"""Part 5: the small utilities a data pipeline wraps around a tokenizer."""

from .base import Tokenizer
from .bpe import BPETokenizer
from .char import CharTokenizer

STRATEGIES = ("bpe", "char")


def create_tokenizer(
    strategy: str, vocab_size: int = 1000, corpus: list[str] | None = None
) -> Tokenizer:
    """Build a ready-to-use tokenizer: ``"char"`` or a trained ``"bpe"``."""
    corpus = list(corpus or [])
    if strategy == "char":
        tokenizer = CharTokenizer()
        tokenizer.build_vocab(corpus)
        return tokenizer
    if strategy == "bpe":
        tokenizer = BPETokenizer(vocab_size)
        tokenizer.train(corpus)
        return tokenizer
    valid = ", ".join(repr(s) for s in STRATEGIES)
    raise ValueError(f"unknown strategy {strategy!r}; valid strategies are {valid}")


def tokenize_dataset(
    texts: list[str], tokenizer: Tokenizer, max_length: int | None = None
) -> list[list[int]]:
    """Encode every text, cutting each to ``max_length`` tokens when given (no padding)."""
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be >= 0, got {max_length}")
    encoded = [tokenizer.encode(text) for text in texts]
    if max_length is None:
        return encoded
    return [ids[:max_length] for ids in encoded]


def analyze_tokenization(texts: list[str], tokenizer: Tokenizer) -> dict:
    """Summary statistics of how ``tokenizer`` splits ``texts``.

    ``compression_ratio`` is characters per token (whitespace counted), so a
    higher number means shorter sequences. Empty input gives zeros.
    """
    sequences = [tokenizer.encode(text) for text in texts]
    total = sum(len(ids) for ids in sequences)
    characters = sum(len(text) for text in texts)
    unknown = sum(ids.count(0) for ids in sequences)
    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": total / len(texts) if texts else 0.0,
        "max_sequence_length": max((len(ids) for ids in sequences), default=0),
        "unique_tokens": len({t for ids in sequences for t in ids}),
        "compression_ratio": characters / total if total else 0.0,
        "unknown_rate": unknown / total if total else 0.0,
    }
