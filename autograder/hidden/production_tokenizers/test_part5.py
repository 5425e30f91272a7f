"""Part 5: Unigram (15 points).

A segmentation is graded as the spec says: it must spell ``"▁" + text`` (spaces as ``▁``),
hold only pieces and lone unknown characters, and reach the optimal score within 1e-9;
the tie-break is never checked (float32 SentencePiece and float64 HF disagree on ties).
IDs are compared exactly only on inputs without ties: random vocabularies whose best
segmentation wins by a margin (checked here with a 2-best Viterbi), and a model that
sentencepiece trained on the bundled corpus, with sentencepiece's own IDs (``p46_spm``).
``unigram_prune`` is compared exactly with the reference on vocabularies whose scores are
multiples of 1/4, so every sum is exact and every tie is a real one.
"""

import random

import pytest

import solutions.production_tokenizers as ref
from autograder.suite.checks import (
    by_size,
    check,
    close,
    expect_ids,
    expect_str_list,
    is_number,
    show,
    versus,
)
from autograder.suite.remote import many

from . import p46_spm
from .p46_inputs import (
    SPACE,
    float_vocab,
    prune_case,
    two_best,
    unigram_text,
    unigram_vocab,
)

PART = 5

S = SPACE
TOY = {S: -2.0, S + "a": -3.0, "a": -2.5, "b": -2.5, "ab": -3.5, S + "ab": -4.5, "c": -3.0,
       "bc": -2.0}
SPM_PIECES = {piece: score for piece, (_, score) in p46_spm.PIECES.items()}
SPM_IDS = {piece: i for piece, (i, _) in p46_spm.PIECES.items()}


def view(text: str) -> str:
    return S + text.replace(" ", S)


def best_score(text: str, pieces: dict[str, float]) -> float:
    return two_best(view(text), pieces, min(pieces.values()) - 10)[0]


def tie_free(text: str, pieces: dict[str, float]) -> bool:
    best, second = two_best(view(text), pieces, min(pieces.values()) - 10)
    return best - second > 1e-6


# --- unigram_segment -------------------------------------------------------------------


def segment(student, cases: list[tuple[str, dict[str, float]]]) -> None:
    """Every segmentation valid and optimal (within 1e-9); any tie-break is accepted."""
    kept: dict[int, object] = {}
    for _, pieces in cases:
        if id(pieces) not in kept:
            kept[id(pieces)] = student.put(pieces)
    got_all = many(student, "unigram_segment", [t for t, _ in cases],
                   [kept[id(p)] for _, p in cases],
                   describe=lambda row: f"unigram_segment({show(row[0])}, pieces)")
    for (text, pieces), got in zip(cases, got_all):
        what = lambda: f"unigram_segment({show(text)}, {show(pieces, 120)})"  # noqa: E731
        got = expect_str_list(got, what)
        expected = ref.unigram_segment(text, pieces)
        check("".join(got) == view(text),
              lambda: f"{what()} returned {versus(got, expected)}: the pieces must spell '▁' + "
                      "text with every space as '▁'")
        bad = [p for p in got if p not in pieces and len(p) != 1]
        check(not bad, lambda: f"{what()} returned {versus(got, expected)}: {show(bad[:1])} is "
                               "neither a piece nor a single (unknown) character")
        score = ref.unigram_score(got, pieces)
        best = best_score(text, pieces)
        check(abs(score - best) <= 1e-9,
              lambda: f"{what()} returned {versus(got, expected)}, which scores {show(score)}; "
                      f"the best segmentation scores {show(best)} (an unknown character scores "
                      "min - 10)")


SEGMENT_EXAMPLES = [(t, TOY) for t in ["ab", "abc", "a b", "abxc", "xy", "", " ", "a  b", " ab ",
                                       "bcbc", "ab ab", "éa", "😀😀"]]
SEGMENT_EXAMPLES += [
    ("abz", {S + "ab": -1.0, S + "a": -5.0, "bz": -5.0}),  # the penalty decides: ▁a|bz
    ("abq", {S + "ab": -1.0, S + "a": -5.0, "bz": -5.0}),  # ▁ab|q, q unknown
    ("é", {"x": -3.0}),  # "▁" itself is unknown here
    ("a b c", {S: -1.0, "a": -2.0, "b": -2.0, "c": -2.0, S + "b": -2.5, S + "c": -9.0}),
    ("aaaa", {S: -1.0, "a": -1.0, "aa": -1.5, "aaa": -3.5, S + "aaaa": -4.75}),
    ("xb", {S: -0.5, "b": -0.5, "xb": -1.5, "zz": -0.25}),  # ▁|xb beats an unknown x
]


