# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Tokenization assignment (a correct submission written the way students write notebooks)
#
# Catalogue: correct #3. Converted to ``.ipynb`` by the catalogue test. Helpers are
# inlined (no module-level validators, no shared ``check`` functions), attributes are
# plain (``self.vocab_size = len(self.vocab)``), and demo cells print and plot.

# %%
# %matplotlib inline
from collections import Counter

import matplotlib.pyplot as plt

UNK = "<UNK>"
EOW = " "

# %% [markdown]
# ## Part 1: the base class

# %%
class Tokenizer:
    def encode(self, text):
        raise NotImplementedError("subclass must implement encode(text) returning token IDs")

    def decode(self, tokens):
        raise NotImplementedError("subclass must implement decode(tokens) returning text")


# %% [markdown]
# ## Part 2: characters

# %%
class CharTokenizer(Tokenizer):
    def __init__(self, vocab=None):
        self.unk_id = 0
        self.vocab = [UNK]
        if vocab:
            for ch in vocab:
                if ch == UNK:
                    continue
                if not isinstance(ch, str) or len(ch) != 1:
                    raise ValueError("vocab entries must be single characters, got " + repr(ch))
                if ch not in self.vocab:
                    self.vocab.append(ch)
        self.vocab_size = len(self.vocab)
        self.char_to_id = {ch: i for i, ch in enumerate(self.vocab)}
        self.id_to_char = {i: ch for i, ch in enumerate(self.vocab)}

    def build_vocab(self, corpus):
        chars = sorted(set("".join(corpus)))
        self.vocab = [UNK] + chars
        self.vocab_size = len(self.vocab)
        self.char_to_id = {ch: i for i, ch in enumerate(self.vocab)}
        self.id_to_char = {i: ch for i, ch in enumerate(self.vocab)}

    def encode(self, text):
        if type(text) is not str:
            raise TypeError("text must be a string")
        ids = []
        for ch in text:
            if ch in self.char_to_id:
                ids.append(self.char_to_id[ch])
            else:
                ids.append(self.unk_id)
        return ids

    def decode(self, tokens):
        text = []
        for t in tokens:
            if type(t) is not int:
                raise ValueError(f"token ID {t!r} is not an integer")
            if t < 0 or t >= self.vocab_size:
                raise ValueError(f"token ID {t} is out of range")
            text.append(self.id_to_char[t])
        return "".join(text)


# %%
tok = CharTokenizer(["h", "e", "l", "o"])
print(tok.encode("hello"), tok.decode(tok.encode("hello")))

# %% [markdown]
# ## Part 4: the building blocks of BPE

# %%
def word_frequencies(corpus):
    freq = Counter()
    for text in corpus:
        for word in text.split():
            freq[word] += 1
    return freq


def count_pairs(word_tokens, word_freq):
    pairs = Counter()
    for word in word_tokens:
        tokens = word_tokens[word]
        for i in range(len(tokens) - 1):
            pairs[(tokens[i], tokens[i + 1])] += word_freq[word]
    return pairs


def merge_pair(tokens, pair):
    new_tokens = []
    i = 0
    while i < len(tokens):
        if i < len(tokens) - 1 and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            new_tokens.append(pair[0] + pair[1])
            i += 2
        else:
            new_tokens.append(tokens[i])
            i += 1
    return new_tokens


# %% [markdown]
# ## Part 3: byte-pair encoding
#
# Ties go to the smallest pair: with ``["hello", "hello", "help"]`` both ``('e', 'l')``
# and ``('h', 'e')`` occur 3 times, and ``('e', 'l')`` wins because it sorts first.

