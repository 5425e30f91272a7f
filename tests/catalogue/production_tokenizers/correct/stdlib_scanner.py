"""A correct Parts 1-3 built differently from the reference (catalogue: correct #1).

* ``gpt2_pretokenize`` is a hand-written scanner over ``unicodedata`` (no regex), one
  branch per alternative of GPT-2's pattern.
* ``ByteLevelBPE`` merges as OpenAI's original ``encoder.py`` does: find the lowest-ranked
  pair, merge all its occurrences, repeat; a per-piece cache; the decoder is a list
  indexed by ID (negative IDs checked); ``from_files`` reads lines with ``splitlines``.
* ``train_bpe_fast`` keeps count buckets (count -> set of pairs) and takes the smallest
  pair of the top bucket.
"""

import json
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

UNK = "<UNK>"
EOW = " "
ENDOFTEXT = "<|endoftext|>"
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
CONTRACTIONS = ("ll", "ve", "re", "s", "d", "m", "t")


def bytes_to_unicode():
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    others = [b for b in range(256) if b not in printable]
    table = {b: chr(b) for b in printable}
    table.update({b: chr(256 + n) for n, b in enumerate(others)})
    return dict(sorted(table.items()))


def char_kind(char):
    if char in WHITE_SPACE:
        return "space"
    major = unicodedata.category(char)[0]
    return "letter" if major == "L" else "number" if major == "N" else "other"


def gpt2_pretokenize(text):
    pieces, i, n = [], 0, len(text)
    while i < n:
        if text[i] == "'":
            found = next((c for c in CONTRACTIONS if text.startswith(c, i + 1)), None)
            if found:
                pieces.append("'" + found)
                i += 1 + len(found)
                continue
        start = i
        if text[i] == " " and i + 1 < n and char_kind(text[i + 1]) != "space":
            i += 1
        kind = char_kind(text[i])
        if kind != "space":
            while i < n and char_kind(text[i]) == kind:
                i += 1
            pieces.append(text[start:i])
            continue
        end = i
        while end < n and char_kind(text[end]) == "space":
            end += 1
        if end < n and end - i > 1:
            end -= 1  # \s+(?!\S): leave the last space to the next piece
        pieces.append(text[i:end])
        i = end
    return pieces


class ByteLevelBPE:
    def __init__(self, encoder, merges, special_tokens=None):
        self.encoder = dict(encoder)
        self.merges = [tuple(m) for m in merges]
        self.special_tokens = dict(special_tokens or {})
        self.rank_of = {}
        for r, pair in enumerate(self.merges):
            self.rank_of.setdefault(pair, r)
        self.alphabet = bytes_to_unicode()
        back = {c: b for b, c in self.alphabet.items()}
        size = max([*self.encoder.values(), *self.special_tokens.values(), -1]) + 1
        self.table = [None] * size
        for token, i in self.encoder.items():
            self.table[i] = bytes(back[c] for c in token)
        for token, i in self.special_tokens.items():
            self.table[i] = token.encode("utf-8")
        self.memo = {}

    @classmethod
    def from_files(cls, vocab_path, merges_path):
        with open(vocab_path, encoding="utf-8") as f:
            encoder = json.load(f)
        lines = Path(merges_path).read_text(encoding="utf-8").splitlines()
        if lines and lines[0].startswith("#version"):
            del lines[0]
        merges = [tuple(line.split(" ")) for line in lines if line.strip()]
        return cls(encoder, merges, {ENDOFTEXT: encoder[ENDOFTEXT]} if ENDOFTEXT in encoder else {})

    def bpe(self, piece):
        word = [self.alphabet[b] for b in piece.encode("utf-8")]
        while len(word) > 1:
            ranked = [(self.rank_of[p], p) for p in zip(word, word[1:]) if p in self.rank_of]
            if not ranked:
                break
            first, second = min(ranked)[1]
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and word[i] == first and word[i + 1] == second:
                    out.append(first + second)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            word = out
        return [self.encoder[t] for t in word]

    def encode_ordinary(self, text):
        out = []
        for piece in gpt2_pretokenize(text):
            ids = self.memo.get(piece)
            if ids is None:
                ids = self.memo[piece] = self.bpe(piece)
            out += ids
        return out

    def encode(self, text, allowed_special=()):
        allowed = set(self.special_tokens) if allowed_special == "all" else set(allowed_special)
        allowed &= set(self.special_tokens)
        for token in self.special_tokens:
            if token not in allowed and token in text:
                raise ValueError(f"disallowed special token {token!r} in text")
        out, start, i = [], 0, 0
        by_length = sorted(allowed, key=len, reverse=True)
        while i < len(text):
            hit = next((t for t in by_length if text.startswith(t, i)), None)
            if hit is None:
                i += 1
                continue
            out += self.encode_ordinary(text[start:i]) + [self.special_tokens[hit]]
            i = start = i + len(hit)
        return out + self.encode_ordinary(text[start:])

    def decode_bytes(self, ids):
        buffer = bytearray()
        for i in ids:
            if type(i) is not int or not 0 <= i < len(self.table) or self.table[i] is None:
                raise ValueError(f"unknown token ID {i!r}")
            buffer += self.table[i]
        return bytes(buffer)

    def decode(self, ids):
        return self.decode_bytes(ids).decode("utf-8", "replace")


def train_bpe_fast(corpus, vocab_size):
    if type(vocab_size) is not int or vocab_size <= 0:
        raise ValueError(f"bad vocab_size {vocab_size!r}")
    freq = Counter(w for text in corpus for w in text.split())
    words = {w: list(w) + [EOW] for w in freq}
    vocab = [UNK, EOW] + sorted(set("".join(freq)))
    merges = []
    count = defaultdict(int)
    holders = defaultdict(set)
    for w, symbols in words.items():
        for p in zip(symbols, symbols[1:]):
            count[p] += freq[w]
            holders[p].add(w)
    bucket = defaultdict(set)
    for p, c in count.items():
        bucket[c].add(p)

    def change(p, delta):
        old = count[p]
        if old > 0:
            bucket[old].discard(p)
            if not bucket[old]:
                del bucket[old]
        count[p] = old + delta
        if count[p] > 0:
            bucket[count[p]].add(p)

    while len(vocab) < vocab_size and bucket:
        best = min(bucket[max(bucket)])
        merges.append(best)
        joined = best[0] + best[1]
        if joined not in vocab:
            vocab.append(joined)
        for w in list(holders.pop(best, ())):
            symbols = words[w]
            for p in zip(symbols, symbols[1:]):
                change(p, -freq[w])
            out, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                    out.append(joined)
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            words[w] = out
            for p in zip(out, out[1:]):
                change(p, freq[w])
                holders[p].add(w)
    return vocab, merges
