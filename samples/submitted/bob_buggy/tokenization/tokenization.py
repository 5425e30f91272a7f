from __future__ import annotations
"""Part 1: the contract every tokenizer in this module follows.

A tokenizer is two inverse functions: ``encode`` turns text into a list of integer
IDs (what a model actually sees) and ``decode`` turns IDs back into text. The base
class only fixes that contract; subclasses decide what a token is.

The two shared symbols live here too: ``UNK`` (always ID 0) and ``EOW``, the
end-of-word symbol BPE appends to every word.
"""
UNK = '<UNK>'
EOW = ' '

class Tokenizer:
    """Abstract tokenizer: subclasses implement ``encode`` and ``decode``."""

    def encode(self, text: str) -> list[int]:
        """Turn ``text`` into token IDs. Subclasses must override this."""
        raise NotImplementedError(f'{type(self).__name__}.encode: a subclass must implement encode(text) and return the list of token IDs for the text')

    def decode(self, tokens: list[int]) -> str:
        """Turn token IDs back into text. Subclasses must override this."""
        raise NotImplementedError(f'{type(self).__name__}.decode: a subclass must implement decode(tokens) and return the text those token IDs stand for')

def check_token_id(token_id: object, vocab_size: int) -> int:
    """Return ``token_id`` if it is a valid ID for a vocabulary of ``vocab_size``.

    ``bool`` is rejected although it is a subclass of ``int``: ``True`` is
    almost always a bug, not token 1.
    """
    if isinstance(token_id, bool) or not isinstance(token_id, int):
        raise ValueError(f'token ID {token_id!r} is not an int')
    if not 0 <= token_id < vocab_size:
        raise ValueError(f'token ID {token_id} is outside [0, {vocab_size})')
    return token_id
'Part 2 (and the Part 4 ``build_vocab``): a character-level tokenizer.\n\nEvery character is one token. The vocabulary is ``[UNK]`` followed by the\ncharacters, so ID 0 is always the unknown token and any character outside the\nvocabulary encodes to 0.\n'

class CharTokenizer(Tokenizer):
    """One token per character; unknown characters map to ``UNK`` (ID 0)."""
    unk_id = 0

    def __init__(self, vocab: list[str] | None=None) -> None:
        chars = []
        for entry in vocab or []:
            if not isinstance(entry, str) or (len(entry) != 1 and entry != UNK):
                raise ValueError(f'vocabulary entry {entry!r} is not a single character')
            chars.append(entry)
        self._set_vocab(chars)

    @property
    def vocab_size(self) -> int:
        """Number of tokens, ``UNK`` included."""
        return len(self.vocab)

    def _set_vocab(self, chars: list[str]) -> None:
        """Install ``[UNK] + chars`` (first occurrence kept) and rebuild both mappings."""
        unique = [c for c in dict.fromkeys(chars) if c != UNK]
        self.vocab = [UNK] + unique
        self.char_to_id = {token: i for i, token in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))

    def build_vocab(self, corpus: list[str]) -> None:
        """Part 4: replace the vocabulary with every character seen in ``corpus``, sorted."""
        self._set_vocab(sorted({ch for text in corpus for ch in text}))

    def encode(self, text: str) -> list[int]:
        """One ID per character of ``text``; unknown characters give 0."""
        if not isinstance(text, str):
            raise TypeError(f'encode expects a str, got {type(text).__name__}')
        return [self.char_to_id.get(ch, self.unk_id) for ch in text]

    def decode(self, tokens: list[int]) -> str:
        """Concatenate the characters; ID 0 becomes the text ``<UNK>``."""
        return ''.join((self.id_to_char[check_token_id(t, self.vocab_size)] for t in tokens))
'Part 4: the three building blocks of the BPE trainer.\n\nThey follow Sennrich et al. (2016), "Neural Machine Translation of Rare Words with\nSubword Units": count words once, count adjacent symbol pairs weighted by word\nfrequency, merge the winning pair everywhere. Kept separate from the class so each\nstep can be tested, and reused by a faster trainer, on its own.\n'
from collections import Counter