# %%
class BPETokenizer(Tokenizer):
    def __init__(self, vocab_size=1000):
        if type(vocab_size) is not int or vocab_size <= 0:
            raise ValueError("vocab_size must be a positive integer")
        self.target_vocab_size = vocab_size
        self.vocab = [UNK, EOW]
        self.vocab_size = 2
        self.merges = []
        self.token_to_id = {UNK: 0, EOW: 1}
        self.id_to_token = {0: UNK, 1: EOW}

    def _get_word_tokens(self, word):
        return list(word) + [EOW]

    def _get_pairs(self, word_tokens):
        pairs = set()
        for i in range(len(word_tokens) - 1):
            pairs.add((word_tokens[i], word_tokens[i + 1]))
        return pairs

    def _apply_merges(self, tokens):
        for pair in self.merges:
            tokens = merge_pair(tokens, pair)
        return tokens

    def _build_mappings(self):
        self.token_to_id = {}
        self.id_to_token = {}
        for i, token in enumerate(self.vocab):
            if token not in self.token_to_id:
                self.token_to_id[token] = i
            self.id_to_token[i] = token
        self.vocab_size = len(self.vocab)

    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            if type(vocab_size) is not int or vocab_size <= 0:
                raise ValueError("vocab_size must be a positive integer")
            self.target_vocab_size = vocab_size
        word_freq = word_frequencies(corpus)
        splits = {}
        for word in word_freq:
            splits[word] = self._get_word_tokens(word)
        chars = set()
        for word in word_freq:
            for ch in word:
                chars.add(ch)
        self.vocab = [UNK, EOW] + sorted(chars)
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            pairs = count_pairs(splits, word_freq)
            if len(pairs) == 0:
                break
            best = None
            for pair in pairs:
                if best is None or pairs[pair] > pairs[best] or (
                    pairs[pair] == pairs[best] and pair < best
                ):
                    best = pair
            for word in splits:
                splits[word] = merge_pair(splits[word], best)
            self.merges.append(best)
            new_token = best[0] + best[1]
            if new_token not in self.vocab:
                self.vocab.append(new_token)
        self._build_mappings()

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("text must be a string")
        ids = []
        for word in text.split():
            for token in self._apply_merges(self._get_word_tokens(word)):
                ids.append(self.token_to_id.get(token, 0))
        return ids

    def decode(self, tokens):
        out = ""
        for t in tokens:
            if isinstance(t, bool) or not isinstance(t, int) or t < 0 or t >= len(self.vocab):
                raise ValueError(f"invalid token ID {t}")
            out += self.id_to_token[t]
        return out.rstrip(" ")


# %%
bpe = BPETokenizer()
bpe.train(["hello", "hello", "help"])
print(bpe.merges)
assert bpe.merges[0] == ("e", "l")

# %% [markdown]
# ## Part 5: utilities

# %%
def create_tokenizer(strategy, vocab_size=1000, corpus=None):
    if corpus is None:
        corpus = []
    if strategy == "char":
        t = CharTokenizer()
        t.build_vocab(corpus)
    elif strategy == "bpe":
        t = BPETokenizer(vocab_size)
        t.train(corpus)
    else:
        raise ValueError("Unknown strategy " + repr(strategy) + ". Valid strategies: 'char', 'bpe'")
    return t


def tokenize_dataset(texts, tokenizer, max_length=None):
    if max_length is not None and max_length < 0:
        raise ValueError("max_length must not be negative")
    result = []
    for text in texts:
        ids = tokenizer.encode(text)
        if max_length is not None:
            ids = ids[:max_length]
        result.append(ids)
    return result


def analyze_tokenization(texts, tokenizer):
    all_ids = []
    lengths = []
    for text in texts:
        ids = tokenizer.encode(text)
        all_ids.extend(ids)
        lengths.append(len(ids))
    total = len(all_ids)
    chars = 0
    for text in texts:
        chars += len(text)
    stats = {}
    stats["vocab_size"] = len(tokenizer.vocab)
    stats["total_tokens"] = total
    stats["avg_sequence_length"] = total / len(texts) if len(texts) > 0 else 0.0
    stats["max_sequence_length"] = max(lengths) if lengths else 0
    stats["unique_tokens"] = len(set(all_ids))
    stats["compression_ratio"] = chars / total if total > 0 else 0.0
    stats["unknown_rate"] = all_ids.count(0) / total if total > 0 else 0.0
    return stats


# %%
print(analyze_tokenization(["hello world"], create_tokenizer("char", corpus=["hello world"])))

# %% [markdown]
# ## Part 6: what it costs

# %%
def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    return vocab_size * embed_dim * bytes_per_param


def attention_scores(seq_len, batch_size=1):
    return batch_size * seq_len ** 2


def attention_speedup(long_len, short_len):
    return (long_len / short_len) ** 2


def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
    results = []
    for vs in vocab_sizes:
        t = BPETokenizer(vs)
        t.train(corpus)
        lengths = [len(t.encode(text)) for text in corpus]
        avg_len = sum(lengths) / len(lengths) if len(lengths) > 0 else 0.0
        results.append({
            "vocab_size": vs,
            "actual_vocab_size": len(t.vocab),
            "avg_sequence_length": avg_len,
            "embedding_bytes": embedding_memory_bytes(len(t.vocab), embed_dim),
            "attention_scores": float(avg_len ** 2),
        })
    return results


# %%
rows = vocab_tradeoff(["low lower newest widest"] * 3, [10, 20, 40], 64)
plt.plot([r["vocab_size"] for r in rows], [r["avg_sequence_length"] for r in rows])
plt.show()

# %%
Q1_EMBEDDING_MIB = 87.89
Q2_CHAR_ATTENTION_SCORES = 1_280_000
Q2_BPE_ATTENTION_SCORES = 80_000
Q4_COMPRESSION_RATIO = 4.0
