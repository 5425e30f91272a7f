"""Part 5 (``create_tokenizer``, ``tokenize_dataset``, ``analyze_tokenization``)."""

from ..catalogue import differs
from . import wrong


def char(ns, corpus=("hello world",)):
    tokenizer = ns["CharTokenizer"]()
    tokenizer.build_vocab(list(corpus))
    return tokenizer


TEXTS = ["hello world", "low", "", "hex", "low low"]


def analysis(ns, texts=TEXTS):
    tokenizer = ns["BPETokenizer"](1000)
    tokenizer.train(["hello world low"])
    return ns["analyze_tokenization"](list(texts), tokenizer)


@wrong(
    5,
    "a factory returns nothing when it does not know the strategy",
    """
    def create_tokenizer(strategy, vocab_size=1000, corpus=None):
        if strategy == "char":
            tokenizer = CharTokenizer()
            tokenizer.build_vocab(corpus or [])
            return tokenizer
        if strategy == "bpe":
            tokenizer = BPETokenizer(vocab_size)
            tokenizer.train(corpus or [])
            return tokenizer
    """,
)
def p5_create_tokenizer_unknown_returns_none(bug, ref):
    differs(bug, ref, lambda ns: ns["create_tokenizer"]("wordpiece", 10, ["a"]))


@wrong(
    5,
    "the error only has to say the strategy is unknown",
    """
    def create_tokenizer(strategy, vocab_size=1000, corpus=None):
        corpus = corpus or []
        if strategy == "char":
            tokenizer = CharTokenizer()
            tokenizer.build_vocab(corpus)
        elif strategy == "bpe":
            tokenizer = BPETokenizer(vocab_size)
            tokenizer.train(corpus)
        else:
            raise ValueError(f"unknown tokenization strategy: {strategy}")
        return tokenizer
    """,
)
def p5_create_tokenizer_error_lists_no_strategies(bug, ref):
    try:
        bug["create_tokenizer"]("wordpiece")
    except ValueError as exc:
        assert "char" not in str(exc) and "bpe" not in str(exc)
    else:
        raise AssertionError("no ValueError")


@wrong(
    5,
    "the BPE tokenizer picks its own size, so vocab_size need not be passed on",
    """
    def create_tokenizer(strategy, vocab_size=1000, corpus=None):
        corpus = corpus or []
        if strategy == "char":
            tokenizer = CharTokenizer()
            tokenizer.build_vocab(corpus)
            return tokenizer
        if strategy == "bpe":
            tokenizer = BPETokenizer()
            tokenizer.train(corpus)
            return tokenizer
        raise ValueError(f"unknown strategy {strategy!r}; choose 'char' or 'bpe'")
    """,
)
def p5_create_tokenizer_ignores_vocab_size(bug, ref):
    differs(bug, ref, lambda ns: ns["create_tokenizer"]("bpe", 10, ["hello hello help"]).vocab)


@wrong(
    5,
    "the corpus is always given, so None needs no handling",
    """
    def create_tokenizer(strategy, vocab_size=1000, corpus=None):
        if strategy == "char":
            tokenizer = CharTokenizer()
            tokenizer.build_vocab(corpus)
            return tokenizer
        if strategy == "bpe":
            tokenizer = BPETokenizer(vocab_size)
            tokenizer.train(corpus)
            return tokenizer
        raise ValueError(f"unknown strategy {strategy!r}; choose 'char' or 'bpe'")
    """,
)
def p5_create_tokenizer_requires_corpus(bug, ref):
    differs(bug, ref, lambda ns: ns["create_tokenizer"]("char").vocab)


@wrong(
    5,
    "a batch needs equal lengths, so short sequences are padded with 0 up to max_length",
    """
    def tokenize_dataset(texts, tokenizer, max_length=None):
        if max_length is not None and max_length < 0:
            raise ValueError(f"max_length must be >= 0, got {max_length}")
        result = []
        for text in texts:
            ids = tokenizer.encode(text)
            if max_length is not None:
                ids = ids[:max_length] + [0] * (max_length - len(ids))
            result.append(ids)
        return result
    """,
)
def p5_tokenize_dataset_pads(bug, ref):
    differs(bug, ref, lambda ns: ns["tokenize_dataset"](["he", "hello"], char(ns), 4))


@wrong(
    5,
    "slicing handles any max_length (a negative one quietly cuts from the end)",
    """
    def tokenize_dataset(texts, tokenizer, max_length=None):
        encoded = [tokenizer.encode(text) for text in texts]
        if max_length is None:
            return encoded
        return [ids[:max_length] for ids in encoded]
    """,
)
def p5_tokenize_dataset_negative_accepted(bug, ref):
    differs(bug, ref, lambda ns: ns["tokenize_dataset"](["hello"], char(ns), -1))


@wrong(
    5,
    "`if max_length:` tests whether a limit was given (0 is no limit)",
    """
    def tokenize_dataset(texts, tokenizer, max_length=None):
        if max_length is not None and max_length < 0:
            raise ValueError(f"max_length must be >= 0, got {max_length}")
        encoded = [tokenizer.encode(text) for text in texts]
        if max_length:
            encoded = [ids[:max_length] for ids in encoded]
        return encoded
    """,
)
def p5_tokenize_dataset_zero_means_no_limit(bug, ref):
    differs(bug, ref, lambda ns: ns["tokenize_dataset"](["hello"], char(ns), 0))


ANALYZE = '''
def analyze_tokenization(texts, tokenizer):
    sequences = [tokenizer.encode(text) for text in texts]
    total = sum(len(ids) for ids in sequences)
    characters = sum(len(text) for text in texts)
    unknown = sum(ids.count(0) for ids in sequences)
    return {{
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": {avg},
        "max_sequence_length": {longest},
        "unique_tokens": {unique},
        "compression_ratio": {ratio},
        "unknown_rate": {unknown_rate},
    }}
'''


def analyze(
    avg="total / len(texts) if texts else 0.0",
    longest="max((len(ids) for ids in sequences), default=0)",
    unique="len({t for ids in sequences for t in ids})",
    ratio="characters / total if total else 0.0",
    unknown_rate="unknown / total if total else 0.0",
) -> str:
    """The reference's analyze_tokenization as a student writes it, one expression changed."""
    return ANALYZE.format(
        avg=avg, longest=longest, unique=unique, ratio=ratio, unknown_rate=unknown_rate
    )


@wrong(
    5,
    "compression is tokens per character",
    analyze(ratio="total / characters if characters else 0.0"),
)
def p5_compression_ratio_inverted(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["compression_ratio"])


@wrong(
    5,
    "whitespace is not content, so it does not count as characters",
    analyze(ratio='sum(len("".join(t.split())) for t in texts) / total if total else 0.0'),
)
def p5_compression_ratio_ignores_whitespace(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["compression_ratio"])


@wrong(
    5,
    "there is always at least one text and one token",
    """
    def analyze_tokenization(texts, tokenizer):
        sequences = [tokenizer.encode(text) for text in texts]
        lengths = [len(ids) for ids in sequences]
        total = sum(lengths)
        return {
            "vocab_size": len(tokenizer.vocab),
            "total_tokens": total,
            "avg_sequence_length": total / len(texts),
            "max_sequence_length": max(lengths),
            "unique_tokens": len({t for ids in sequences for t in ids}),
            "compression_ratio": sum(len(t) for t in texts) / total,
            "unknown_rate": sum(ids.count(0) for ids in sequences) / total,
        }
    """,
)
def p5_analyze_empty_input_divides_by_zero(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns, []))


@wrong(
    5,
    "sorting the texts first makes the report tidy, and the caller will not mind",
    """
    def analyze_tokenization(texts, tokenizer):
        texts.sort(key=len)
        sequences = [tokenizer.encode(text) for text in texts]
        total = sum(len(ids) for ids in sequences)
        characters = sum(len(text) for text in texts)
        unknown = sum(ids.count(0) for ids in sequences)
        return {
            "vocab_size": len(tokenizer.vocab),
            "total_tokens": total,
            "avg_sequence_length": total / len(texts) if texts else 0.0,
            "max_sequence_length": len(sequences[-1]) if sequences else 0,
            "unique_tokens": len({t for ids in sequences for t in ids}),
            "compression_ratio": characters / total if total else 0.0,
            "unknown_rate": unknown / total if total else 0.0,
        }
    """,
)
def p5_analyze_mutates_input(bug, ref):
    def probe(ns):
        texts = list(TEXTS)
        ns["analyze_tokenization"](texts, char(ns))
        return texts

    differs(bug, ref, probe)