@pytest.mark.points(2)
def test_segment_examples(student):
    """unigram_segment: Viterbi on "▁" + text (spaces as ▁), unknown characters at min - 10"""
    segment(student, SEGMENT_EXAMPLES)


def random_segment_cases() -> list[tuple[str, dict[str, float]]]:
    cases = []
    for seed in range(40):
        rng = random.Random(800 + seed)
        pieces = unigram_vocab(rng) if seed % 2 else float_vocab(rng)
        cases += [(unigram_text(rng, 12), pieces) for _ in range(6)]
    return by_size(cases)


RANDOM_SEGMENTS = random_segment_cases()


@pytest.mark.points(2)
def test_segment_random_vocabularies(student):
    """unigram_segment on random vocabularies: valid and optimal, ties included"""
    segment(student, RANDOM_SEGMENTS)


@pytest.mark.points(1)
def test_segment_sentencepiece_model(student):
    """unigram_segment with a model sentencepiece trained on the bundled corpus"""
    segment(student, [(text, SPM_PIECES) for text, _ in p46_spm.SAMPLES])


# --- unigram_score ---------------------------------------------------------------------


def score_cases() -> list[tuple[list[str], dict[str, float]]]:
    cases: list[tuple[list[str], dict[str, float]]] = [([], TOY), ([S, "x", "y"], TOY),
                                                         ([S + "a", "bc"], TOY), (["é"], TOY)]
    for seed in range(30):
        rng = random.Random(900 + seed)
        pieces = float_vocab(rng)
        text = view(unigram_text(rng, 10))
        cut, start = [], 0  # a random valid segmentation: pieces and unknown characters
        while start < len(text):
            ends = [e for e in range(start + 1, len(text) + 1)
                    if text[start:e] in pieces or e == start + 1]
            end = rng.choice(ends)
            cut.append(text[start:end])
            start = end
        cases.append((cut, pieces))
    return cases


SCORE_CASES = score_cases()


@pytest.mark.points(2)
def test_unigram_score(student):
    """unigram_score adds the pieces' scores; an unknown character counts min - 10"""
    got_all = many(student, "unigram_score", [c for c, _ in SCORE_CASES],
                   [p for _, p in SCORE_CASES],
                   describe=lambda row: f"unigram_score({show(row[0])}, pieces)")
    for (cut, pieces), got in zip(SCORE_CASES, got_all):
        what = f"unigram_score({show(cut)}, {show(pieces, 120)})"
        check(is_number(got), lambda: f"{what} should return a float, got {show(got)}")
        expected = ref.unigram_score(cut, pieces)
        check(close(got, expected), lambda: f"{what} returned {versus(got, expected)}")


# --- unigram_encode --------------------------------------------------------------------


def encode_cases() -> list[tuple[str, dict, dict, int]]:
    toy_ids = {piece: i for i, piece in enumerate(sorted(TOY), start=3)}
    cases = [(t, TOY, toy_ids, 0) for t in ["ab", "axyzb", "axbyc", "xyz", "é😀 ab", "x y",
                                             "", "ab  c"]]
    cases += [("x", {"x": -1.0}, {"x": 7}, 99), ("ééaé", {S: -1.0, "a": -1.0}, {S: 1, "a": 2}, 5)]
    rng = random.Random(1000)
    while len(cases) < 120:
        pieces = unigram_vocab(rng)
        order = list(pieces)
        rng.shuffle(order)
        ids = {piece: 10 + i for i, piece in enumerate(order)}
        for _ in range(8):
            text = unigram_text(rng, 12)
            if tie_free(text, pieces):
                cases.append((text, pieces, ids, rng.choice([0, 1, 9])))
    return by_size(cases)


ENCODE_CASES = encode_cases()


def encode(student, cases: list[tuple[str, dict, dict, int]], source: str) -> None:
    columns = [[c[i] for c in cases] for i in range(4)]
    got_all = many(student, "unigram_encode", *columns,
                   describe=lambda row: f"unigram_encode({show(row[0])}, pieces, piece_to_id, "
                                        f"{show(row[3])})")
    for (text, pieces, ids, unk_id), got in zip(cases, got_all):
        what = (f"unigram_encode({show(text)}, {show(pieces, 100)}, piece_to_id, "
                f"{show(unk_id)})")
        got = expect_ids(got, what)
        expected = ref.unigram_encode(text, pieces, ids, unk_id)
        check(got == expected, lambda: f"{what} returned {versus(got, expected)} ({source})")


@pytest.mark.points(2)
def test_unigram_encode(student):
    """unigram_encode: IDs of the best segmentation; a run of unknown characters is one unk_id"""
    encode(student, ENCODE_CASES, "inputs without ties")


