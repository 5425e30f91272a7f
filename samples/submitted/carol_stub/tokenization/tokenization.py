from __future__ import annotations
'Part 1: the contract every tokenizer in this module follows.\n\nA tokenizer is two inverse functions: ``encode`` turns text into a list of integer\nIDs (what a model actually sees) and ``decode`` turns IDs back into text. The base\nclass only fixes that contract; subclasses decide what a token is.\n\nThe two shared symbols live here too: ``UNK`` (always ID 0) and ``EOW``, the\nend-of-word symbol BPE appends to every word.\n'
UNK = '<UNK>'
EOW = ' '

class Tokenizer:
    """Abstract tokenizer: subclasses implement ``encode`` and ``decode``."""

    def encode(self, text: str) -> list[int]:
        """Turn ``text`` into token IDs. Subclasses must override this."""
        raise NotImplementedError()

    def decode(self, tokens: list[int]) -> str:
        """Turn token IDs back into text. Subclasses must override this."""
        raise NotImplementedError()

def check_token_id(token_id: object, vocab_size: int) -> int:
    """Return ``token_id`` if it is a valid ID for a vocabulary of ``vocab_size``.

``bool`` is rejected although it is a subclass of ``int``: ``True`` is
almost always a bug, not token 1."""
    raise NotImplementedError()
'Part 2 (and the Part 4 ``build_vocab``): a character-level tokenizer.\n\nEvery character is one token. The vocabulary is ``[UNK]`` followed by the\ncharacters, so ID 0 is always the unknown token and any character outside the\nvocabulary encodes to 0.\n'

class CharTokenizer(Tokenizer):
    """One token per character; unknown characters map to ``UNK`` (ID 0)."""
    unk_id = 0

    def __init__(self, vocab: list[str] | None=None) -> None:
        raise NotImplementedError()

    @property
    def vocab_size(self) -> int:
        """Number of tokens, ``UNK`` included."""
        raise NotImplementedError()

    def _set_vocab(self, chars: list[str]) -> None:
        """Install ``[UNK] + chars`` (first occurrence kept) and rebuild both mappings."""
        raise NotImplementedError()

    def build_vocab(self, corpus: list[str]) -> None:
        """Part 4: replace the vocabulary with every character seen in ``corpus``, sorted."""
        raise NotImplementedError()

    def encode(self, text: str) -> list[int]:
        """One ID per character of ``text``; unknown characters give 0."""
        raise NotImplementedError()

    def decode(self, tokens: list[int]) -> str:
        """Concatenate the characters; ID 0 becomes the text ``<UNK>``."""
        raise NotImplementedError()
'Part 4: the three building blocks of the BPE trainer.\n\nThey follow Sennrich et al. (2016), "Neural Machine Translation of Rare Words with\nSubword Units": count words once, count adjacent symbol pairs weighted by word\nfrequency, merge the winning pair everywhere. Kept separate from the class so each\nstep can be tested, and reused by a faster trainer, on its own.\n'
from collections import Counter

def word_frequencies(corpus: list[str]) -> Counter:
    """How often each whitespace-separated word occurs across all texts."""
    raise NotImplementedError()

def count_pairs(word_tokens: dict[str, list[str]], word_freq: dict[str, int]) -> Counter:
    """Count adjacent token pairs at every position, weighted by word frequency.

A word ``aaa`` split as ``['a', 'a', 'a', ' ']`` holds the pair ``('a', 'a')``
twice, so it adds ``2 * freq`` to that pair."""
    raise NotImplementedError()

def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    """Return a new list with every occurrence of ``pair`` merged, left to right.

Occurrences do not overlap: ``['a', 'a', 'a']`` merged on ``('a', 'a')``
gives ``['aa', 'a']``."""
    raise NotImplementedError()
'Part 3: byte-pair encoding over characters, with an end-of-word symbol.\n\nFollows Sennrich et al. (2016): start from characters, repeatedly merge the most\nfrequent adjacent pair. Each word ends in ``EOW`` (one space) so that a token can\ntell "end of a word" apart from "inside a word". Ties between equally frequent\npairs go to the lexicographically smallest pair, which makes training\nindependent of hash seeds and dictionary order.\n\nLeft out on purpose: byte-level fallback, pre-tokenization regexes, special\ntokens and the incremental pair-count update that fast trainers use.\n'

