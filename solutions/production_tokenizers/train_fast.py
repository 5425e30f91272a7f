"""Part 3: a BPE trainer that updates pair counts instead of recounting them.

Follows the first assignment's trainer exactly (same vocabulary, same merges, same ties:
highest count, then the smallest pair), and the incremental design of production trainers
(HF ``tokenizers``' BpeTrainer, sentencepiece's BPE): count the pairs once, then after each
merge change only the counts that the merge changed.

Three structures make a merge cost what it touches, not the size of the corpus:

- ``where``: pair -> indices of the distinct words that contain (or once contained) it, so a
  merge visits only those words;
- ``counts``: pair -> frequency-weighted count, changed locally at each merge site;
- a heap of ``(-count, pair)`` entries with lazy deletion: a pair whose count grew is pushed
  again, and an entry whose count is no longer current is fixed or dropped when it reaches
  the top. Python compares tuples element-wise, so the top is the highest count and, among
  equal counts, the smallest pair: the first assignment's tie rule for free.

Left out: multithreading, byte-level fallback and pre-tokenization regexes (words are
``str.split()`` words, as in the first assignment), and dropping rare words.
"""

import heapq
from collections import Counter, defaultdict

UNK = "<UNK>"  # ID 0 of the first assignment's vocabulary
EOW = " "  # the end-of-word symbol every word ends with


def check_vocab_size(vocab_size: object) -> int:
    """A vocabulary size must be a positive ``int`` (``bool`` is not accepted)."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
    return vocab_size


def apply_merge(
    pair: tuple[str, str],
    words: list[list[str]],
    freqs: list[int],
    counts: dict[tuple[str, str], int],
    where: dict[tuple[str, str], set[int]],
) -> set[tuple[str, str]]:
    """Merge ``pair`` in every word that holds it, in place; return the pairs it created.

    Each merge site changes the counts of the pairs around it, weighted by the word's
    frequency: on each side, the pair with the neighbour becomes the pair of that neighbour
    with the merged symbol. The left neighbour is read after earlier merges in the same word
    (in ``a b a b`` it is the ``ab`` just made), the right one before. The pairs that gain
    count all contain the new symbol: they are indexed in ``where`` and returned. A word that
    no longer holds the pair (``where`` keeps such indices rather than pay to remove them)
    is scanned and left as it is. The pair's own entry is removed from ``counts``.
    """
    first, second = pair
    merged = first + second
    created: set[tuple[str, str]] = set()
    for index in where.pop(pair):
        symbols, freq = words[index], freqs[index]
        i, last = 0, len(symbols) - 1
        while i < last:
            if symbols[i] != first or symbols[i + 1] != second:
                i += 1
                continue
            if i > 0:  # left neighbour: (x, first) becomes (x, merged)
                left = symbols[i - 1]
                counts[left, first] -= freq
                counts[left, merged] += freq
                created.add((left, merged))
                where[left, merged].add(index)
            if i + 1 < last:  # right neighbour: (second, y) becomes (merged, y)
                right = symbols[i + 2]
                counts[second, right] -= freq
                counts[merged, right] += freq
                created.add((merged, right))
                where[merged, right].add(index)
            symbols[i : i + 2] = [merged]
            last -= 1
            i += 1
    del counts[pair]  # every occurrence is merged: its count is 0
    return created


def train_bpe_fast(corpus: list[str], vocab_size: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Learn ``(vocab, merges)`` exactly as the first assignment's ``BPETokenizer.train``."""
    check_vocab_size(vocab_size)
    if isinstance(corpus, str):
        raise TypeError("corpus must be a list of texts, not a single str")
    # 1. Distinct words with their frequencies; each starts as characters + EOW.
    word_freq = Counter(word for text in corpus for word in text.split())
    words = [list(word) + [EOW] for word in word_freq]
    freqs = list(word_freq.values())
    vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
    known = set(vocab)
    merges: list[tuple[str, str]] = []
    # 2. Count every adjacent pair once, and remember which words hold it.
    counts: dict[tuple[str, str], int] = defaultdict(int)
    where: dict[tuple[str, str], set[int]] = defaultdict(set)
    for index, (symbols, freq) in enumerate(zip(words, freqs)):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freq
            where[pair].add(index)
    heap = [(-count, pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    # 3. Merge the best pair until the vocabulary is full or no pair is left.
    while len(vocab) < vocab_size and heap:
        negative, best = heapq.heappop(heap)
        count = counts.get(best, 0)
        if count != -negative:
            # Stale entry: the count moved after this push. Counts that grow are pushed at
            # once (step 4), so no pair hides below its true count; pushing the true count
            # back (if any) keeps that so, and the top of the heap is always the best pair.
            if count:
                heapq.heappush(heap, (-count, best))
            continue
        merges.append(best)
        merged = best[0] + best[1]
        if merged not in known:
            vocab.append(merged)
            known.add(merged)
        # 4. Rewrite only the words that hold the pair; each pair the merge created enters
        #    the heap once (unless a later site in the same word took its count back: a b a b).
        for pair in apply_merge(best, words, freqs, counts, where):
            if counts[pair] > 0:
                heapq.heappush(heap, (-counts[pair], pair))
    return vocab, merges
