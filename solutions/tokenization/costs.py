"""Part 6: what the vocabulary costs downstream.

The embedding table holds ``vocab_size * embed_dim`` parameters, and self-attention
computes one score per pair of positions, so its cost grows with the square of
the sequence length. A bigger vocabulary makes the table larger and sequences
shorter; these functions put numbers on both sides.
"""

from .bpe import BPETokenizer

MIB = 1024**2

# Autograded numeric answers (binary units: 1 MiB = 1024**2 bytes).
Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / MIB, 2)  # 87.89
Q2_CHAR_ATTENTION_SCORES = 32 * 200**2  # 1,280,000
Q2_BPE_ATTENTION_SCORES = 32 * 50**2  # 80,000
Q4_COMPRESSION_RATIO = 10_000 / 2_500  # 4.0


def embedding_memory_bytes(vocab_size: int, embed_dim: int, bytes_per_param: int = 4) -> int:
    """Bytes taken by a ``vocab_size x embed_dim`` embedding table."""
    return vocab_size * embed_dim * bytes_per_param


def attention_scores(seq_len: int, batch_size: int = 1) -> int:
    """Attention scores one head of one layer computes: every position against every position."""
    return batch_size * seq_len**2


def attention_speedup(long_len: int, short_len: int) -> float:
    """How many times fewer attention scores the shorter sequence needs."""
    return (long_len / short_len) ** 2


def vocab_tradeoff(corpus: list[str], vocab_sizes: list[int], embed_dim: int) -> list[dict]:
    """Train one BPE per requested size and report sequence length against memory."""
    rows = []
    for size in vocab_sizes:
        tokenizer = BPETokenizer(size)
        tokenizer.train(corpus)
        lengths = [len(tokenizer.encode(text)) for text in corpus]
        avg = sum(lengths) / len(lengths) if lengths else 0.0
        rows.append(
            {
                "vocab_size": size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
                "attention_scores": float(avg**2),
            }
        )
    return rows