def check_vocab_size(vocab_size: object) -> int:
    """A vocabulary size must be a positive ``int`` (``bool`` is not accepted)."""
    raise NotImplementedError()

class BPETokenizer(Tokenizer):
    """Subword tokenizer learned by greedy pair merging."""

    def __init__(self, vocab_size: int=1000) -> None:
        raise NotImplementedError()

    @property
    def vocab_size(self) -> int:
        """Number of tokens actually in the vocabulary."""
        raise NotImplementedError()

    def _get_word_tokens(self, word: str) -> list[str]:
        """A word starts as its characters followed by the end-of-word symbol."""
        raise NotImplementedError()

    def _get_pairs(self, word_tokens: list[str]) -> set[tuple[str, str]]:
        """The distinct adjacent pairs in one tokenized word."""
        raise NotImplementedError()

    def _apply_merges(self, tokens: list[str]) -> list[str]:
        """Replay every learned merge, in the order it was learned."""
        raise NotImplementedError()

    def _build_mappings(self) -> None:
        """token -> ID (the first ID wins for a repeated string) and ID -> token."""
        raise NotImplementedError()

    def train(self, corpus: list[str], vocab_size: int | None=None) -> None:
        """Learn merges from ``corpus`` until the vocabulary reaches the target size."""
        raise NotImplementedError()

    def encode(self, text: str) -> list[int]:
        """Split on whitespace, apply the merges to each word, look up IDs (unknown -> 0)."""
        raise NotImplementedError()

    def decode(self, tokens: list[int]) -> str:
        """Join the token strings; drop the trailing end-of-word space."""
        raise NotImplementedError()
'Part 5: the small utilities a data pipeline wraps around a tokenizer.'
STRATEGIES = ('bpe', 'char')

def create_tokenizer(strategy: str, vocab_size: int=1000, corpus: list[str] | None=None) -> Tokenizer:
    """Build a ready-to-use tokenizer: ``"char"`` or a trained ``"bpe"``."""
    raise NotImplementedError()

def tokenize_dataset(texts: list[str], tokenizer: Tokenizer, max_length: int | None=None) -> list[list[int]]:
    """Encode every text, cutting each to ``max_length`` tokens when given (no padding)."""
    raise NotImplementedError()

def analyze_tokenization(texts: list[str], tokenizer: Tokenizer) -> dict:
    """Summary statistics of how ``tokenizer`` splits ``texts``.

``compression_ratio`` is characters per token (whitespace counted), so a
higher number means shorter sequences. Empty input gives zeros."""
    raise NotImplementedError()
'Part 6: what the vocabulary costs downstream.\n\nThe embedding table holds ``vocab_size * embed_dim`` parameters, and self-attention\ncomputes one score per pair of positions, so its cost grows with the square of\nthe sequence length. A bigger vocabulary makes the table larger and sequences\nshorter; these functions put numbers on both sides.\n'
MIB = 1024 ** 2
Q1_EMBEDDING_MIB = None
Q2_CHAR_ATTENTION_SCORES = None
Q2_BPE_ATTENTION_SCORES = None
Q4_COMPRESSION_RATIO = None

def embedding_memory_bytes(vocab_size: int, embed_dim: int, bytes_per_param: int=4) -> int:
    """Bytes taken by a ``vocab_size x embed_dim`` embedding table."""
    raise NotImplementedError()

def attention_scores(seq_len: int, batch_size: int=1) -> int:
    """Attention scores one head of one layer computes: every position against every position."""
    raise NotImplementedError()

def attention_speedup(long_len: int, short_len: int) -> float:
    """How many times fewer attention scores the shorter sequence needs."""
    raise NotImplementedError()

def vocab_tradeoff(corpus: list[str], vocab_sizes: list[int], embed_dim: int) -> list[dict]:
    """Train one BPE per requested size and report sequence length against memory."""
    raise NotImplementedError()