@wrong(
    5,
    "unique tokens add up over the texts",
    analyze(unique="sum(len(set(ids)) for ids in sequences)"),
)
def p5_unique_tokens_summed_per_text(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["unique_tokens"])


@wrong(
    5,
    "an empty text is not a sequence, so it does not count in the average",
    analyze(avg="total / len([t for t in texts if t]) if any(texts) else 0.0"),
)
def p5_average_skips_empty_texts(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["avg_sequence_length"])


@wrong(
    5,
    "the longest sequence is the longest text",
    analyze(longest="max((len(text) for text in texts), default=0)"),
)
def p5_max_length_in_characters(bug, ref):
    def probe(ns):
        tokenizer = ns["BPETokenizer"](1000)
        tokenizer.train(["hello hello help"])
        return ns["analyze_tokenization"](["hello hello", "xyz"], tokenizer)["max_sequence_length"]

    differs(bug, ref, probe)


@wrong(
    5,
    "max_length limits the text, so cut the text before encoding it",
    """
    def tokenize_dataset(texts, tokenizer, max_length=None):
        if max_length is not None and max_length < 0:
            raise ValueError(f"max_length must be >= 0, got {max_length}")
        if max_length is None:
            return [tokenizer.encode(text) for text in texts]
        return [tokenizer.encode(text[:max_length]) for text in texts]
    """,
)
def p5_tokenize_dataset_truncates_characters(bug, ref):
    def probe(ns):
        tokenizer = ns["BPETokenizer"](1000)
        tokenizer.train(["hello hello help"])
        return ns["tokenize_dataset"](["hello help"], tokenizer, 2)

    differs(bug, ref, probe)


@wrong(
    5,
    "strategy names should be forgiving: 'BPE' and ' char ' mean the same",
    """
    def create_tokenizer(strategy, vocab_size=1000, corpus=None):
        corpus = list(corpus or [])
        strategy = strategy.strip().lower()
        if strategy == "char":
            tokenizer = CharTokenizer()
            tokenizer.build_vocab(corpus)
            return tokenizer
        if strategy == "bpe":
            tokenizer = BPETokenizer(vocab_size)
            tokenizer.train(corpus)
            return tokenizer
        raise ValueError(f"unknown strategy {strategy!r}; valid strategies are 'bpe', 'char'")
    """,
)
def p5_create_tokenizer_case_insensitive(bug, ref):
    differs(bug, ref, lambda ns: ns["create_tokenizer"]("BPE", 10, ["ab"]).vocab)


@wrong(
    5,
    "the unknown rate is the average of each text's unknown rate",
    analyze(
        unknown_rate="sum(ids.count(0) / len(ids) for ids in sequences if ids)"
        " / sum(1 for ids in sequences if ids) if total else 0.0"
    ),
)
def p5_unknown_rate_averaged_per_text(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["unknown_rate"])


@wrong(
    5,
    "a sequence length is a whole number, so the average uses //",
    analyze(avg="total // len(texts) if texts else 0"),
)
def p5_average_uses_floor_division(bug, ref):
    differs(bug, ref, lambda ns: analysis(ns)["avg_sequence_length"])


@wrong(
    5,
    "a maximum length has to be positive",
    """
    def tokenize_dataset(texts, tokenizer, max_length=None):
        if max_length is not None and max_length <= 0:
            raise ValueError(f"max_length must be positive, got {max_length}")
        encoded = [tokenizer.encode(text) for text in texts]
        if max_length is None:
            return encoded
        return [ids[:max_length] for ids in encoded]
    """,
)
def p5_tokenize_dataset_rejects_zero(bug, ref):
    differs(bug, ref, lambda ns: ns["tokenize_dataset"](["hello"], char(ns), 0))