def word_frequencies(corpus: list[str]) -> Counter:
    """How often each whitespace-separated word occurs across all texts."""
    return Counter((word for text in corpus for word in text.split()))

def count_pairs(word_tokens: dict[str, list[str]], word_freq: dict[str, int]) -> Counter:
    """Count adjacent token pairs at every position, weighted by word frequency.

    A word ``aaa`` split as ``['a', 'a', 'a', ' ']`` holds the pair ``('a', 'a')``
    twice, so it adds ``2 * freq`` to that pair.
    """
    counts: Counter = Counter()
    for word, tokens in word_tokens.items():
        freq = word_freq[word]
        for pair in set(zip(tokens, tokens[1:])):
            counts[pair] += freq
    return counts

def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    """Return a new list with every occurrence of ``pair`` merged, left to right.

    Occurrences do not overlap: ``['a', 'a', 'a']`` merged on ``('a', 'a')``
    gives ``['aa', 'a']``.
    """
    first, second = pair
    merged: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == first and (tokens[i + 1] == second):
            merged.append(first + second)
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged
'Part 3: byte-pair encoding over characters, with an end-of-word symbol.\n\nFollows Sennrich et al. (2016): start from characters, repeatedly merge the most\nfrequent adjacent pair. Each word ends in ``EOW`` (one space) so that a token can\ntell "end of a word" apart from "inside a word". Ties between equally frequent\npairs go to the lexicographically smallest pair, which makes training\nindependent of hash seeds and dictionary order.\n\nLeft out on purpose: byte-level fallback, pre-tokenization regexes, special\ntokens and the incremental pair-count update that fast trainers use.\n'

