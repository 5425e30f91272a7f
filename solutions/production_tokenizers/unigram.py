"""Part 5: the Unigram language-model tokenizer: Viterbi segmentation and one pruning round.

Follows Kudo (2018) as SentencePiece implements it: text is seen with ``"▁"`` for every space
and one ``"▁"`` in front; every piece has a log-probability (its score); the segmentation
maximises the sum of the scores. A character that is not a piece on its own becomes an
unknown piece scored ``min(scores) - 10`` (SentencePiece's ``kUnkPenalty``), so every text
has a segmentation. Training alternates EM re-estimation of the scores with pruning; here
only the pruning step: drop the pieces whose removal costs the corpus least likelihood.

Left out on purpose: EM, seed-vocabulary construction (suffix arrays), normalization, byte
fallback, sampling (subword regularisation), and SentencePiece's rule of keeping a piece's
share of the probability when it is removed (here scores stay unchanged).
"""

import math

SPACE = "▁"  # U+2581, SentencePiece's visible space
UNK_PENALTY = 10.0


def sentencepiece_view(text: str) -> str:
    """``"▁" + text`` with every space replaced by ``"▁"``."""
    return SPACE + text.replace(" ", SPACE)


def unknown_score(pieces: dict[str, float]) -> float:
    """The score of a character that is not a piece: the lowest score minus 10."""
    if not pieces:
        raise ValueError("pieces must not be empty")
    return min(pieces.values()) - UNK_PENALTY


def viterbi(
    text: str, pieces: dict[str, float], unk_score: float
) -> tuple[float, list[str]]:
    """Best score and segmentation of ``text`` as it stands (no ``▁`` added).

    ``best[i]`` is the best score of ``text[:i]``; each end position looks back at every
    piece that ends there, longest first; a strictly better score replaces the current one.
    """
    longest = max((len(piece) for piece in pieces), default=1)
    best = [0.0] + [-math.inf] * len(text)
    back = [0] * (len(text) + 1)  # start of the last piece of the best path to i
    for end in range(1, len(text) + 1):
        for start in range(max(0, end - longest), end):
            piece = text[start:end]
            if piece in pieces:
                score = best[start] + pieces[piece]
            elif end - start == 1:
                score = best[start] + unk_score  # a lone character that is no piece
            else:
                continue
            if score > best[end]:
                best[end], back[end] = score, start
    # Walk back from the end to read the pieces off.
    segmentation: list[str] = []
    end = len(text)
    while end > 0:
        segmentation.append(text[back[end] : end])
        end = back[end]
    return best[-1], segmentation[::-1]


def unigram_segment(text: str, pieces: dict[str, float]) -> list[str]:
    """The highest-scoring segmentation of ``"▁" + text`` (spaces as ``"▁"``).

    An unknown character is returned as itself. Among equal best scores any one is correct.

    >>> unigram_segment("ab", {"▁": -1.0, "▁a": -2.0, "a": -3.0, "b": -1.5})
    ['▁a', 'b']
    """
    return viterbi(sentencepiece_view(text), pieces, unknown_score(pieces))[1]


def unigram_score(segmentation: list[str], pieces: dict[str, float]) -> float:
    """Sum of the pieces' scores, an unknown single character counting ``min - 10``."""
    unk = unknown_score(pieces)
    total = 0.0
    for piece in segmentation:
        if piece in pieces:
            total += pieces[piece]
        elif len(piece) == 1:
            total += unk
        else:
            raise ValueError(f"{piece!r} is neither a piece nor a single character")
    return total


def unigram_encode(
    text: str, pieces: dict[str, float], piece_to_id: dict[str, int], unk_id: int
) -> list[int]:
    """IDs of ``unigram_segment(text)``; a run of unknown characters is one ``unk_id``."""
    ids: list[int] = []
    previous_unknown = False
    for piece in unigram_segment(text, pieces):
        unknown = piece not in pieces
        if not (unknown and previous_unknown):  # the rest of a run adds nothing
            ids.append(unk_id if unknown else piece_to_id[piece])
        previous_unknown = unknown
    return ids


def unigram_prune(
    word_freq: dict[str, int], pieces: dict[str, float], keep: int
) -> dict[str, float]:
    """One pruning round: keep ``keep`` pieces, dropping those the corpus misses least.

    ``loss(p) = sum over words w of freq(w) * (best(w) - best(w without p))`` with ``best``
    the Viterbi score of ``"▁" + w``; the unknown score stays that of the full vocabulary.
    Single characters are always kept; the other places go to the largest losses, ties to
    the smaller piece. Losses are rounded to 9 decimals first, so that float noise between
    equal-score segmentations (about 1e-16) cannot break a true tie. Scores are unchanged.
    """
    unk = unknown_score(pieces)
    views = {word: sentencepiece_view(word) for word in word_freq}
    best = {word: viterbi(view, pieces, unk) for word, view in views.items()}
    # 1. Loss of each multi-character piece; a word whose best path avoids it loses nothing.
    losses: dict[str, float] = {}
    for piece in pieces:
        if len(piece) == 1:
            continue
        without = {p: s for p, s in pieces.items() if p != piece}
        loss = 0.0
        for word, (score, segmentation) in best.items():
            if piece in segmentation:
                loss += word_freq[word] * (score - viterbi(views[word], without, unk)[0])
        losses[piece] = round(loss, 9)
    # 2. Single characters, then the largest losses (ties: smaller piece first).
    ranked = sorted(losses, key=lambda piece: (-losses[piece], piece))
    singles = [piece for piece in pieces if len(piece) == 1]
    kept = set(singles) | set(ranked[: max(0, keep - len(singles))])
    return {piece: score for piece, score in pieces.items() if piece in kept}
