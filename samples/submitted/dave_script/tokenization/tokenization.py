# %%
import math
import statistics
import time
from collections import Counter

import matplotlib.pyplot as plt

UNK = "<UNK>"  # the unknown token, always ID 0
EOW = " "  # BPE's end-of-word symbol, written </w> in textbooks


def check_token_id(token_id: object, vocab_size: int) -> int:
    """Return ``token_id`` if it is a valid ID for a vocabulary of ``vocab_size``.

    Raises ``ValueError`` naming the bad ID otherwise. ``bool`` is rejected although it
    is a subclass of ``int``: ``True`` in a list of IDs is a bug, not token 1.
    """
    if isinstance(token_id, bool) or not isinstance(token_id, int):
        raise ValueError(f"token ID {token_id!r} is not an int")
    if not 0 <= token_id < vocab_size:
        raise ValueError(f"token ID {token_id} is outside [0, {vocab_size})")
    return token_id


def check_vocab_size(vocab_size: object) -> int:
    """Return ``vocab_size`` if it is a positive ``int`` (not a ``bool``); else raise ``ValueError``."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
    return vocab_size

# %%
class Tokenizer:
    """Abstract tokenizer: subclasses implement ``encode`` and ``decode``."""

    def encode(self, text: str) -> list[int]:
        """Turn ``text`` into token IDs. Subclasses must override this.

        On the base class, raise ``NotImplementedError`` with a message saying that a
        subclass must implement ``encode``.
        """
        raise NotImplementedError(
            f"{type(self).__name__}.encode: a subclass must implement encode(text) "
            "and return the list of token IDs for the text"
        )

    def decode(self, tokens: list[int]) -> str:
        """Turn token IDs back into text. Subclasses must override this.

        On the base class, raise ``NotImplementedError`` with a message saying that a
        subclass must implement ``decode``.
        """
        raise NotImplementedError(
            f"{type(self).__name__}.decode: a subclass must implement decode(tokens) "
            "and return the text those token IDs stand for"
        )

# %%
try:
    Tokenizer().decode([1, 2, 3])
except NotImplementedError as err:
    print(f"NotImplementedError: {err}")

# %%
# Test: the base class refuses to encode/decode and says a subclass must do it (5 points)
for method, argument in [("encode", "hello"), ("decode", [1, 2])]:
    try:
        getattr(Tokenizer(), method)(argument)
    except NotImplementedError as err:
        message = str(err)
    else:
        raise AssertionError(f"Tokenizer().{method}(...) should raise NotImplementedError")
    text = message.lower()
    assert method in text, (
        f"the NotImplementedError raised by Tokenizer.{method} should name the method "
        f"({method}); the message was {message!r}"
    )
    assert any(word in text for word in ("subclass", "sub-class", "concrete", "overrid",
                                         "derived", "child class", "inherit")), (
        f"the NotImplementedError raised by Tokenizer.{method} should say that a subclass (or "
        f"a concrete tokenizer) must implement {method}; the message was {message!r}"
    )
print("Part 1 visible tests passed.")

# %%
class CharTokenizer(Tokenizer):
    """One token per character; unknown characters map to ``UNK`` (ID 0)."""

    unk_id = 0

    def __init__(self, vocab: list[str] | None = None) -> None:
        """Set ``vocab`` to ``[UNK]`` + the given characters (given order, first occurrence
        kept, ``UNK`` entries dropped) and build ``char_to_id`` and ``id_to_char``.

        Raises ``ValueError`` for an entry that is not a single character.
        """
        chars = []
        for entry in vocab or []:
            if not isinstance(entry, str) or (len(entry) != 1 and entry != UNK):
                raise ValueError(f"vocabulary entry {entry!r} is not a single character")
            chars.append(entry)
        # dict.fromkeys keeps the first occurrence of each character, in order.
        self.vocab = [UNK] + [c for c in dict.fromkeys(chars) if c != UNK]
        self.char_to_id = {token: i for i, token in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))

    @property
    def vocab_size(self) -> int:
        """Number of tokens, ``UNK`` included: always ``len(self.vocab)``."""
        return len(self.vocab)

    def build_vocab(self, corpus: list[str]) -> None:
        """Part 4: replace the vocabulary with ``[UNK]`` + every character in ``corpus``, sorted,
        and rebuild ``char_to_id`` and ``id_to_char``."""
        self.vocab = [UNK] + sorted({ch for text in corpus for ch in text})
        self.char_to_id = {token: i for i, token in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))

    def encode(self, text: str) -> list[int]:
        """One ID per character of ``text``; unknown characters give 0.

        Raises ``TypeError`` if ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        return [self.char_to_id.get(ch, self.unk_id) for ch in text]

    def decode(self, tokens: list[int]) -> str:
        """Concatenate the characters of ``tokens``; ID 0 becomes the text ``<UNK>``.

        Raises ``ValueError`` naming the ID for an ID that is not an ``int`` or is out of range.
        """
        return "".join(self.id_to_char[check_token_id(t, self.vocab_size)] for t in tokens)