def check_vocab_size(vocab_size: object) -> int:
    """A vocabulary size must be a positive ``int`` (``bool`` is not accepted)."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f'vocab_size must be a positive int, got {vocab_size!r}')
    return vocab_size

class BPETokenizer(Tokenizer):
    """Subword tokenizer learned by greedy pair merging."""

    def __init__(self, vocab_size: int=1000) -> None:
        self.target_vocab_size = check_vocab_size(vocab_size)
        self.vocab: list[str] = [UNK, EOW]
        self.merges: list[tuple[str, str]] = []
        self._build_mappings()

    @property
    def vocab_size(self) -> int:
        """Number of tokens actually in the vocabulary."""
        return len(self.vocab)

    def _get_word_tokens(self, word: str) -> list[str]:
        """A word starts as its characters followed by the end-of-word symbol."""
        return list(word) + [EOW]

    def _get_pairs(self, word_tokens: list[str]) -> set[tuple[str, str]]:
        """The distinct adjacent pairs in one tokenized word."""
        return set(zip(word_tokens, word_tokens[1:]))

    def _apply_merges(self, tokens: list[str]) -> list[str]:
        """Replay every learned merge, in the order it was learned."""
        for pair in self.merges:
            tokens = merge_pair(tokens, pair)
        return tokens

    def _build_mappings(self) -> None:
        """token -> ID (the first ID wins for a repeated string) and ID -> token."""
        self.token_to_id: dict[str, int] = {}
        for i, token in enumerate(self.vocab):
            self.token_to_id.setdefault(token, i)
        self.id_to_token = dict(enumerate(self.vocab))
        self._word_cache: dict[str, list[int]] = {}

    def train(self, corpus: list[str], vocab_size: int | None=None) -> None:
        """Learn merges from ``corpus`` until the vocabulary reaches the target size."""
        if vocab_size is not None:
            self.target_vocab_size = check_vocab_size(vocab_size)
        if isinstance(corpus, str):
            raise TypeError('corpus must be a list of texts, not a single str')
        word_freq = word_frequencies(corpus)
        word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
        self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = count_pairs(word_tokens, word_freq)
            if not counts:
                break
            best = max(counts, key=counts.get)
            for word, tokens in word_tokens.items():
                word_tokens[word] = merge_pair(tokens, best)
            self.merges.append(best)
            merged = best[0] + best[1]
            if merged not in self.vocab:
                self.vocab.append(merged)
        self._build_mappings()

    def encode(self, text: str) -> list[int]:
        """Split on whitespace, apply the merges to each word, look up IDs (unknown -> 0)."""
        if not isinstance(text, str):
            raise TypeError(f'encode expects a str, got {type(text).__name__}')
        ids: list[int] = []
        for word in text.split():
            if word not in self._word_cache:
                tokens = self._apply_merges(self._get_word_tokens(word))
                self._word_cache[word] = [self.token_to_id.get(t, 0) for t in tokens]
            ids.extend(self._word_cache[word])
        return ids

    def decode(self, tokens: list[int]) -> str:
        """Join the token strings; drop the trailing end-of-word space."""
        text = ''.join((self.id_to_token[check_token_id(t, self.vocab_size)] for t in tokens))
        return text.rstrip(' ')
'Part 5: the small utilities a data pipeline wraps around a tokenizer.'
STRATEGIES = ('bpe', 'char')

def create_tokenizer(strategy: str, vocab_size: int=1000, corpus: list[str] | None=None) -> Tokenizer:
    """Build a ready-to-use tokenizer: ``"char"`` or a trained ``"bpe"``."""
    corpus = list(corpus or [])
    if strategy == 'char':
        tokenizer = CharTokenizer()
        tokenizer.build_vocab(corpus)
        return tokenizer
    if strategy == 'bpe':
        tokenizer = BPETokenizer(vocab_size)
        tokenizer.train(corpus)
        return tokenizer
    valid = ', '.join((repr(s) for s in STRATEGIES))
    raise ValueError(f'unknown strategy {strategy!r}; valid strategies are {valid}')

def tokenize_dataset(texts: list[str], tokenizer: Tokenizer, max_length: int | None=None) -> list[list[int]]:
    """Encode every text, cutting each to ``max_length`` tokens when given (no padding)."""
    if max_length is not None and max_length < 0:
        raise ValueError(f'max_length must be >= 0, got {max_length}')
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
    total = sum((len(ids) for ids in sequences))
    characters = sum((len(text) for text in texts))
    unknown = sum((ids.count(0) for ids in sequences))
    return {'vocab_size': len(tokenizer.vocab), 'total_tokens': total, 'avg_sequence_length': total / len(texts) if texts else 0.0, 'max_sequence_length': max((len(ids) for ids in sequences), default=0), 'unique_tokens': len({t for ids in sequences for t in ids}), 'compression_ratio': characters / total if total else 0.0, 'unknown_rate': unknown / total if total else 0.0}
'Part 6: what the vocabulary costs downstream.\n\nThe embedding table holds ``vocab_size * embed_dim`` parameters, and self-attention\ncomputes one score per pair of positions, so its cost grows with the square of\nthe sequence length. A bigger vocabulary makes the table larger and sequences\nshorter; these functions put numbers on both sides.\n'
MIB = 1024 ** 2
Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / 1000000.0, 2)
Q2_CHAR_ATTENTION_SCORES = 32 * 200 ** 2
Q2_BPE_ATTENTION_SCORES = 32 * 50 ** 2
Q4_COMPRESSION_RATIO = 10000 / 2500

def embedding_memory_bytes(vocab_size: int, embed_dim: int, bytes_per_param: int=4) -> int:
    """Bytes taken by a ``vocab_size x embed_dim`` embedding table."""
    return vocab_size * embed_dim * bytes_per_param

def attention_scores(seq_len: int, batch_size: int=1) -> int:
    """Attention scores one head of one layer computes: every position against every position."""
    return batch_size * seq_len ** 2

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
        rows.append({'vocab_size': size, 'actual_vocab_size': tokenizer.vocab_size, 'avg_sequence_length': avg, 'embedding_bytes': embedding_memory_bytes(tokenizer.vocab_size, embed_dim), 'attention_scores': float(avg ** 2)})
    return rows
