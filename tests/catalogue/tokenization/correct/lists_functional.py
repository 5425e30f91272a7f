"""A correct submission, structured differently from the reference (catalogue: correct #2).

* ``CharTokenizer`` keeps lists: ``id_to_char`` is a list indexed by ID, and the
  vocabulary is built with list operations instead of ``dict.fromkeys``.
* BPE training re-counts pairs each round but keeps words as a list of
  ``[tokens, frequency]`` rows and picks the best pair by sorting.
* Utilities and costs are written in a functional style: ``map``, ``sum`` over
  generators, ``itertools.chain``, ``functools.reduce``, ``math.prod``.
"""

import itertools
import math
from collections import Counter
from functools import reduce

UNK = "<UNK>"
EOW = " "


class Tokenizer:
    """Every tokenizer turns text into IDs and back."""

    def encode(self, text):
        raise NotImplementedError(
            f"{type(self).__name__} must override encode(text) -> list[int]: "
            "subclasses define how text becomes token IDs"
        )

    def decode(self, tokens):
        raise NotImplementedError(
            f"{type(self).__name__} must override decode(tokens) -> str: "
            "subclasses define how token IDs become text"
        )


class CharTokenizer(Tokenizer):
    def __init__(self, vocab=None):
        vocab = [] if vocab is None else list(vocab)
        bad = [v for v in vocab if not isinstance(v, str) or (len(v) != 1 and v != UNK)]
        if bad:
            raise ValueError(f"not single characters: {bad!r}")
        chars = []
        for v in vocab:
            if v != UNK and v not in chars:
                chars.append(v)
        self._install(chars)

    def _install(self, chars):
        self.vocab = [UNK] + chars
        self.id_to_char = list(self.vocab)
        self.char_to_id = dict(zip(self.vocab, range(len(self.vocab))))
        self.unk_id = 0

    @property
    def vocab_size(self):
        return len(self.id_to_char)

    def build_vocab(self, corpus):
        self._install(sorted(set(itertools.chain.from_iterable(corpus))))

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError(f"expected str, got {type(text).__name__}")
        return list(map(lambda ch: self.char_to_id.get(ch, self.unk_id), text))

    def _check(self, t):
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < len(self.id_to_char):
            raise ValueError(f"bad token ID: {t!r}")
        return t

    def decode(self, tokens):
        return "".join(self.id_to_char[self._check(t)] for t in tokens)


def word_frequencies(corpus):
    return Counter(itertools.chain.from_iterable(map(str.split, corpus)))


def count_pairs(word_tokens, word_freq):
    weighted = (
        (pair, word_freq[word])
        for word, tokens in word_tokens.items()
        for pair in zip(tokens, tokens[1:])
    )
    return reduce(lambda acc, item: acc.update({item[0]: item[1]}) or acc, weighted, Counter())


def merge_pair(tokens, pair):
    result = []
    i = 0
    n = len(tokens)
    while i < n:
        if tokens[i : i + 2] == list(pair):
            result.append("".join(pair))
            i += 2
        else:
            result.append(tokens[i])
            i += 1
    return result


def _check_size(size):
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {size!r}")
    return size


class BPETokenizer(Tokenizer):
    def __init__(self, vocab_size=1000):
        self.target_vocab_size = _check_size(vocab_size)
        self.vocab = [UNK, EOW]
        self.merges = []
        self._build_mappings()

    @property
    def vocab_size(self):
        return len(self.vocab)

    def _get_word_tokens(self, word):
        return list(word) + [EOW]

    def _get_pairs(self, word_tokens):
        return set(zip(word_tokens[:-1], word_tokens[1:]))

    def _apply_merges(self, tokens):
        return reduce(merge_pair, self.merges, tokens)

    def _build_mappings(self):
        self.id_to_token = dict(enumerate(self.vocab))
        self.token_to_id = {t: i for i, t in reversed(list(enumerate(self.vocab)))}

    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = _check_size(vocab_size)
        rows = [[self._get_word_tokens(w), f] for w, f in sorted(word_frequencies(corpus).items())]
        self.vocab = [UNK, EOW] + sorted(set("".join(w for w in word_frequencies(corpus))))
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = Counter()
            for tokens, f in rows:
                for pair in zip(tokens, tokens[1:]):
                    counts[pair] += f
            if not counts:
                break
            ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            best = ranked[0][0]
            for row in rows:
                row[0] = merge_pair(row[0], best)
            self.merges.append(best)
            if "".join(best) not in self.vocab:
                self.vocab.append("".join(best))
        self._build_mappings()

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError(f"expected str, got {type(text).__name__}")
        tokens = itertools.chain.from_iterable(
            self._apply_merges(self._get_word_tokens(w)) for w in text.split()
        )
        return [self.token_to_id.get(t, 0) for t in tokens]

    def decode(self, tokens):
        def lookup(t):
            if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < len(self.vocab):
                raise ValueError(f"bad token ID: {t!r}")
            return self.id_to_token[t]

        return "".join(map(lookup, tokens)).rstrip(EOW)


def create_tokenizer(strategy, vocab_size=1000, corpus=None):
    corpus = list(corpus) if corpus else []
    if strategy == "bpe":
        tok = BPETokenizer(vocab_size)
        tok.train(corpus)
    elif strategy == "char":
        tok = CharTokenizer()
        tok.build_vocab(corpus)
    else:
        raise ValueError(f"unknown strategy {strategy!r}: expected 'char' or 'bpe'")
    return tok


def tokenize_dataset(texts, tokenizer, max_length=None):
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length={max_length} is negative")
    cut = (lambda ids: ids) if max_length is None else (lambda ids: ids[:max_length])
    return list(map(cut, map(tokenizer.encode, texts)))


def analyze_tokenization(texts, tokenizer):
    seqs = list(map(tokenizer.encode, texts))
    lengths = list(map(len, seqs))
    total = sum(lengths)
    flat = list(itertools.chain.from_iterable(seqs))

    def ratio(a, b):
        return a / b if b else 0.0

    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": ratio(total, len(seqs)),
        "max_sequence_length": max(lengths, default=0),
        "unique_tokens": len(set(flat)),
        "compression_ratio": ratio(sum(map(len, texts)), total),
        "unknown_rate": ratio(flat.count(0), total),
    }


def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    return math.prod((vocab_size, embed_dim, bytes_per_param))


def attention_scores(seq_len, batch_size=1):
    return batch_size * pow(seq_len, 2)


def attention_speedup(long_len, short_len):
    return pow(long_len / short_len, 2)


def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
    def row(size):
        tok = create_tokenizer("bpe", size, corpus)
        lengths = [len(tok.encode(t)) for t in corpus]
        avg = sum(lengths) / len(lengths) if lengths else 0.0
        return {
            "vocab_size": size,
            "actual_vocab_size": len(tok.vocab),
            "avg_sequence_length": avg,
            "embedding_bytes": embedding_memory_bytes(len(tok.vocab), embed_dim),
            "attention_scores": float(avg) ** 2,
        }

    return list(map(row, vocab_sizes))


MIB = 2**20
Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / MIB, 2)
Q2_CHAR_ATTENTION_SCORES = 32 * 200 * 200
Q2_BPE_ATTENTION_SCORES = 32 * 50 * 50
Q4_COMPRESSION_RATIO = 4.0