# %%
tok = CharTokenizer(["h", "e", "l", "o"])
print(tok.vocab)
print(tok.encode("hello"), tok.encode("help"))
print(repr(tok.decode(tok.encode("help"))))

# %%
# Test: vocabulary, attributes and encode of CharTokenizer (5 points)
tok = CharTokenizer(["h", "e", "l", "o"])
assert tok.vocab == [UNK, "h", "e", "l", "o"], f"vocab should be [UNK] + the given characters, got {tok.vocab}"
assert tok.vocab_size == 5, f"vocab_size should be len(vocab) == 5, got {tok.vocab_size}"
assert tok.unk_id == 0, "unk_id must be 0"
assert tok.char_to_id == {UNK: 0, "h": 1, "e": 2, "l": 3, "o": 4}, f"char_to_id is wrong: {tok.char_to_id}"
assert tok.id_to_char == {0: UNK, 1: "h", 2: "e", 3: "l", 4: "o"}, f"id_to_char is wrong: {tok.id_to_char}"
assert tok.encode("hello") == [1, 2, 3, 3, 4], f"encode('hello') should be [1, 2, 3, 3, 4], got {tok.encode('hello')}"
assert tok.encode("help!") == [1, 2, 3, 0, 0], "characters outside the vocabulary must encode to 0"
assert tok.encode("") == [], "the empty text has no tokens"
dup = CharTokenizer(["b", "a", "b", UNK, "c", "a"])
assert dup.vocab == [UNK, "b", "a", "c"], (
    f"keep the given order, only the first occurrence of a character, and drop UNK entries; got {dup.vocab}"
)
assert dup.vocab_size == 4 and dup.char_to_id["c"] == 3, "vocab_size and char_to_id must follow the deduplicated vocab"
assert CharTokenizer().vocab == [UNK], "CharTokenizer() without a vocabulary knows only UNK"
print("Part 2 vocabulary and encode tests passed.")

# %%
# Test: decode and the round trip of CharTokenizer (5 points)
tok = CharTokenizer(list("helo \t\n"))
text = "hello\thole \n\nlo"
assert tok.decode(tok.encode(text)) == text, "decode(encode(text)) must give the text back, whitespace included"
assert tok.decode([1, 0, 4]) == "h<UNK>o", f"ID 0 must decode to '<UNK>', got {tok.decode([1, 0, 4])!r}"
assert tok.decode(tok.encode("help")) == "hel<UNK>", "an unknown character comes back as <UNK> in its place"
assert tok.decode([]) == "", "decoding no tokens gives the empty string"
markup = CharTokenizer(list("<UNK>/w "))
literal = "</w> <UNK> <<w>>"
assert markup.decode(markup.encode(literal)) == literal, "the literal text '<UNK>' and '</w>' must round-trip"
print("Part 2 decode tests passed.")

# %%
# Test: CharTokenizer rejects bad vocabularies, bad IDs and non-str input (5 points)
for bad_vocab in (["ab"], ["a", ""], ["a", 5]):
    try:
        CharTokenizer(bad_vocab)
    except ValueError:
        pass
    else:
        raise AssertionError(f"CharTokenizer({bad_vocab!r}) should raise ValueError: every entry must be one character")
tok = CharTokenizer(["a", "b"])
for bad_id in (3, -1, True, 1.0, "1"):
    try:
        tok.decode([1, bad_id])
    except ValueError as err:
        assert str(bad_id) in str(err), f"the ValueError should name the bad ID {bad_id!r}; message was {str(err)!r}"
    else:
        raise AssertionError(f"decode([1, {bad_id!r}]) should raise ValueError (vocab_size is 3)")
for bad_text in (None, ["a"], b"ab"):
    try:
        tok.encode(bad_text)
    except TypeError:
        pass
    else:
        raise AssertionError(f"encode({bad_text!r}) should raise TypeError: only str can be encoded")
print("Part 2 bad-input tests passed.")

# %%
def word_frequencies(corpus: list[str]) -> Counter:
    """How often each whitespace-separated word (``str.split()``) occurs across all texts."""
    return Counter(word for text in corpus for word in text.split())


def count_pairs(word_tokens: dict[str, list[str]], word_freq: dict[str, int]) -> Counter:
    """Count adjacent token pairs at every position, weighted by word frequency.

    ``word_tokens`` maps each word to its current tokens, ``word_freq`` each word to its
    count. A word ``aaa`` split as ``['a', 'a', 'a', ' ']`` holds ``('a', 'a')`` twice.
    """
    counts: Counter = Counter()
    for word, tokens in word_tokens.items():
        freq = word_freq[word]
        for pair in zip(tokens, tokens[1:]):
            counts[pair] += freq
    return counts


def merge_pair(tokens: list[str], pair: tuple[str, str]) -> list[str]:
    """Return a new list with every occurrence of ``pair`` merged, left to right, no overlap.

    ``merge_pair(['a', 'a', 'a'], ('a', 'a')) == ['aa', 'a']``; ``tokens`` is not modified.
    """
    first, second = pair
    merged: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == first and tokens[i + 1] == second:
            merged.append(first + second)
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged

# %%
freq = word_frequencies(["low low low low low", "lower lower"])
tokens = {word: list(word) + [EOW] for word in freq}
pairs = count_pairs(tokens, freq)
print(freq)
print(pairs.most_common(3))
best = min(pairs, key=lambda pair: (-pairs[pair], pair))  # highest count, then smallest pair
print("merge", best, "->", {word: merge_pair(toks, best) for word, toks in tokens.items()})

# %%
# Test: CharTokenizer.build_vocab learns the sorted characters of a corpus (5 points)
tok = CharTokenizer(["x", "y", "z"])
tok.build_vocab(["hello", "world"])
assert tok.vocab == [UNK, "d", "e", "h", "l", "o", "r", "w"], f"vocab should be [UNK] + sorted characters, got {tok.vocab}"
assert tok.vocab_size == 8, f"vocab_size should be 8 after build_vocab(['hello', 'world']), got {tok.vocab_size}"
assert tok.encode("hello") == [3, 2, 4, 4, 5], f"encode('hello') should be [3, 2, 4, 4, 5], got {tok.encode('hello')}"
assert tok.encode("xyz") == [0, 0, 0], "build_vocab must replace the old vocabulary, not add to it"
assert tok.decode([7, 5, 6, 4, 1]) == "world", "id_to_char must be rebuilt by build_vocab"
tok.build_vocab(["b a", "a\tb"])
assert tok.vocab == [UNK, "\t", " ", "a", "b"], f"whitespace characters belong in the vocabulary too; got {tok.vocab}"
tok.build_vocab([])
assert tok.vocab == [UNK] and tok.encode("ab") == [0, 0], "an empty corpus leaves only UNK"
print("Part 4 build_vocab tests passed.")

# %%
# Test: word_frequencies counts str.split() words across texts (4 points)
freq = word_frequencies(["the cat", "the  dog\n", "", "cat\tthe"])
assert isinstance(freq, Counter), f"word_frequencies should return a collections.Counter, got {type(freq).__name__}"
assert freq == Counter({"the": 3, "cat": 2, "dog": 1}), (
    f"split each text with str.split() (any whitespace run) and count every word; got {dict(freq)}"
)
assert word_frequencies([]) == Counter(), "an empty corpus has no words"
print("Part 4 word_frequencies tests passed.")

# %%
# Test: count_pairs counts every position, weighted by word frequency (5 points)
word_tokens = {"aaa": ["a", "a", "a", EOW], "ab": ["a", "b", EOW]}
counts = count_pairs(word_tokens, {"aaa": 2, "ab": 5})
assert isinstance(counts, Counter), f"count_pairs should return a collections.Counter, got {type(counts).__name__}"
assert counts[("a", "a")] == 4, (
    f"'aaa' holds ('a', 'a') twice and occurs twice, so ('a', 'a') should count 4, got {counts[('a', 'a')]}"
)
assert counts == Counter({("a", "a"): 4, ("a", EOW): 2, ("a", "b"): 5, ("b", EOW): 5}), (
    f"every adjacent pair, weighted by the word's frequency; got {dict(counts)}"
)
assert word_tokens == {"aaa": ["a", "a", "a", EOW], "ab": ["a", "b", EOW]}, "count_pairs must not modify its input"
assert count_pairs({}, {}) == Counter(), "no words, no pairs"
print("Part 4 count_pairs tests passed.")

# %%
# Test: merge_pair merges left to right, without overlap, into a new list (6 points)
tokens = ["a", "a", "a", EOW]
merged = merge_pair(tokens, ("a", "a"))
assert merged == ["aa", "a", EOW], f"merge left to right without overlap: expected ['aa', 'a', ' '], got {merged}"
assert tokens == ["a", "a", "a", EOW], "merge_pair must return a new list and leave its input unchanged"
assert merge_pair(["a", "a", "a", "a"], ("a", "a")) == ["aa", "aa"], "both non-overlapping occurrences must merge"
assert merge_pair(["h", "e", "l", "l", "o", EOW], ("l", "o")) == ["h", "e", "l", "lo", EOW], "merge only the matching pair"
assert merge_pair(["l", "o", "w", EOW], ("w", EOW)) == ["l", "o", "w "], "a pair at the very end must merge too"
assert merge_pair(["a", "b"], ("b", "a")) == ["a", "b"], "order matters: ('b', 'a') does not occur in ['a', 'b']"
assert merge_pair([], ("a", "b")) == [] and merge_pair(["a"], ("a", "b")) == ["a"], "short inputs come back unchanged"
print("Part 4 merge_pair tests passed.")