@pytest.mark.points(2)
def test_encode_sentencepiece_ids(student):
    """unigram_encode gives sentencepiece's own IDs with a model trained on the corpus"""
    pieces, ids = student.put(SPM_PIECES), student.put(SPM_IDS)
    texts = [text for text, _ in p46_spm.SAMPLES]
    got_all = many(student, "unigram_encode", texts, [pieces] * len(texts), [ids] * len(texts),
                   [p46_spm.UNK_ID] * len(texts),
                   describe=lambda row: f"unigram_encode({show(row[0])}, pieces, ids, "
                                        f"{p46_spm.UNK_ID})")
    for (text, expected), got in zip(p46_spm.SAMPLES, got_all):
        what = f"unigram_encode({show(text)}, sentencepiece's pieces, ids, {p46_spm.UNK_ID})"
        got = expect_ids(got, what)
        check(got == expected,
              lambda: f"{what} returned {versus(got, expected)} (sentencepiece's IDs; "
                      "this text has no ties)")


# --- unigram_prune ---------------------------------------------------------------------


def prune(student, cases: list[tuple[dict[str, int], dict[str, float], int]]) -> None:
    columns = [[c[i] for c in cases] for i in range(3)]
    got_all = many(student, "unigram_prune", *columns,
                   describe=lambda row: f"unigram_prune({show(row[0])}, pieces, {show(row[2])})")
    for (words, pieces, keep), got in zip(cases, got_all):
        what = f"unigram_prune({show(words)}, {show(pieces, 140)}, keep={show(keep)})"
        check(type(got) is dict, lambda: f"{what} should return a dict, got {show(got)}")
        expected = ref.unigram_prune(words, pieces, keep)
        if set(got) != set(expected):  # type: ignore[arg-type]
            check(False, lambda: f"{what} kept {versus(sorted(got), sorted(expected))}")
        check(got == expected, lambda: f"{what} changed the scores: {versus(got, expected)}")


PRUNE_EXAMPLES = [
    ({"ab": 3, "abc": 2, "bc": 1}, TOY, keep) for keep in (0, 4, 5, 6, 7, 8, 9)
] + [
    # The unknown score stays min of the full vocabulary - 10 during the round.
    ({"az": 1, "bc": 1}, {S: -1.0, "a": -1.0, "b": -0.125, "c": -0.125, S + "a": -1.5,
                          S + "bc": -0.875}, 5),
    # Losses are weighted by word frequency, and equal losses go to the smaller piece.
    ({"x": 1, "y": 3}, {S: -1.0, "x": -3.0, "y": -3.0, S + "x": -2.0, S + "y": -2.0}, 4),
    ({"x": 3, "y": 3}, {S: -1.0, "x": -3.0, "y": -3.0, S + "y": -2.0, S + "x": -2.0}, 4),
    ({"y": 2, "x": 3}, {S: -1.0, "x": -3.0, "y": -3.0, S + "x": -2.0, S + "y": -2.0}, 4),
    # Pieces that no best segmentation uses lose nothing: kept in string order.
    ({"ab": 1}, {S: -1.0, "a": -1.0, "b": -1.0, "zz": -2.0, "yy": -2.0, S + "ab": -1.5}, 5),
    # Removing one piece can make another one used: a loss is against the full vocabulary.
    ({"abc": 4, "ab": 1}, {S: -2.0, "a": -3.0, "b": -3.0, "c": -3.0, S + "abc": -4.0,
                           S + "ab": -4.5, "c" * 2: -1.0, "bc": -3.5}, 6),
]


@pytest.mark.points(1)
def test_prune_examples(student):
    """unigram_prune keeps the single characters and the pieces whose removal costs most"""
    prune(student, PRUNE_EXAMPLES)


@pytest.mark.points(1)
def test_prune_float_noise_is_no_loss(student):
    """Losses that differ by float noise only are equal (rounded to 9 decimals): a tie"""
    # "▁a" (-0.3) and "▁" + "a" (-0.1 + -0.2 = -0.30000000000000004) are equal in exact
    # arithmetic: "▁a" loses 0, like the unused "aa", which wins the tie as the smaller piece.
    noisy = {S: -0.1, "a": -0.2, S + "a": -0.3, "aa": -5.0}
    prune(student, [({"a": 1}, noisy, 3), ({"a": 7, "b": 2}, {**noisy, "b": -0.7,
                                                              S + "b": -0.8}, 4)])


PRUNE_RANDOM = by_size([prune_case(random.Random(1100 + seed)) for seed in range(60)])


@pytest.mark.points(2)
def test_prune_random_vocabularies(student):
    """unigram_prune on random words and vocabularies, exactly as the reference"""
    prune(student, PRUNE_RANDOM)
