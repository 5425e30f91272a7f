"""Slow variants of the reference for ``make timing-stability`` (production_tokenizers).

Each is an override appended to the flattened reference (the grader keeps the last
definition), slow in one way the timing tests are meant to see and right in every output:

- ``encode_ordinary`` that grows its list by concatenation (``ids = ids + ...``): quadratic
  in the text, for Part 1's linear-time test;
- the naive trainer that recounts every distinct word's pairs at each merge: every merge
  costs the whole corpus, for the merge-cost tests (it fails both);
- the incremental trainer that finds the best pair with a scan of every count at each
  merge instead of a heap: a lean scan, which only the stricter merge-cost test fails;
- the incremental trainer over every occurrence of a word instead of distinct words with
  their counts, for the duplication test.

One honest variant is not right in every output: the incremental trainer with another
tie-break, which the exactness tests charge and the timing tests must not charge again.
``VARIANTS`` pairs each with the timing tests meant to catch it (None: honest).
"""

import re

QUADRATIC_ENCODE = '''
class ByteLevelBPE(ByteLevelBPE):
    def encode_ordinary(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        self._ready()
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in self._cache:
                self._cache[piece] = self._encode_piece(piece)
            ids = ids + self._cache[piece]
        return ids
'''
RECOUNT_TRAINER = '''
def _merge_word(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def train_bpe_fast(corpus, vocab_size):
    check_vocab_size(vocab_size)
    if isinstance(corpus, str):
        raise TypeError("corpus must be a list of texts")
    word_freq = Counter(word for text in corpus for word in text.split())
    words = [list(word) + [EOW] for word in word_freq]
    freqs = list(word_freq.values())
    vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
    known, merges = set(vocab), []
    while len(vocab) < vocab_size:
        counts = Counter()
        for symbols, freq in zip(words, freqs):
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += freq
        if not counts:
            break
        best = min(counts, key=lambda pair: (-counts[pair], pair))
        merges.append(best)
        if best[0] + best[1] not in known:
            vocab.append(best[0] + best[1])
            known.add(best[0] + best[1])
        words = [_merge_word(symbols, best) for symbols in words]
    return vocab, merges
'''


def _incremental(words: str, freqs: str, pick: str, order: str = "pair") -> str:
    """The reference's incremental trainer with its words and its choice of pair replaced;
    ``order``: what the heap orders pairs of equal counts by (``pair[::-1]``: another
    tie-break; the pick undoes it)."""
    return f'''
def train_bpe_fast(corpus, vocab_size):
    check_vocab_size(vocab_size)
    if isinstance(corpus, str):
        raise TypeError("corpus must be a list of texts")
    word_freq = Counter(word for text in corpus for word in text.split())
    words = {words}
    freqs = {freqs}
    vocab = [UNK, EOW] + sorted({{ch for word in word_freq for ch in word}})
    known, merges = set(vocab), []
    counts, where = defaultdict(int), defaultdict(set)
    for index, (symbols, freq) in enumerate(zip(words, freqs)):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freq
            where[pair].add(index)
    heap = [(-count, {order}) for pair, count in counts.items()]
    heapq.heapify(heap)
    while len(vocab) < vocab_size:
{pick}
        merges.append(best)
        if best[0] + best[1] not in known:
            vocab.append(best[0] + best[1])
            known.add(best[0] + best[1])
        for pair in apply_merge(best, words, freqs, counts, where):
            if counts[pair] > 0:
                heapq.heappush(heap, (-counts[pair], {order}))
    return vocab, merges
'''


def _heap_pick(undo: str = "key") -> str:
    """Pop pairs until one's count is current: the best; ``undo`` makes a heap key a pair."""
    return f'''        best = None
        while heap and best is None:
            negative, key = heapq.heappop(heap)
            top = {undo}
            count = counts.get(top, 0)
            if count == -negative:
                best = top
            elif count:
                heapq.heappush(heap, (-count, key))
        if best is None:
            break'''


DISTINCT = "[list(word) + [EOW] for word in word_freq]", "list(word_freq.values())"
HEAP_PICK = _heap_pick()
SCAN_PICK = '''        top = max(counts.values(), default=0)
        if top <= 0:
            break
        best = min(pair for pair, count in counts.items() if count == top)'''
SCAN_TRAINER = _incremental(*DISTINCT, SCAN_PICK)
# The same scan over a table of the live pairs rebuilt at every merge: it recounts no
# word, so only the scan test may charge it (it once straddled the recount threshold).
TABLE_PICK = '''        live = {pair: count for pair, count in counts.items() if count > 0}
        if not live:
            break
        top = max(live.values())
        best = min(pair for pair, count in live.items() if count == top)'''
TABLE_SCAN_TRAINER = _incremental(*DISTINCT, TABLE_PICK)
# Honest, with another tie-break (the pair smallest read right to left): the exactness
# tests charge it, so its timing tests compare its timed merges with its own
# (``remote.Own``) and must pass: a timing test judges time, never a deviation a
# correctness test charges.
ANOTHER_TIE_BREAK = _incremental(*DISTINCT, _heap_pick("key[::-1]"), order="pair[::-1]")
EVERY_OCCURRENCE_TRAINER = _incremental(
    "[list(word) + [EOW] for text in corpus for word in text.split()]",
    "[1] * len(words)", HEAP_PICK)

# name -> (override appended to the reference, the timing tests meant to catch it)
VARIANTS: dict[str, tuple[str, re.Pattern | None]] = {
    "quadratic ByteLevelBPE.encode_ordinary": (QUADRATIC_ENCODE, re.compile(r"part1::")),
    "trainer that recounts every merge": (RECOUNT_TRAINER, re.compile(r"recount")),
    "trainer that scans every pair per merge": (SCAN_TRAINER, re.compile(r"scanning")),
    "trainer that rebuilds a pair table per merge": (TABLE_SCAN_TRAINER,
                                                     re.compile(r"scanning")),
    "trainer over every occurrence": (EVERY_OCCURRENCE_TRAINER, re.compile(r"duplicat")),
    "reference, another tie-break": (ANOTHER_TIE_BREAK, None),
}
