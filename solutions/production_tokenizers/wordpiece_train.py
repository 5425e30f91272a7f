"""Part 4: training a WordPiece vocabulary with the likelihood score.

Follows the rule that Schuster & Nakajima (2012) and the BERT papers describe and that HF's
course teaches: like BPE, start from characters and merge adjacent pairs, but merge the pair
with the highest ``count(a, b) / (count(a) * count(b))`` rather than the most frequent one.
The score prefers pairs whose parts rarely occur apart ("q" + "##u"), not merely common pairs.

Left out on purpose: any speed-up (every merge recounts every pair, as the first
assignment's naive BPE does), special tokens, and a character-frequency cut-off for the
alphabet. No library implements this rule: HF's ``WordPieceTrainer`` is frequency BPE that
writes ``##`` prefixes.
"""

from collections import Counter
from fractions import Fraction

from .wordpiece import CONTINUATION, bert_pretokenize

UNK_TOKEN = "[UNK]"


def initial_split(word: str) -> tuple[str, ...]:
    """A word starts as its first character followed by ``##``-prefixed characters."""
    return (word[0],) + tuple(CONTINUATION + char for char in word[1:])


def merged_token(a: str, b: str) -> str:
    """``a`` glued to ``b`` without ``b``'s ``##`` (``"##q" + "##u"`` -> ``"##qu"``)."""
    return a + b.removeprefix(CONTINUATION)


def merge_in_word(pieces: tuple[str, ...], a: str, b: str) -> tuple[str, ...]:
    """Replace every adjacent ``(a, b)`` of one word, left to right, without overlaps."""
    out: list[str] = []
    i = 0
    while i < len(pieces):
        if i + 1 < len(pieces) and pieces[i] == a and pieces[i + 1] == b:
            out.append(merged_token(a, b))
            i += 2
        else:
            out.append(pieces[i])
            i += 1
    return tuple(out)


def likelihood_scores(words: Counter) -> dict[tuple[str, str], Fraction]:
    """``count(a, b) / (count(a) * count(b))`` for every adjacent pair, weighted by frequency.

    Exact fractions, so that equal scores are equal ties whatever the order of the division.
    """
    token_counts: Counter = Counter()
    pair_counts: Counter = Counter()
    for pieces, freq in words.items():
        for piece in pieces:
            token_counts[piece] += freq
        for pair in zip(pieces, pieces[1:]):
            pair_counts[pair] += freq
    return {
        (a, b): Fraction(count, token_counts[a] * token_counts[b])
        for (a, b), count in pair_counts.items()
    }


def train_wordpiece(corpus: list[str], vocab_size: int) -> list[str]:
    """Learn a WordPiece vocabulary of at most ``vocab_size`` tokens from ``corpus``.

    ``vocab = ["[UNK]"] + sorted(alphabet)`` and then one token per merge, in merge order.
    Ties go to the lexicographically smallest pair; training stops early when no word has
    two pieces left. The vocabulary is never cut below its alphabet.
    """
    # 1. Words and their frequencies; each word as its initial pieces.
    words: Counter = Counter()
    for text in corpus:
        for word in bert_pretokenize(text):
            words[initial_split(word)] += 1
    # 2. The alphabet is every piece of the initial split.
    alphabet = {piece for pieces in words for piece in pieces}
    vocab = [UNK_TOKEN] + sorted(alphabet)
    known = set(vocab)
    while len(vocab) < vocab_size:
        # 3. Score every pair; the best is the highest score, then the smallest pair.
        scores = likelihood_scores(words)
        if not scores:
            break
        a, b = min(scores, key=lambda pair: (-scores[pair], pair))
        # 4. Record the new token and apply the merge in every word.
        token = merged_token(a, b)
        if token not in known:
            vocab.append(token)
            known.add(token)
        merged: Counter = Counter()
        for pieces, freq in words.items():
            merged[merge_in_word(pieces, a, b)] += freq
        words = merged
    return vocab