# %%
class BPETokenizer(Tokenizer):
    """Subword tokenizer learned by greedy pair merging, with an end-of-word symbol."""

    def __init__(self, vocab_size: int = 1000) -> None:
        """Keep ``vocab_size`` as ``target_vocab_size`` (``ValueError`` unless a positive int);
        start with ``vocab == [UNK, EOW]``, ``merges == []`` and the mappings built."""
        self.target_vocab_size = check_vocab_size(vocab_size)
        self.vocab: list[str] = [UNK, EOW]
        self.merges: list[tuple[str, str]] = []
        self._build_mappings()

    @property
    def vocab_size(self) -> int:
        """Number of tokens actually in the vocabulary: ``len(self.vocab)``."""
        return len(self.vocab)

    def _get_word_tokens(self, word: str) -> list[str]:
        """A word starts as its characters followed by the end-of-word symbol."""
        return list(word) + [EOW]

    def _get_pairs(self, word_tokens: list[str]) -> set[tuple[str, str]]:
        """The distinct adjacent pairs in one tokenized word."""
        return set(zip(word_tokens, word_tokens[1:]))

    def _apply_merges(self, tokens: list[str]) -> list[str]:
        """Replay every learned merge on ``tokens``, in the order it was learned."""
        for pair in self.merges:
            tokens = merge_pair(tokens, pair)
        return tokens

    def _build_mappings(self) -> None:
        """Build ``token_to_id`` (the first ID wins for a repeated string) and ``id_to_token``."""
        self.token_to_id: dict[str, int] = {}
        for i, token in enumerate(self.vocab):
            self.token_to_id.setdefault(token, i)
        self.id_to_token = dict(enumerate(self.vocab))
        self._word_cache: dict[str, list[int]] = {}

    def train(self, corpus: list[str], vocab_size: int | None = None) -> None:
        """Learn merges from ``corpus`` until the vocabulary reaches the target size
        (``vocab_size`` if given, else ``target_vocab_size``) or no pair is left."""
        if vocab_size is not None:
            self.target_vocab_size = check_vocab_size(vocab_size)
        if isinstance(corpus, str):
            raise TypeError("corpus must be a list of texts, not a single str")
        # 1. Count each distinct word once; the work below is per distinct word.
        word_freq = word_frequencies(corpus)
        # 2. Every word starts as characters + EOW.
        word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
        # 3. Base vocabulary: UNK, EOW, then the characters seen, sorted.
        self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
        self.merges = []
        # 4. Merge the most frequent pair until the vocabulary is big enough.
        while len(self.vocab) < self.target_vocab_size:
            counts = count_pairs(word_tokens, word_freq)
            if not counts:
                break
            # Highest count first; among equal counts, the smallest pair.
            best = min(counts, key=lambda pair: (-counts[pair], pair))
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
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        ids: list[int] = []
        for word in text.split():
            # A word's IDs never change after training, so compute them once.
            if word not in self._word_cache:
                tokens = self._apply_merges(self._get_word_tokens(word))
                self._word_cache[word] = [self.token_to_id.get(t, 0) for t in tokens]
            ids.extend(self._word_cache[word])
        return ids

    def decode(self, tokens: list[int]) -> str:
        """Join the token strings and drop the trailing end-of-word space (``rstrip(" ")``)."""
        text = "".join(self.id_to_token[check_token_id(t, self.vocab_size)] for t in tokens)
        return text.rstrip(" ")

# %%
sennrich = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
bpe = BPETokenizer(20)
bpe.train(sennrich)
print("merges:", bpe.merges)
for word in ["lowest", "newer", "wider", "slow"]:
    print(f"{word!r:10} -> {[bpe.id_to_token[i] for i in bpe.encode(word)]}")

# %%
# Test: a fresh BPETokenizer knows only UNK and EOW (3 points)
bpe = BPETokenizer(50)
assert bpe.vocab == [UNK, EOW], f"before training, vocab should be [UNK, EOW], got {bpe.vocab}"
assert bpe.merges == [], f"before training, merges should be empty, got {bpe.merges}"
assert bpe.vocab_size == 2, f"vocab_size is len(vocab), 2 before training; got {bpe.vocab_size}"
assert bpe.target_vocab_size == 50, "the requested size is kept as target_vocab_size"
assert BPETokenizer().target_vocab_size == 1000, "the default target is 1000"
assert bpe.encode("hi") == [0, 0, 1], f"untrained: unknown characters give 0 and EOW is ID 1; got {bpe.encode('hi')}"
assert bpe.decode([0, 1]) == "<UNK>", "decode maps 0 to <UNK> and strips the trailing space"
print("Part 3 untrained-tokenizer tests passed.")

# %%
# Test: _get_word_tokens, _get_pairs, _apply_merges and _build_mappings (4 points)
bpe = BPETokenizer()
assert bpe._get_word_tokens("low") == ["l", "o", "w", EOW], "a word starts as its characters followed by EOW"
pairs = bpe._get_pairs(["a", "a", "a", EOW])
assert isinstance(pairs, set) and pairs == {("a", "a"), ("a", EOW)}, f"_get_pairs gives the distinct adjacent pairs, got {pairs}"
bpe.merges = [("l", "o"), ("lo", "w"), ("w", EOW)]
applied = bpe._apply_merges(["l", "o", "w", EOW])
assert applied == ["low", EOW], f"apply every merge in learned order: expected ['low', ' '], got {applied}"
bpe.vocab = [UNK, EOW, "a", "b", "a"]
bpe._build_mappings()
assert bpe.token_to_id["a"] == 2, "when a string occurs twice in vocab, token_to_id keeps its first ID"
assert bpe.token_to_id[UNK] == 0 and bpe.id_to_token[4] == "a", "id_to_token maps every ID to its string"
print("Part 3 helper tests passed.")

