"""Part 1: count the words of a text."""

SEPARATOR = " "


def count_words(text: str) -> dict[str, int]:
    """How often each word occurs; words are separated by ``SEPARATOR``, empty ones skipped."""
    if not isinstance(text, str):
        raise TypeError("count_words expects a str")
    counts: dict[str, int] = {}
    for word in text.split(SEPARATOR):
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
