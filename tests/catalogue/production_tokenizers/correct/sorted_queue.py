"""A correct Parts 1-3 built differently from the reference (catalogue: correct #3).

* ``gpt2_pretokenize``: ``regex`` with White_Space spelled as ``\\p{White_Space}``.
* ``ByteLevelBPE``: ranks keyed by the text ``"left right"`` (GPT-2's tokens never hold a
  space); the merge loop replays, for the lowest-ranked pair present, all its occurrences
  at once; special tokens are found with ``str.find`` at the earliest position, longest
  first; IDs are checked with ``dict.get``.
* ``train_bpe_fast``: the priority queue is a sorted list of ``(-count, pair)`` kept with
  ``bisect`` (removed and re-inserted at each count change), and each pair's index counts
  its occurrences per word.
"""

import bisect
import json
from collections import Counter, defaultdict
from pathlib import Path

import regex

UNK, EOW, ENDOFTEXT = "<UNK>", " ", "<|endoftext|>"
SPLITTER = regex.compile(
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+"
    r"|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+"
)


def bytes_to_unicode():
    table, spare = {}, 256
    for b in range(256):
        if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255:
            table[b] = chr(b)
        else:
            table[b], spare = chr(spare), spare + 1
    return table


def gpt2_pretokenize(text):
    return [m.group() for m in SPLITTER.finditer(text)]


class ByteLevelBPE:
    def __init__(self, encoder, merges, special_tokens=None):
        self.encoder = dict(encoder)
        self.merges = [tuple(m) for m in merges]
        self.special_tokens = dict(special_tokens or {})
        self.rank = {}
        for r, (a, b) in enumerate(self.merges):
            self.rank.setdefault(f"{a} {b}", r)
        self.chars = bytes_to_unicode()
        byte_of = {c: b for b, c in self.chars.items()}
        self.id_to_bytes = {i: bytes(map(byte_of.get, t)) for t, i in self.encoder.items()
                            if t not in self.special_tokens}
        for t, i in self.special_tokens.items():
            self.id_to_bytes[i] = t.encode("utf-8")
        self.seen = {}

    @classmethod
    def from_files(cls, vocab_path, merges_path):
        encoder = json.loads(Path(vocab_path).read_bytes().decode("utf-8"))
        text = Path(merges_path).read_bytes().decode("utf-8")
        if text.startswith("#version"):
            text = text.split("\n", 1)[1] if "\n" in text else ""
        merges = [tuple(line.split(" ")) for line in text.split("\n") if line]
        special = {t: encoder[t] for t in [ENDOFTEXT] if t in encoder}
        return cls(encoder, merges, special)

    def _piece(self, piece):
        symbols = [self.chars[b] for b in piece.encode("utf-8")]
        while True:
            ranks = [self.rank.get(f"{a} {b}") for a, b in zip(symbols, symbols[1:])]
            present = [r for r in ranks if r is not None]
            if not present:
                return [self.encoder[s] for s in symbols]
            a, b = self.merges[min(present)]
            i, out = 0, []
            while i < len(symbols):
                if symbols[i] == a and i + 1 < len(symbols) and symbols[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            symbols = out

    def encode_ordinary(self, text):
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in self.seen:
                self.seen[piece] = self._piece(piece)
            ids.extend(self.seen[piece])
        return ids

    def encode(self, text, allowed_special=()):
        if allowed_special == "all":
            allowed_special = set(self.special_tokens)
        allowed = sorted((t for t in allowed_special if t in self.special_tokens), key=len,
                         reverse=True)
        for t in self.special_tokens:
            if t not in allowed and t in text:
                raise ValueError(f"encode: {t!r} is a special token and it is not allowed")
        ids, start = [], 0
        while allowed:
            hits = [(text.find(t, start), -len(t), t) for t in allowed]
            hits = [h for h in hits if h[0] >= 0]
            if not hits:
                break
            at, _, token = min(hits)
            ids += self.encode_ordinary(text[start:at])
            ids.append(self.special_tokens[token])
            start = at + len(token)
        return ids + self.encode_ordinary(text[start:])

    def decode_bytes(self, ids):
        out = []
        for i in ids:
            raw = None if isinstance(i, bool) else self.id_to_bytes.get(i)
            if raw is None:
                raise ValueError(f"ID {i} is not in the vocabulary")
            out.append(raw)
        return b"".join(out)

    def decode(self, ids):
        return str(self.decode_bytes(ids), "utf-8", "replace")


def train_bpe_fast(corpus, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size={vocab_size!r} is not a positive int")
    freq = Counter(w for text in corpus for w in text.split())
    words = [list(w) + [EOW] for w in freq]
    weight = list(freq.values())
    vocab = [UNK, EOW, *sorted({c for w in freq for c in w})]
    count = Counter()
    holders = defaultdict(Counter)
    for k, s in enumerate(words):
        for p in zip(s, s[1:]):
            count[p] += weight[k]
            holders[p][k] += 1
    queue = sorted((-c, p) for p, c in count.items())

    def adjust(p, delta):
        if count[p] > 0:
            queue.pop(bisect.bisect_left(queue, (-count[p], p)))
        count[p] += delta
        if count[p] > 0:
            bisect.insort(queue, (-count[p], p))

    merges = []
    while len(vocab) < vocab_size and queue:
        best = queue[0][1]
        merges.append(best)
        joined = best[0] + best[1]
        if joined not in vocab:
            vocab.append(joined)
        for k in list(holders.pop(best)):
            s = words[k]
            for p in zip(s, s[1:]):
                adjust(p, -weight[k])
                holders[p][k] -= 1
            out, i = [], 0
            while i < len(s):
                if (s[i], s[i + 1] if i + 1 < len(s) else None) == best:
                    out.append(joined)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            words[k] = out
            for p in zip(out, out[1:]):
                adjust(p, weight[k])
                holders[p][k] += 1
    return vocab, merges
