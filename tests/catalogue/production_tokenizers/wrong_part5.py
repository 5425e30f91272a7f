"""Part 5 (Unigram): wrong implementations students hand in.

(About 390 lines: 21 entries, each the whole function a student hands in.)

The ``▁`` view, the unknown penalty, Viterbi itself, scoring, the unknown runs of
``unigram_encode``, and one pruning round. Each witness shows the bug on a small input.
"""

from ..catalogue import differs
from . import wrong

S = "▁"
TOY = {S: -2.0, S + "a": -3.0, "a": -2.5, "b": -2.5, "ab": -3.5, S + "ab": -4.5, "c": -3.0,
       "bc": -2.0}
TOY_IDS = {piece: i for i, piece in enumerate(sorted(TOY), start=1)}


def score_of(ns, text, pieces=TOY):
    """The reference's score of the entry's segmentation (the grader's own check)."""
    return ns["unigram_score"](ns["unigram_segment"](text, pieces), pieces)


def segment(ns, text, pieces=TOY):
    return ns["unigram_segment"](text, pieces)


# --- unigram_segment ------------------------------------------------------------------


def edited(source: str, *changes: tuple[str, str]) -> str:
    """``source`` with each ``(text, replacement)`` applied: the code of a student whose
    function differs from the reference's in those lines."""
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new)
    return source


# The reference's Viterbi as one function, as a student writes it.
SEGMENT = """
def unigram_segment(text, pieces):
    view = "▁" + text.replace(" ", "▁")
    unk = min(pieces.values()) - 10
    longest = max(len(piece) for piece in pieces)
    best = [0.0] + [-math.inf] * len(view)
    back = [0] * (len(view) + 1)
    for end in range(1, len(view) + 1):
        for start in range(max(0, end - longest), end):
            piece = view[start:end]
            if piece in pieces:
                score = best[start] + pieces[piece]
            elif end - start == 1:
                score = best[start] + unk
            else:
                continue
            if score > best[end]:
                best[end], back[end] = score, start
    segmentation, end = [], len(view)
    while end > 0:
        segmentation.append(view[back[end]:end])
        end = back[end]
    return segmentation[::-1]
"""


@wrong(
    5,
    "an unknown character scores like the rarest piece",
    edited(SEGMENT, ("unk = min(pieces.values()) - 10", "unk = min(pieces.values())")),
)
def p5_no_unknown_penalty(bug, ref):
    differs(bug, ref, lambda ns: segment(ns, "abz", {S + "ab": -1.0, S + "a": -5.0, "bz": -5.0}))


@wrong(
    5,
    "SentencePiece marks the start of the text with ▁; spaces stay spaces",
    edited(SEGMENT, ('view = "▁" + text.replace(" ", "▁")', 'view = "▁" + text')),
)
def p5_space_only_at_start(bug, ref):
    differs(bug, ref, lambda ns: segment(ns, "a b"))


@wrong(
    5,
    "every space becomes ▁, and that is all",
    edited(SEGMENT, ('view = "▁" + text.replace(" ", "▁")', 'view = text.replace(" ", "▁")')),
)
def p5_no_leading_space(bug, ref):
    differs(bug, ref, lambda ns: segment(ns, "ab"))


@wrong(
    5,
    "a piece as long as the longest piece ends one position later",
    edited(SEGMENT, ("range(max(0, end - longest), end)", "range(max(0, end - longest + 1), end)")),
)
def p5_window_too_short(bug, ref):
    differs(bug, ref, lambda ns: segment(ns, "ab"))


@wrong(
    5,
    "take the longest piece at each position, as WordPiece does",
    """
    def unigram_segment(text, pieces):
        view = "▁" + text.replace(" ", "▁")
        longest = max(len(piece) for piece in pieces)
        out, start = [], 0
        while start < len(view):
            for end in range(min(len(view), start + longest), start, -1):
                if view[start:end] in pieces or end == start + 1:
                    out.append(view[start:end])
                    start = end
                    break
        return out
    """,
)
def p5_greedy_longest_match(bug, ref):
    differs(bug, ref, lambda ns: score_of(ns, "abc"))


@wrong(
    5,
    "the best segmentation has the fewest pieces; scores only break ties",
    """
    def unigram_segment(text, pieces):
        view = "▁" + text.replace(" ", "▁")
        unk = min(pieces.values()) - 10
        longest = max(len(piece) for piece in pieces)
        best = [(0, 0.0)] + [(math.inf, 0.0)] * len(view)
        back = [0] * (len(view) + 1)
        for end in range(1, len(view) + 1):
            for start in range(max(0, end - longest), end):
                piece = view[start:end]
                if piece not in pieces and end - start > 1:
                    continue
                count, cost = best[start]
                option = (count + 1, cost - pieces.get(piece, unk))
                if option < best[end]:
                    best[end], back[end] = option, start
        segmentation, end = [], len(view)
        while end > 0:
            segmentation.append(view[back[end]:end])
            end = back[end]
        return segmentation[::-1]
    """,
)
def p5_fewest_pieces(bug, ref):
    # ▁|b|c|b|c scores -5; the fewest pieces, ▁bcb|c, score -10.
    differs(bug, ref, lambda ns: score_of(ns, "bcbc", {S: -1.0, "b": -1.0, "c": -1.0,
                                                      S + "bcb": -9.0}))


# --- unigram_score and unigram_encode -------------------------------------------------


@wrong(
    5,
    "the unknown penalty is a fixed -10",
    """
    def unigram_score(segmentation, pieces):
        return sum(pieces.get(piece, -10.0) for piece in segmentation)
    """,
)
def p5_unknown_fixed_score(bug, ref):
    differs(bug, ref, lambda ns: ns["unigram_score"]([S, "x"], TOY))


@wrong(
    5,
    "an unknown character is not a piece, so it adds nothing to the score",
    """
    def unigram_score(segmentation, pieces):
        return sum(pieces.get(piece, 0.0) for piece in segmentation)
    """,
)
def p5_score_ignores_unknown(bug, ref):
    differs(bug, ref, lambda ns: ns["unigram_score"]([S, "x"], TOY))


@wrong(
    5,
    "every unknown character gets its own unk_id",
    """
    def unigram_encode(text, pieces, piece_to_id, unk_id):
        return [piece_to_id.get(piece, unk_id) if piece in pieces else unk_id
                for piece in unigram_segment(text, pieces)]
    """,
)
def p5_encode_unknown_each(bug, ref):
    differs(bug, ref, lambda ns: ns["unigram_encode"]("axyzb", TOY, TOY_IDS, 0))


@wrong(
    5,
    "a run is the same ID repeated: never write an ID twice in a row",
    """
    def unigram_encode(text, pieces, piece_to_id, unk_id):
        ids = []
        for piece in unigram_segment(text, pieces):
            i = piece_to_id[piece] if piece in pieces else unk_id
            if not ids or ids[-1] != i:
                ids.append(i)
        return ids
    """,
)
def p5_encode_collapses_repeats(bug, ref):
    differs(bug, ref, lambda ns: ns["unigram_encode"]("bcbc", TOY, TOY_IDS, 0))


@wrong(
    5,
    "unknown characters and ▁ are both filler: a run of them is one unk_id",
    """
    def unigram_encode(text, pieces, piece_to_id, unk_id):
        ids, previous = [], False
        for piece in unigram_segment(text, pieces):
            unknown = piece not in pieces
            if unknown and previous:
                continue
            ids.append(unk_id if unknown else piece_to_id[piece])
            previous = unknown or piece == SPACE
        return ids
    """,
)
def p5_encode_unknown_run_after_space(bug, ref):
    differs(bug, ref, lambda ns: ns["unigram_encode"]("a x", TOY, TOY_IDS, 0))


# --- unigram_prune ---------------------------------------------------------------------

WORDS = {"ab": 3, "abc": 2, "bc": 1}


def pruned(ns, words=WORDS, pieces=TOY, keep=6):
    return ns["unigram_prune"](dict(words), dict(pieces), keep)


PRUNE = """
def unigram_prune(word_freq, pieces, keep):
    unk = unknown_score(pieces)
    views = {word: sentencepiece_view(word) for word in word_freq}
    best = {word: viterbi(view, pieces, unk) for word, view in views.items()}
    losses = {}
    for piece in pieces:
        if len(piece) == 1:
            continue
        without = {p: s for p, s in pieces.items() if p != piece}
        loss = 0.0
        for word, (score, segmentation) in best.items():
            if piece in segmentation:
                loss += word_freq[word] * (score - viterbi(views[word], without, unk)[0])
        losses[piece] = round(loss, 9)
    ranked = sorted(losses, key=lambda piece: (-losses[piece], piece))
    singles = [piece for piece in pieces if len(piece) == 1]
    kept = set(singles) | set(ranked[: max(0, keep - len(singles))])
    return {piece: score for piece, score in pieces.items() if piece in kept}
"""


def prune_with(*changes: tuple[str, str]) -> str:
    """The reference's ``unigram_prune`` with each ``(line, replacement)`` applied: the code
    of a student whose pruning round differs in those lines."""
    code = PRUNE
    for old, new in changes:
        assert old in code, old
        code = code.replace(old, new)
    return code


