"""Part 4: the three building blocks of the BPE trainer.

They follow Sennrich et al. (2016), "Neural Machine Translation of Rare Words with
Subword Units": count words once, count adjacent symbol pairs weighted by word
frequency, merge the winning pair everywhere. Kept separate from the class so each
step can be tested, and reused by a faster trainer, on its own.
"""

from collections import Counter


def word_frequencies(corpus: list[str]) -> Counter:
    """How often each whitespace-separated word occurs across all texts."""
    return Counter(word for text in corpus for word in text.split())


def count_pairs(word_tokens: dict[str, list[str]], word_freq: dict[str, int]) -> Counter:
    """Count adjacent token pairs at every position, weighted by word frequency.

    A word ``aaa`` split as ``['a', 'a', 'a', ' ']`` holds the pair ``('a', 'a')``
    twice, so it adds ``2 * freq`` to that pair.
    """
    counts: Counter = Counter()
    for word, tokens in word_tokens.items():
        freq = word_freq[word]
        for pair in zip(tokens, tokens[1:]):
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
        if i + 1 < len(tokens) and tokens[i] == first and tokens[i + 1] == second:
            merged.append(first + second)
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged
