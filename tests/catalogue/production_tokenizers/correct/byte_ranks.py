"""A correct Parts 1-3 built differently from the reference (catalogue: correct #2).

* ``gpt2_pretokenize`` uses the ``regex`` module with the pattern compiled once.
* ``ByteLevelBPE`` works on ``bytes`` as tiktoken does: ranks are keyed by the byte
  strings of the two tokens, a piece is a list of single bytes, and the merge loop keeps
  the rank of every adjacent pair in a list, updating the two neighbours of each merge;
  special tokens are cut with one alternation built per call; ``from_files`` reads with
  ``open`` and skips a ``#version`` header.
* ``train_bpe_fast`` keeps a heap with lazy deletion, but after each merge recounts every
  pair of the words that held the merged pair (a per-word ``Counter`` difference).
"""

import heapq
import json
import re
from collections import Counter
from functools import cache

import regex

UNK, EOW, ENDOFTEXT = "<UNK>", " ", "<|endoftext|>"
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def bytes_to_unicode():
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(
        range(ord("®"), ord("ÿ") + 1))
    codes = keep[:]
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            codes.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in sorted(zip(keep, codes))}


@cache
def _pattern():
    return regex.compile(GPT2_PATTERN)


def gpt2_pretokenize(text):
    return _pattern().findall(text)


class ByteLevelBPE:
    def __init__(self, encoder, merges, special_tokens=None):
        self.encoder = dict(encoder)
        self.merges = [tuple(m) for m in merges]
        self.special_tokens = dict(special_tokens or {})
        back = {c: b for b, c in bytes_to_unicode().items()}
        spell = lambda token: bytes(back[c] for c in token)  # noqa: E731
        self.byte_ids = {}
        for token, i in self.encoder.items():
            if i not in self.special_tokens.values():
                self.byte_ids[spell(token)] = i
        self.byte_ranks = {}
        for r, (a, b) in enumerate(self.merges):
            self.byte_ranks.setdefault((spell(a), spell(b)), r)
        self.id_bytes = {i: t for t, i in self.byte_ids.items()}
        self.id_bytes.update({i: t.encode("utf-8") for t, i in self.special_tokens.items()})
        self.piece_ids = {}

    @classmethod
    def from_files(cls, vocab_path, merges_path):
        with open(vocab_path, encoding="utf-8") as f:
            encoder = json.load(f)
        with open(merges_path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if lines[0].startswith("#version"):
            lines = lines[1:]
        merges = [tuple(line.split(" ")) for line in lines if line != ""]
        special = {ENDOFTEXT: encoder[ENDOFTEXT]} if ENDOFTEXT in encoder else {}
        return cls(encoder, merges, special)

    def _merge(self, data):
        parts = [data[i:i + 1] for i in range(len(data))]
        inf = float("inf")
        ranks = [self.byte_ranks.get(pair, inf) for pair in zip(parts, parts[1:])]
        while ranks:
            best = min(ranks)
            if best == inf:
                break
            i = ranks.index(best)  # the leftmost pair of that rank
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
            del ranks[i]
            if i > 0:
                ranks[i - 1] = self.byte_ranks.get((parts[i - 1], parts[i]), inf)
            if i < len(parts) - 1:
                ranks[i] = self.byte_ranks.get((parts[i], parts[i + 1]), inf)
        return [self.byte_ids[p] for p in parts]

    def encode_ordinary(self, text):
        result = []
        for piece in gpt2_pretokenize(text):
            if piece not in self.piece_ids:
                self.piece_ids[piece] = self._merge(piece.encode("utf-8"))
            result.extend(self.piece_ids[piece])
        return result

    def encode(self, text, allowed_special=()):
        allowed = self.special_tokens.keys() if allowed_special == "all" else [
            t for t in allowed_special if t in self.special_tokens]
        refused = [t for t in self.special_tokens if t not in allowed and t in text]
        if refused:
            raise ValueError(f"special token {refused[0]!r} is not allowed here")
        if not allowed:
            return self.encode_ordinary(text)
        longest_first = sorted(allowed, key=lambda t: -len(t))
        cut = re.compile("(" + "|".join(re.escape(t) for t in longest_first) + ")")
        result = []
        for k, chunk in enumerate(cut.split(text)):
            result += [self.special_tokens[chunk]] if k % 2 else self.encode_ordinary(chunk)
        return result

    def decode_bytes(self, ids):
        chunks = []
        for i in ids:
            if isinstance(i, bool) or i not in self.id_bytes:
                raise ValueError(f"no token has ID {i!r}")
            chunks.append(self.id_bytes[i])
        return b"".join(chunks)

    def decode(self, ids):
        return self.decode_bytes(ids).decode("utf-8", errors="replace")


def train_bpe_fast(corpus, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError("vocab_size must be a positive int")
    freq = Counter()
    for text in corpus:
        freq.update(text.split())
    words = {w: tuple(w) + (EOW,) for w in freq}
    vocab = [UNK, EOW] + sorted({c for w in freq for c in w})
    seen = set(vocab)
    counts, index = Counter(), {}
    for w, s in words.items():
        for p in zip(s, s[1:]):
            counts[p] += freq[w]
            index.setdefault(p, set()).add(w)
    heap = [(-c, p) for p, c in counts.items()]
    heapq.heapify(heap)
    merges = []
    while len(vocab) < vocab_size and heap:
        c, p = heapq.heappop(heap)
        if counts[p] <= 0:
            continue
        if -c != counts[p]:
            heapq.heappush(heap, (-counts[p], p))
            continue
        merges.append(p)
        new = p[0] + p[1]
        if new not in seen:
            seen.add(new)
            vocab.append(new)
        changed = Counter()
        for w in index.pop(p):
            s = words[w]
            out, i = [], 0
            while i < len(s):
                if s[i:i + 2] == p:
                    out.append(new)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            out = tuple(out)
            words[w] = out
            for q in zip(s, s[1:]):
                changed[q] -= freq[w]
            for q in zip(out, out[1:]):
                changed[q] += freq[w]
                index.setdefault(q, set()).add(w)
        for q, delta in changed.items():
            if delta:
                counts[q] += delta
                if delta > 0 and counts[q] > 0:
                    heapq.heappush(heap, (-counts[q], q))
    return vocab, merges