# %%
# Test: train learns merges in the right order, ties to the smallest pair (8 points)
bpe = BPETokenizer(1000)
bpe.train(["hello", "hello", "help"])
assert bpe.merges[:1] == [("e", "l")], (
    f"('h','e') and ('e','l') both occur 3 times; ties go to the smallest pair, ('e','l'). First merge was {bpe.merges[:1]}"
)
expected = [("e", "l"), ("h", "el"), ("hel", "l"), ("hell", "o"), ("hello", EOW), ("hel", "p"), ("help", EOW)]
assert bpe.merges == expected, f"merges should be {expected}, got {bpe.merges}"
assert bpe.vocab[:7] == [UNK, EOW, "e", "h", "l", "o", "p"], f"base vocab is [UNK, EOW] + sorted characters, got {bpe.vocab[:7]}"
assert bpe.vocab_size == 14, f"final vocabulary should have 14 entries, got {bpe.vocab_size}"
shuffled = BPETokenizer(1000)
shuffled.train(["help", "hello", "hello"])
assert shuffled.merges == expected, "the merges must not depend on the order of the corpus"
sennrich = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
small = BPETokenizer(1000)
small.train(sennrich, vocab_size=17)
first_five = [("e", "s"), ("es", "t"), ("est", EOW), ("l", "o"), ("lo", "w")]
assert small.merges == first_five, f"Sennrich corpus, target 17: merges should be {first_five}, got {small.merges}"
assert small.target_vocab_size == 17 and small.vocab_size == 17, "train's vocab_size overrides the constructor's target"
print("Part 3 merge-order tests passed.")

# %%
# Test: BPE encode/decode, unknown characters and whitespace (6 points)
bpe = BPETokenizer(1000)
bpe.train(["hello", "hello", "help"])
tokens = [bpe.id_to_token[i] for i in bpe.encode("hell")]
assert tokens == ["hell", EOW], f"'hell' should encode to the tokens ['hell', ' '], got {tokens}"
ids = bpe.encode("hello help")
assert ids == [bpe.token_to_id["hello "], bpe.token_to_id["help "]], f"known words become single tokens; got {ids}"
decoded = bpe.decode(bpe.encode("  hello\thelp x  "))
assert decoded == "hello help <UNK>", f"expected 'hello help <UNK>', got {decoded!r}"
text = "help hello\n\nhole   pole "
assert bpe.decode(bpe.encode(text)) == " ".join(text.split()), "round trip: whitespace runs become single spaces"
assert bpe.encode("") == [] and bpe.decode([]) == "", "empty text, no tokens"
markup = BPETokenizer(30)
markup.train(["a </w> <UNK> b"])
assert markup.decode(markup.encode("<UNK> </w>  b")) == "<UNK> </w> b", "literal '<UNK>' and '</w>' text must round-trip"
print("Part 3 encode/decode tests passed.")

# %%
# Test: BPETokenizer rejects bad vocabulary sizes, bad IDs and non-str input (4 points)
for bad_size in (0, -3, True, 2.5, "100"):
    try:
        BPETokenizer(bad_size)
    except ValueError:
        pass
    else:
        raise AssertionError(f"BPETokenizer({bad_size!r}) should raise ValueError: vocab_size must be a positive int")
    try:
        BPETokenizer(10).train(["ab"], vocab_size=bad_size)
    except ValueError:
        pass
    else:
        raise AssertionError(f"train(..., vocab_size={bad_size!r}) should raise ValueError")
trained = BPETokenizer(10)
trained.train(["ab ab"])
for bad_id in (trained.vocab_size, -1, True, None):
    try:
        trained.decode([bad_id])
    except ValueError:
        pass
    else:
        raise AssertionError(f"decode([{bad_id!r}]) should raise ValueError (vocab_size is {trained.vocab_size})")
try:
    trained.encode(None)
except TypeError:
    pass
else:
    raise AssertionError("encode(None) should raise TypeError")
print("Part 3 bad-input tests passed.")

# %%
STRATEGIES = ("bpe", "char")


def create_tokenizer(
    strategy: str, vocab_size: int = 1000, corpus: list[str] | None = None
) -> Tokenizer:
    """Build a ready-to-use tokenizer: ``"char"`` (vocabulary from ``corpus``) or a trained ``"bpe"``.

    Raises ``ValueError`` listing the valid strategies for any other ``strategy``.
    """
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
    """Encode every text, cutting each to ``max_length`` tokens when given (no padding).

    Raises ``ValueError`` for a negative ``max_length``.
    """
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be >= 0, got {max_length}")
    encoded = [tokenizer.encode(text) for text in texts]
    if max_length is None:
        return encoded
    return [ids[:max_length] for ids in encoded]


def analyze_tokenization(texts: list[str], tokenizer: Tokenizer) -> dict:
    """Summary statistics of how ``tokenizer`` splits ``texts`` (see the table above).

    ``compression_ratio`` is characters per token, whitespace counted. Empty input gives zeros.
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

# %%
with open("tinyshakespeare.txt", encoding="utf-8") as f:
    shakespeare = [line for line in f.read().splitlines() if line.strip()]
print(f"{len(shakespeare):,} non-empty lines; first: {shakespeare[0]!r}")

train_lines, held_out = shakespeare[:500], shakespeare[500:700]
for strategy in ["char", "bpe"]:
    tokenizer = create_tokenizer(strategy, vocab_size=300, corpus=train_lines)
    stats = analyze_tokenization(held_out, tokenizer)
    print(f"{strategy:>4}: " + ", ".join(f"{key}={value:.3g}" for key, value in stats.items()))

# %%
# Test: create_tokenizer builds char and bpe tokenizers and rejects unknown strategies (5 points)
corpus = ["hello", "hello", "help"]
char_tok = create_tokenizer("char", corpus=corpus)
assert isinstance(char_tok, CharTokenizer), f"'char' should give a CharTokenizer, got {type(char_tok).__name__}"
assert char_tok.vocab == [UNK, "e", "h", "l", "o", "p"], f"the char vocabulary comes from the corpus, got {char_tok.vocab}"
bpe_tok = create_tokenizer("bpe", vocab_size=9, corpus=corpus)
assert isinstance(bpe_tok, BPETokenizer), f"'bpe' should give a BPETokenizer, got {type(bpe_tok).__name__}"
assert bpe_tok.vocab_size == 9 and bpe_tok.merges == [("e", "l"), ("h", "el")], "'bpe' should be trained to vocab_size"
assert create_tokenizer("char").vocab == [UNK], "corpus=None means an empty corpus"
try:
    create_tokenizer("word", corpus=corpus)
except ValueError as err:
    assert "bpe" in str(err) and "char" in str(err), f"the ValueError should list the valid strategies; got {str(err)!r}"
else:
    raise AssertionError("create_tokenizer('word') should raise ValueError")
print("Part 5 create_tokenizer tests passed.")

# %%
# Test: tokenize_dataset encodes and truncates without padding (4 points)
tok = CharTokenizer(list("abc"))
texts = ["abc", "ab", "", "cabx"]
assert tokenize_dataset(texts, tok) == [[1, 2, 3], [1, 2], [], [3, 1, 2, 0]], "without max_length, encode every text"
assert tokenize_dataset(texts, tok, max_length=2) == [[1, 2], [1, 2], [], [3, 1]], "cut each sequence to max_length, no padding"
assert tokenize_dataset(texts, tok, max_length=0) == [[], [], [], []], "max_length=0 gives empty sequences"
assert tokenize_dataset([], tok) == [], "no texts, no sequences"
assert texts == ["abc", "ab", "", "cabx"], "tokenize_dataset must not modify its input"
try:
    tokenize_dataset(texts, tok, max_length=-1)
except ValueError:
    pass
else:
    raise AssertionError("a negative max_length should raise ValueError")
print("Part 5 tokenize_dataset tests passed.")

# %%
# Test: analyze_tokenization statistics, whitespace counted, empty input (6 points)
tok = CharTokenizer(list("dehlorw"))
texts = ["hello world", "hi"]
stats = analyze_tokenization(texts, tok)
expected = {
    "vocab_size": 8,
    "total_tokens": 13,
    "avg_sequence_length": 6.5,
    "max_sequence_length": 11,
    "unique_tokens": 8,
    "compression_ratio": 1.0,
    "unknown_rate": 2 / 13,
}
assert set(stats) == set(expected), f"the keys should be {sorted(expected)}, got {sorted(stats)}"
for key, value in expected.items():
    assert abs(stats[key] - value) < 1e-9, f"{key} should be {value}, got {stats[key]}"
assert texts == ["hello world", "hi"], "analyze_tokenization must not modify its input"
bpe = BPETokenizer(1000)
bpe.train(["hello", "hello", "help"])
ratio = analyze_tokenization(["hello help"], bpe)["compression_ratio"]
assert abs(ratio - 5.0) < 1e-9, f"10 characters (the space counts) in 2 tokens is a ratio of 5.0, got {ratio}"
empty = analyze_tokenization([], tok)
zeros = dict.fromkeys(["total_tokens", "avg_sequence_length", "max_sequence_length", "unique_tokens",
                       "compression_ratio", "unknown_rate"], 0)
assert empty == {"vocab_size": 8, **zeros}, f"empty input should give zeros (and the vocabulary size), got {empty}"
assert analyze_tokenization([""], tok)["compression_ratio"] == 0, "no tokens: the ratios are 0, not a ZeroDivisionError"
print("Part 5 analyze_tokenization tests passed.")

# %%
KIB = 1024  # binary units, used by the tests and the plots
MIB = 1024**2
GIB = 1024**3


def embedding_memory_bytes(vocab_size: int, embed_dim: int, bytes_per_param: int = 4) -> int:
    """Bytes taken by a ``vocab_size x embed_dim`` embedding table."""
    return vocab_size * embed_dim * bytes_per_param


def attention_scores(seq_len: int, batch_size: int = 1) -> int:
    """Attention scores one head of one layer computes: ``batch_size * seq_len**2``."""
    return batch_size * seq_len**2


def attention_speedup(long_len: int, short_len: int) -> float:
    """How many times fewer attention scores the shorter sequence needs: ``(long/short)**2``."""
    return (long_len / short_len) ** 2


def vocab_tradeoff(corpus: list[str], vocab_sizes: list[int], embed_dim: int) -> list[dict]:
    """Train one BPE per requested size on ``corpus``; one row per size (see the table above)."""
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

# %%
# Test: embedding_memory_bytes in bytes, checked against the table in binary units (5 points)
assert embedding_memory_bytes(100, 512) == 204_800, "100 x 512 float32 parameters take 204,800 bytes"
assert embedding_memory_bytes(100, 512) / KIB == 200, "... which is exactly 200 KiB"
assert abs(embedding_memory_bytes(50_000, 512) / MIB - 97.66) < 0.01, "50,000 x 512 float32 is about 97.66 MiB"
assert abs(embedding_memory_bytes(50_000, 12_288) / GIB - 2.29) < 0.01, "GPT-3's 50,000 x 12,288 float32 is about 2.29 GiB"
assert embedding_memory_bytes(100, 512, bytes_per_param=2) == 102_400, "float16 (2 bytes per parameter) halves the memory"
assert embedding_memory_bytes(0, 512) == 0, "an empty table takes no memory"
print("Part 6 embedding-memory tests passed.")

# %%
# Test: attention_scores grows with seq_len squared; attention_speedup is the squared ratio (5 points)
assert attention_scores(10) == 100, f"one sequence of 10 tokens gives 10**2 = 100 scores, got {attention_scores(10)}"
assert attention_scores(128, batch_size=4) == 65_536, "a batch of 4 sequences of 128 tokens gives 4 * 128**2 scores"
assert attention_scores(256, 2) == 4 * attention_scores(128, 2), "doubling seq_len must quadruple the scores"
speedup = attention_speedup(512, 128)
assert isinstance(speedup, float) and speedup == 16.0, f"4x shorter sequences need 16x fewer scores; got {speedup!r}"
assert attention_speedup(300, 200) == 2.25, "attention_speedup(300, 200) should be (300/200)**2 = 2.25"
print("Part 6 attention tests passed.")

# %%
# Test: vocab_tradeoff rows on a tiny corpus (6 points)
rows = vocab_tradeoff(["hello", "hello", "help"], [3, 8, 1000], embed_dim=16)
assert isinstance(rows, list) and len(rows) == 3, "one row per requested vocabulary size, in order"
keys = {"vocab_size", "actual_vocab_size", "avg_sequence_length", "embedding_bytes", "attention_scores"}
assert set(rows[0]) == keys, f"each row should have the keys {sorted(keys)}, got {sorted(rows[0])}"
assert [row["vocab_size"] for row in rows] == [3, 8, 1000], "vocab_size is the requested size"
assert [row["actual_vocab_size"] for row in rows] == [7, 8, 14], (
    "actual_vocab_size is len(vocab): the 7 base tokens always stay, and 14 is all this corpus can learn"
)
expected_lengths = [17 / 3, 14 / 3, 1.0]
for row, length in zip(rows, expected_lengths):
    assert abs(row["avg_sequence_length"] - length) < 1e-9, f"avg_sequence_length should be {length}, got {row['avg_sequence_length']}"
    assert row["embedding_bytes"] == row["actual_vocab_size"] * 16 * 4, "embedding_bytes uses the actual vocabulary size, float32"
    assert isinstance(row["attention_scores"], float) and abs(row["attention_scores"] - length**2) < 1e-9, (
        "attention_scores is avg_sequence_length ** 2, as a float"
    )
print("Part 6 vocab_tradeoff tests passed.")

# %%
# Q1_EMBEDDING_MIB = ...          MiB of a 30,000 x 768 float32 embedding table, 2 decimals
# Q2_CHAR_ATTENTION_SCORES = ...  scores for 32 sequences of 200 tokens
# Q2_BPE_ATTENTION_SCORES = ...   scores for 32 sequences of 50 tokens
# Q4_COMPRESSION_RATIO = ...      10,000 characters in 2,500 tokens
Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / 1024**2, 2)  # 87.89
Q2_CHAR_ATTENTION_SCORES = 32 * 200**2  # 1,280,000
Q2_BPE_ATTENTION_SCORES = 32 * 50**2  # 80,000
Q4_COMPRESSION_RATIO = 10_000 / 2_500  # 4.0

# %%
# Test: the numeric answers exist and agree with your Part 6 functions (4 points; exact values are graded hidden)
for name in ["Q1_EMBEDDING_MIB", "Q2_CHAR_ATTENTION_SCORES", "Q2_BPE_ATTENTION_SCORES", "Q4_COMPRESSION_RATIO"]:
    assert name in globals(), f"define the module-level constant {name}"
    assert isinstance(globals()[name], (int, float)) and not isinstance(globals()[name], bool), f"{name} should be a number"
assert abs(Q1_EMBEDDING_MIB - embedding_memory_bytes(30_000, 768) / MIB) < 0.01, (
    "Q1 should be the embedding table's size in MiB (1 MiB = 1024**2 bytes), not in bytes or decimal MB"
)
assert abs(Q2_CHAR_ATTENTION_SCORES - attention_scores(200, batch_size=32)) < 0.01, "Q2 (char): 32 sequences of 200 tokens"
assert abs(Q2_BPE_ATTENTION_SCORES - attention_scores(50, batch_size=32)) < 0.01, "Q2 (BPE): 32 sequences of 50 tokens"
assert Q4_COMPRESSION_RATIO > 1, "the compression ratio is characters per token (not tokens per character), so above 1"
print("Part 6 answer tests passed.")

# %%
print(f"Q1: {Q1_EMBEDDING_MIB} MiB for the embedding table")
print(f"Q2: {Q2_CHAR_ATTENTION_SCORES:,} vs {Q2_BPE_ATTENTION_SCORES:,} attention scores, "
      f"{Q2_CHAR_ATTENTION_SCORES / Q2_BPE_ATTENTION_SCORES:.0f}x fewer with BPE")
print(f"Q4: compression ratio {Q4_COMPRESSION_RATIO}, so attention is {attention_speedup(Q4_COMPRESSION_RATIO, 1):.0f}x cheaper")

# %%
tradeoff = vocab_tradeoff(shakespeare[:300], [50, 100, 200, 400], embed_dim=512)
for row in tradeoff:
    print(
        f"requested {row['vocab_size']:>4}  actual {row['actual_vocab_size']:>4}  "
        f"avg length {row['avg_sequence_length']:6.2f}  attention {row['attention_scores']:8.1f}  "
        f"embedding {row['embedding_bytes'] / KIB:7.1f} KiB"
    )
sizes = [row["actual_vocab_size"] for row in tradeoff]
fig, (ax_len, ax_mem) = plt.subplots(1, 2, figsize=(10, 3.5))
ax_len.plot(sizes, [row["avg_sequence_length"] for row in tradeoff], "o-")
ax_len.set(xlabel="vocabulary size", ylabel="tokens per line", title="Sequence length")
ax_mem.plot(sizes, [row["embedding_bytes"] / KIB for row in tradeoff], "o-", color="tab:red")
ax_mem.set(xlabel="vocabulary size", ylabel="KiB (dim 512, float32)", title="Embedding memory")
fig.tight_layout()
plt.show()

# %%
def best_cpu_seconds(corpus: list[str], repeats: int = 3) -> float:
    """The fastest of ``repeats`` trainings on ``corpus``, in CPU seconds of this process."""
    best = math.inf
    for _ in range(repeats):
        start = time.process_time()
        BPETokenizer(150).train(corpus)
        best = min(best, time.process_time() - start)
    return best


line_counts = [250, 500, 1000, 2000, 4000]
distinct_words, seconds = [], []
for n in line_counts:
    lines = shakespeare[:n]
    seconds.append(best_cpu_seconds(lines))
    distinct_words.append(len(word_frequencies(lines)))
    print(f"{n:>5} lines  {distinct_words[-1]:>5} distinct words  {seconds[-1]:.2f} s")
log_seconds = [math.log(t) for t in seconds]
slope_lines = statistics.linear_regression([math.log(n) for n in line_counts], log_seconds).slope
slope_words = statistics.linear_regression([math.log(n) for n in distinct_words], log_seconds).slope
print(f"slope against lines: {slope_lines:.2f}; against distinct words: {slope_words:.2f}")

fig, (ax_lines, ax_words) = plt.subplots(1, 2, figsize=(10, 3.5))
ax_lines.loglog(line_counts, seconds, "o-")
ax_lines.set(xlabel="corpus size (lines)", ylabel="training time (CPU s)", title=f"slope {slope_lines:.2f}")
ax_lines.set_xticks(line_counts, labels=[str(n) for n in line_counts])
ax_words.loglog(distinct_words, seconds, "o-", color="tab:green")
ax_words.set(xlabel="distinct words", ylabel="training time (CPU s)", title=f"slope {slope_words:.2f}")
ax_words.set_xticks(distinct_words, labels=[str(n) for n in distinct_words])
for ax in (ax_lines, ax_words):
    ax.tick_params(axis="x", which="minor", labelbottom=False)
fig.tight_layout()
plt.show()

# %%
lines = shakespeare[:1000]
timings = {"once": best_cpu_seconds(lines), "twice": best_cpu_seconds(lines + lines)}
print(f"once: {timings['once']:.2f} s, twice: {timings['twice']:.2f} s, "
      f"ratio {timings['twice'] / timings['once']:.2f}")

# %%
# %run -e preflight.py tokenization.ipynb

