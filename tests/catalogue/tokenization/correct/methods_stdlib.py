"""A correct submission, structured differently from the reference (catalogue: correct #4).

* The BPE trainer keeps its steps as private methods and static methods of the class
  (it does not call the module-level Part 4 functions), and trains on a
  ``collections.defaultdict`` of word counts.
* ``CharTokenizer`` keeps its mapping in ``char_to_id`` only and derives the rest.
* Utilities lean on the standard library: ``statistics.fmean``, ``operator``,
  ``itertools.islice``; the constants are computed from the functions.
"""

import itertools
import operator
import statistics
from collections import Counter, defaultdict
from functools import reduce

UNK, EOW = "<UNK>", " "


class Tokenizer:
    """Interface: subclasses must implement ``encode`` and ``decode``."""

    def encode(self, text):
        raise NotImplementedError(
            "encode() is abstract here; every Tokenizer subclass has to implement it"
        )

    def decode(self, tokens):
        raise NotImplementedError(
            "decode() is abstract here; every Tokenizer subclass has to implement it"
        )


class CharTokenizer(Tokenizer):
    unk_id = 0

    def __init__(self, vocab=None):
        entries = list(vocab or ())
        for entry in entries:
            if entry != UNK and not (isinstance(entry, str) and len(entry) == 1):
                raise ValueError(f"{entry!r} is not a single character")
        self._reset(entry for entry in entries if entry != UNK)

    def _reset(self, chars):
        self.char_to_id = {UNK: 0}
        for ch in chars:
            self.char_to_id.setdefault(ch, len(self.char_to_id))
        self.vocab = list(self.char_to_id)
        self.id_to_char = {i: ch for ch, i in self.char_to_id.items()}

    @property
    def vocab_size(self):
        return len(self.char_to_id)

    def build_vocab(self, corpus):
        self._reset(sorted(set(itertools.chain(*corpus))))

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode() takes a str")
        get = self.char_to_id.get
        return [get(ch, 0) for ch in text]

    def decode(self, tokens):
        chars = []
        for token in tokens:
            if token.__class__ is not int or token not in self.id_to_char:
                raise ValueError(f"cannot decode token ID {token!r}")
            chars.append(self.id_to_char[token])
        return "".join(chars)


def word_frequencies(corpus):
    counts = defaultdict(int)
    for word in itertools.chain.from_iterable(text.split() for text in corpus):
        counts[word] += 1
    return Counter(counts)


def count_pairs(word_tokens, word_freq):
    counts = Counter()
    for word, tokens in word_tokens.items():
        for left, right in zip(tokens, itertools.islice(tokens, 1, None)):
            counts[left, right] += word_freq[word]
    return counts


def merge_pair(tokens, pair):
    out, i = [], 0
    while i < len(tokens):
        if tuple(tokens[i : i + 2]) == tuple(pair):
            out.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