TWINS = {S: -1.0, "x": -3.0, "y": -3.0, S + "x": -2.0, S + "y": -2.0}


@wrong(
    5,
    "single characters compete for a place like every other piece",
    prune_with(("        if len(piece) == 1:\n            continue\n", ""),
               ("singles = [piece for piece in pieces if len(piece) == 1]", "singles = []")),
)
def p5_prune_drops_single_characters(bug, ref):
    differs(bug, ref, lambda ns: pruned(ns, keep=2))


@wrong(
    5,
    "the loss of a piece is over the distinct words",
    prune_with(("loss += word_freq[word] * (", "loss += (")),
)
def p5_prune_unweighted(bug, ref):
    differs(bug, ref, lambda ns: pruned(ns, {"x": 1, "y": 3}, TWINS, 4))


@wrong(
    5,
    "without a piece, the unknown score follows the smaller vocabulary",
    prune_with(("viterbi(views[word], without, unk)", "viterbi(views[word], without, "
                                                     "unknown_score(without))")),
)
def p5_prune_unknown_score_of_smaller_vocabulary(bug, ref):
    pieces = {S: -1.0, "a": -1.0, "b": -0.125, "c": -0.125, S + "a": -1.5, S + "bc": -0.875}
    differs(bug, ref, lambda ns: pruned(ns, {"az": 1, "bc": 1}, pieces, 5))


@wrong(
    5,
    "equal losses: keep the larger piece",
    prune_with(("key=lambda piece: (-losses[piece], piece))",
                "key=lambda piece: (losses[piece], piece), reverse=True)")),
)
def p5_prune_ties_to_larger_piece(bug, ref):
    differs(bug, ref, lambda ns: pruned(ns, {"x": 1, "y": 1}, TWINS, 4))


@wrong(
    5,
    "keep counts the pieces that can be pruned; single characters come on top",
    prune_with(("ranked[: max(0, keep - len(singles))]", "ranked[:keep]")),
)
def p5_prune_keep_excludes_singles(bug, ref):
    differs(bug, ref, pruned)


@wrong(
    5,
    "prune the pieces that cost most; keep the cheap ones",
    prune_with(("key=lambda piece: (-losses[piece], piece))",
                "key=lambda piece: (losses[piece], piece))")),
)
def p5_prune_keeps_smallest_losses(bug, ref):
    differs(bug, ref, pruned)


@wrong(
    5,
    "the loss of a piece is how often the best segmentations use it",
    prune_with(("loss += word_freq[word] * (score - viterbi(views[word], without, unk)[0])",
                "loss += word_freq[word] * segmentation.count(piece)")),
)
def p5_prune_loss_is_usage(bug, ref):
    differs(bug, ref, pruned)


@wrong(
    5,
    "float losses can be compared as they are",
    prune_with(("losses[piece] = round(loss, 9)", "losses[piece] = loss")),
)
def p5_prune_float_noise(bug, ref):
    noisy = {S: -0.1, "a": -0.2, S + "a": -0.3, "aa": -5.0}
    differs(bug, ref, lambda ns: pruned(ns, {"a": 1}, noisy, 3))


@wrong(
    5,
    "a word is scored as it is, without the ▁ in front",
    prune_with(("views = {word: sentencepiece_view(word) for word in word_freq}",
                "views = {word: word for word in word_freq}")),
)
def p5_prune_words_without_space(bug, ref):
    differs(bug, ref, pruned)


@wrong(
    5,
    "prune one piece at a time, recomputing the losses after each removal",
    """
    def unigram_prune(word_freq, pieces, keep):
        pieces = dict(pieces)
        unk = unknown_score(pieces)
        while len(pieces) > keep:
            losses = {}
            for piece in pieces:
                if len(piece) == 1:
                    continue
                without = {p: s for p, s in pieces.items() if p != piece}
                losses[piece] = round(sum(
                    freq * (viterbi(sentencepiece_view(w), pieces, unk)[0]
                            - viterbi(sentencepiece_view(w), without, unk)[0])
                    for w, freq in word_freq.items()), 9)
            if not losses:
                break
            del pieces[min(losses, key=lambda piece: (losses[piece], piece))]
        return pieces
    """,
)
def p5_prune_one_at_a_time(bug, ref):
    pieces = {"a": -7.5, "b": -3.75, "d": -1.0, S: -3.0, "cc": -8.5, "ab": -5.25, "dd": -4.25,
              "cdd": -1.25, S + "cdd": -10.25, "ddab": -1.0}
    differs(bug, ref, lambda ns: pruned(ns, {"cdd": 2, "ddab": 1, "cc": 15}, pieces, 8))
