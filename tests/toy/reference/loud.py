"""Part 2: shout words, and find the loudest (most frequent) word with Part 1's counts."""

from .words import count_words


class Shouter:
    """Upper-cases words, adding ``marks`` exclamation marks."""

    def __init__(self, marks: int = 1) -> None:
        self.marks = marks

    def shout(self, word: str) -> str:
        return word.upper() + "!" * self.marks


def loudest(text: str) -> str:
    """The most frequent word of ``text`` (the first in sorted order on a tie), shouted."""
    counts = count_words(text)
    if not counts:
        raise ValueError("no words")
    best = min(counts, key=lambda word: (-counts[word], word))
    return Shouter().shout(best)