class BPETokenizer(Tokenizer):
    def __init__(self, vocab_size=1000):
        self.target_vocab_size = self._valid(vocab_size)
        self.vocab, self.merges = [UNK, EOW], []
        self._build_mappings()

    @staticmethod
    def _valid(size):
        if type(size) is not int or size < 1:
            raise ValueError(f"vocab_size must be a positive int, got {size!r}")
        return size

    @property
    def vocab_size(self):
        return len(self.vocab)

    def _get_word_tokens(self, word):
        tokens = list(word)
        tokens.append(EOW)
        return tokens

    def _get_pairs(self, word_tokens):
        return set(zip(word_tokens, word_tokens[1:]))

    @staticmethod
    def _merge(tokens, pair):
        merged, skip = [], False
        for left, right in itertools.zip_longest(tokens, tokens[1:]):
            if skip:
                skip = False
            elif (left, right) == pair:
                merged.append(left + right)
                skip = True
            else:
                merged.append(left)
        return merged

    def _apply_merges(self, tokens):
        for pair in self.merges:
            tokens = self._merge(tokens, pair)
        return tokens

    def _build_mappings(self):
        self.token_to_id = {}
        for index, token in enumerate(self.vocab):
            self.token_to_id.setdefault(token, index)
        self.id_to_token = dict(enumerate(self.vocab))

    def _count(self, words):
        counts = defaultdict(int)
        for tokens, freq in words.values():
            for pair in zip(tokens, tokens[1:]):
                counts[pair] += freq
        return counts

    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = self._valid(vocab_size)
        freq = defaultdict(int)
        for text in corpus:
            for word in text.split():
                freq[word] += 1
        words = {w: (self._get_word_tokens(w), f) for w, f in freq.items()}
        self.vocab = [UNK, EOW, *sorted(set(itertools.chain(*freq)))]
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = self._count(words)
            if not counts:
                break
            top = max(counts.values())
            best = min(pair for pair, n in counts.items() if n == top)
            words = {w: (self._merge(toks, best), f) for w, (toks, f) in words.items()}
            self.merges.append(best)
            if operator.add(*best) not in self.vocab:
                self.vocab.append(operator.add(*best))
        self._build_mappings()

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode() takes a str")
        out = []
        for word in text.split():
            tokens = self._apply_merges(self._get_word_tokens(word))
            out.extend(self.token_to_id.get(t, 0) for t in tokens)
        return out

    def decode(self, tokens):
        for token in tokens:
            if token.__class__ is not int or not 0 <= token < len(self.vocab):
                raise ValueError(f"cannot decode token ID {token!r}")
        return "".join(map(self.id_to_token.__getitem__, tokens)).rstrip(EOW)


def create_tokenizer(strategy, vocab_size=1000, corpus=None):
    corpus = [] if corpus is None else corpus
    if strategy == "char":
        tokenizer = CharTokenizer()
        tokenizer.build_vocab(corpus)
    elif strategy == "bpe":
        tokenizer = BPETokenizer(vocab_size=vocab_size)
        tokenizer.train(corpus)
    else:
        raise ValueError(f"strategy {strategy!r} is not one of: char, bpe")
    return tokenizer


def tokenize_dataset(texts, tokenizer, max_length=None):
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be at least 0, got {max_length}")
    return [list(itertools.islice(tokenizer.encode(t), max_length)) for t in texts]


def analyze_tokenization(texts, tokenizer):
    encoded = [tokenizer.encode(text) for text in texts]
    lengths = [len(ids) for ids in encoded]
    total = sum(lengths)
    counts = Counter(itertools.chain.from_iterable(encoded))
    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": statistics.fmean(lengths) if lengths else 0.0,
        "max_sequence_length": max(lengths, default=0),
        "unique_tokens": len(counts),
        "compression_ratio": sum(map(len, texts)) / total if total else 0.0,
        "unknown_rate": counts[0] / total if total else 0.0,
    }


def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    return reduce(operator.mul, (vocab_size, embed_dim, bytes_per_param))


def attention_scores(seq_len, batch_size=1):
    return batch_size * seq_len * seq_len


def attention_speedup(long_len, short_len):
    return attention_scores(long_len) / attention_scores(short_len)


def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
    rows = []
    for size in vocab_sizes:
        tokenizer = BPETokenizer(size)
        tokenizer.train(corpus)
        avg = statistics.fmean(len(tokenizer.encode(t)) for t in corpus) if corpus else 0.0
        rows.append(dict(
            vocab_size=size,
            actual_vocab_size=tokenizer.vocab_size,
            avg_sequence_length=avg,
            embedding_bytes=embedding_memory_bytes(tokenizer.vocab_size, embed_dim),
            attention_scores=avg**2,
        ))
    return rows


Q1_EMBEDDING_MIB = round(embedding_memory_bytes(30_000, 768) / 1024 / 1024, 2)
Q2_CHAR_ATTENTION_SCORES = attention_scores(200, 32)
Q2_BPE_ATTENTION_SCORES = attention_scores(50, 32)
Q4_COMPRESSION_RATIO = 10_000 / 2_500
