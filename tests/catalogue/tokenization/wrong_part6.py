"""Part 6 (systems costs): wrong implementations and wrong numeric answers."""

from ..catalogue import differs
from . import wrong

CORPUS = ["low lower newest widest", "low low newest", "widest newest newest"]


def tradeoff(ns, sizes=(20, 1000), dim=8):
    return ns["vocab_tradeoff"](list(CORPUS), list(sizes), dim)


@wrong(
    6,
    "a megabyte is a million bytes",
    "Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / 1e6, 2)",
)
def p6_q1_decimal_megabytes(bug, ref):
    assert abs(bug["Q1_EMBEDDING_MIB"] - ref["Q1_EMBEDDING_MIB"]) > 0.01


@wrong(
    6,
    "attention cost is per sequence; the batch does not multiply it",
    "Q2_CHAR_ATTENTION_SCORES = 200**2\nQ2_BPE_ATTENTION_SCORES = 50**2",
)
def p6_q2_ignores_batch(bug, ref):
    assert bug["Q2_CHAR_ATTENTION_SCORES"] != ref["Q2_CHAR_ATTENTION_SCORES"]


@wrong(
    6,
    "compression ratio is tokens per character",
    "Q4_COMPRESSION_RATIO = 2_500 / 10_000",
)
def p6_q4_ratio_inverted(bug, ref):
    assert bug["Q4_COMPRESSION_RATIO"] != ref["Q4_COMPRESSION_RATIO"]


@wrong(
    6,
    "attention looks at every token once: batch x length",
    """
    def attention_scores(seq_len, batch_size=1):
        return batch_size * seq_len
    """,
)
def p6_attention_not_squared(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_scores"](200, 32))


@wrong(
    6,
    "`batch_size * seq_len ** 2` and `(batch_size * seq_len) ** 2` are the same",
    """
    def attention_scores(seq_len, batch_size=1):
        return (batch_size * seq_len) ** 2
    """,
)
def p6_attention_squares_the_batch(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_scores"](200, 32))


@wrong(
    6,
    "half the tokens means half the attention work",
    """
    def attention_speedup(long_len, short_len):
        return long_len / short_len
    """,
)
def p6_speedup_not_squared(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_speedup"](200, 50))


@wrong(
    6,
    "the speedup is the short cost over the long cost",
    """
    def attention_speedup(long_len, short_len):
        return (short_len / long_len) ** 2
    """,
)
def p6_speedup_inverted(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_speedup"](200, 50))


@wrong(
    6,
    "parameters are float32, so 4 bytes can be written into the formula",
    """
    def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
        return vocab_size * embed_dim * 4
    """,
)
def p6_embedding_ignores_bytes_per_param(bug, ref):
    differs(bug, ref, lambda ns: ns["embedding_memory_bytes"](100, 512, 2))


@wrong(
    6,
    "the table has as many rows as the vocabulary size that was asked for",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        rows = []
        for size in vocab_sizes:
            tokenizer = BPETokenizer(size)
            tokenizer.train(corpus)
            lengths = [len(tokenizer.encode(text)) for text in corpus]
            avg = sum(lengths) / len(lengths) if lengths else 0.0
            rows.append({
                "vocab_size": size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(size, embed_dim),
                "attention_scores": float(avg**2),
            })
        return rows
    """,
)
def p6_tradeoff_memory_of_requested_size(bug, ref):
    differs(bug, ref, lambda ns: [row["embedding_bytes"] for row in tradeoff(ns)])


@wrong(
    6,
    "sequence lengths are whole numbers, so attention_scores gets int(avg)",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        rows = []
        for size in vocab_sizes:
            tokenizer = BPETokenizer(size)
            tokenizer.train(corpus)
            lengths = [len(tokenizer.encode(text)) for text in corpus]
            avg = sum(lengths) / len(lengths) if lengths else 0.0
            rows.append({
                "vocab_size": size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
                "attention_scores": float(attention_scores(int(avg))),
            })
        return rows
    """,
)
def p6_tradeoff_attention_of_truncated_length(bug, ref):
    differs(bug, ref, lambda ns: [row["attention_scores"] for row in tradeoff(ns)])


@wrong(
    6,
    "the sequence length of a corpus is the length of the whole corpus encoded at once",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        rows = []
        for size in vocab_sizes:
            tokenizer = BPETokenizer(size)
            tokenizer.train(corpus)
            length = len(tokenizer.encode(" ".join(corpus)))
            rows.append({
                "vocab_size": size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": float(length),
                "embedding_bytes": embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
                "attention_scores": float(length**2),
            })
        return rows
    """,
)
def p6_tradeoff_length_of_whole_corpus(bug, ref):
    differs(bug, ref, lambda ns: [row["avg_sequence_length"] for row in tradeoff(ns)])


@wrong(
    6,
    "dividing by 1024 turns bytes into megabytes",
    "Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / 1024, 2)",
)
def p6_q1_divides_by_1024_once(bug, ref):
    assert abs(bug["Q1_EMBEDDING_MIB"] - ref["Q1_EMBEDDING_MIB"]) > 0.01


@wrong(
    6,
    "lengths are integers, so their ratio is integer division",
    """
    def attention_speedup(long_len, short_len):
        return (long_len // short_len) ** 2
    """,
)
def p6_speedup_integer_division(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_speedup"](300, 200))


@wrong(
    6,
    "math.pow is how Python squares a number",
    """
    import math

    def attention_scores(seq_len, batch_size=1):
        return batch_size * math.pow(seq_len, 2)
    """,
)
def p6_attention_scores_math_pow(bug, ref):
    assert type(bug["attention_scores"](200, 32)) is float


@wrong(
    6,
    "train once with the largest size; the smaller vocabularies are inside it",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        tokenizer = BPETokenizer(max(vocab_sizes, default=1))
        tokenizer.train(corpus)
        lengths = [len(tokenizer.encode(text)) for text in corpus]
        avg = sum(lengths) / len(lengths) if lengths else 0.0
        rows = []
        for size in vocab_sizes:
            actual = min(size, tokenizer.vocab_size)
            rows.append({
                "vocab_size": size,
                "actual_vocab_size": actual,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(actual, embed_dim),
                "attention_scores": float(avg**2),
            })
        return rows
    """,
)
def p6_tradeoff_trains_once(bug, ref):
    differs(bug, ref, lambda ns: [row["avg_sequence_length"] for row in tradeoff(ns)])


@wrong(
    6,
    "a row's vocab_size is the size the tokenizer ended up with",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        rows = []
        for size in vocab_sizes:
            tokenizer = BPETokenizer(size)
            tokenizer.train(corpus)
            lengths = [len(tokenizer.encode(text)) for text in corpus]
            avg = sum(lengths) / len(lengths) if lengths else 0.0
            rows.append({
                "vocab_size": tokenizer.vocab_size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
                "attention_scores": float(avg**2),
            })
        return rows
    """,
)
def p6_tradeoff_reports_actual_as_requested(bug, ref):
    differs(bug, ref, lambda ns: [row["vocab_size"] for row in tradeoff(ns)])


@wrong(
    6,
    "the rows should come out sorted by size, ready to plot",
    """
    def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
        rows = []
        for size in sorted(vocab_sizes):
            tokenizer = BPETokenizer(size)
            tokenizer.train(corpus)
            lengths = [len(tokenizer.encode(text)) for text in corpus]
            avg = sum(lengths) / len(lengths) if lengths else 0.0
            rows.append({
                "vocab_size": size,
                "actual_vocab_size": tokenizer.vocab_size,
                "avg_sequence_length": avg,
                "embedding_bytes": embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
                "attention_scores": float(avg**2),
            })
        return rows
    """,
)
def p6_tradeoff_sorts_sizes(bug, ref):
    differs(bug, ref, lambda ns: [row["vocab_size"] for row in tradeoff(ns, sizes=(1000, 20))])
