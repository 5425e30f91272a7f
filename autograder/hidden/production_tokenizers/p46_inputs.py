"""Generated inputs of the hidden tests of Parts 4-6 (WordPiece, Unigram, token costs).

Everything is seeded, so a submission always meets the same examples. Random text draws
only code points that the grader's ``unicodedata`` assigns (the spec's rule: no unassigned
code point, no surrogate), mixed with the characters each part is about: every White_Space
character and the separators that are not White_Space, ASCII and Unicode punctuation,
symbols that are not punctuation, combining marks, CJK and emoji.

Unigram vocabularies have scores that are multiples of 1/4 where ties matter: their sums are
exact in floating point, so a tie is a real tie, never rounding noise.
"""

import random
import unicodedata

from solutions.production_tokenizers.wordpiece import WHITE_SPACE

SPACE = "▁"  # SentencePiece's visible space, U+2581

# --- Part 4: text for BERT's pre-tokenizer ---------------------------------------------

WHITE = sorted(WHITE_SPACE)
# isspace() but not White_Space (U+001C-U+001F), format and control characters: inside words.
NOT_WHITE = ["\x1c", "\x1d", "\x1e", "\x1f", "\u200b", "\u2060", "\ufeff", "\u180e", "\x00",
             "\x7f", "\u200d"]
ASCII_PUNCT = [chr(c) for c in [*range(33, 48), *range(58, 65), *range(91, 97), *range(123, 127)]]
# Category P*: new in Unicode 14 (U+2E56), outside the BMP (U+11666, U+1145B), and common ones.
UNICODE_PUNCT = ["¿", "¡", "«", "»", "「", "」", "—", "–", "‐", "…", "‘", "’", "“", "”", "·", "§",
                 "¶", "†", "‰", "※", "、", "。", "・", "《", "》", "【", "】", "\u2e56",
                 "\U00011666", "\U0001145b", "\u055d", "\u0964", "\u061f", "\U0001e95e", "﹏",
                 "＿", "＃"]
# Symbols (S*) outside BERT's ASCII ranges, and other characters that stay inside words.
NOT_PUNCT = ["€", "£", "×", "÷", "©", "°", "±", "¬", "¦", "™", "→", "∑", "√", "♥", "★", "😀",
             "🤗", "👍🏽", "\u0301", "\u0308", "²", "½", "٣", "४"]
LETTERS = ("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789éèßñüçØΩЖжאבعربي日本語中文한국어"
           "नमस्ते")
PLANES = [(0x20, 0x2FFF), (0x3000, 0xFFFF), (0x10000, 0x1FFFF), (0x20000, 0x3134F),
          (0xE0000, 0xE01EF)]


def assigned_char(rng: random.Random) -> str:
    """A random code point that the running Python's Unicode assigns (not a surrogate)."""
    while True:
        char = chr(rng.randint(*rng.choice(PLANES)))
        if unicodedata.category(char) not in ("Cn", "Cs"):
            return char


def bert_text(rng: random.Random, pieces: int = 10) -> str:
    """Words, white space of every kind, punctuation runs and random characters, joined."""
    out = []
    for _ in range(rng.randint(0, pieces)):
        roll = rng.random()
        if roll < 0.35:
            out.append("".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 6))))
        elif roll < 0.55:
            out.append("".join(rng.choice(WHITE) for _ in range(rng.randint(1, 3))))
        elif roll < 0.7:
            pool = ASCII_PUNCT + UNICODE_PUNCT
            out.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 3))))
        elif roll < 0.8:
            out.append(rng.choice(NOT_PUNCT + NOT_WHITE))
        else:
            out.append("".join(assigned_char(rng) for _ in range(rng.randint(1, 3))))
    return "".join(out)


# --- Part 4: WordPiece vocabularies ---------------------------------------------------

WP_ALPHABET = "ab#é日😀"


def wordpiece_vocab(rng: random.Random, alphabet: str = WP_ALPHABET) -> dict[str, int]:
    """Random pieces of 1-4 characters, about half with ``##``, and ``[UNK]``; shuffled IDs."""
    tokens = {"[UNK]"}
    for char in alphabet:  # most single characters, as a start and as a continuation
        if rng.random() < 0.8:
            tokens.add(char)
        if rng.random() < 0.8:
            tokens.add("##" + char)
    for _ in range(rng.randint(3, 14)):
        piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4)))
        tokens.add(("##" if rng.random() < 0.5 else "") + piece)
    ordered = sorted(tokens)
    ids = list(range(len(ordered)))
    rng.shuffle(ids)
    return dict(zip(ordered, ids))


def random_word(rng: random.Random, alphabet: str = WP_ALPHABET, longest: int = 8) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest)))


# --- Part 5: Unigram vocabularies -----------------------------------------------------

UNI_LETTERS = "abc" + SPACE


def quarter_score(rng: random.Random, low: int, high: int) -> float:
    """A score that is a multiple of -1/4, between -high/4 and -low/4."""
    return -rng.randrange(low, high) / 4


def unigram_vocab(rng: random.Random) -> dict[str, float]:
    """Single characters (some missing, so they are unknown) and pieces of 2-3 characters."""
    pieces = {c: quarter_score(rng, 2, 24) for c in UNI_LETTERS if rng.random() < 0.8}
    for _ in range(rng.randrange(1, 9)):
        piece = "".join(rng.choices(UNI_LETTERS, k=rng.randrange(2, 4)))
        pieces[piece] = quarter_score(rng, 2, 32)
    if not pieces:
        pieces["a"] = -1.0
    return pieces


def unigram_text(rng: random.Random, longest: int = 9) -> str:
    """Text over the pieces' letters, spaces, and characters no piece covers."""
    return "".join(rng.choices("abcabc  dé😀", k=rng.randrange(0, longest)))


def float_vocab(rng: random.Random) -> dict[str, float]:
    """Like ``unigram_vocab`` with arbitrary float scores (log-probabilities)."""
    return {piece: -rng.uniform(0.1, 9.0) for piece in unigram_vocab(rng)}


def two_best(view: str, pieces: dict[str, float], unk: float) -> tuple[float, float]:
    """The best and second-best segmentation scores of ``view`` (2-best Viterbi).

    The grader's own check of tie-freeness: an input whose best segmentation does not win
    by a margin has more than one right answer, so exact IDs are compared only elsewhere.
    """
    longest = max(map(len, pieces))
    top: list[list[float]] = [[0.0]] + [[] for _ in view]
    for end in range(1, len(view) + 1):
        candidates = []
        for start in range(max(0, end - longest), end):
            piece = view[start:end]
            score = pieces.get(piece, unk if end - start == 1 else None)
            if score is not None:
                candidates += [s + score for s in top[start]]
        top[end] = sorted(candidates, reverse=True)[:2]
    best = top[-1]
    return best[0], best[1] if len(best) > 1 else float("-inf")


def prune_case(rng: random.Random) -> tuple[dict[str, int], dict[str, float], int]:
    """Words with frequencies, pieces cut from those words (so that they are used), a keep."""
    words = {"".join(rng.choices("abcd", k=rng.randrange(1, 6))): rng.randrange(1, 20)
             for _ in range(rng.randrange(1, 6))}
    pieces = {c: quarter_score(rng, 4, 32) for c in "abcd" + SPACE if rng.random() < 0.85}
    for _ in range(rng.randrange(2, 9)):
        view = SPACE + rng.choice(list(words))
        start = rng.randrange(len(view) - 1)
        pieces[view[start : rng.randrange(start + 2, len(view) + 1)]] = quarter_score(rng, 4, 48)
    return words, pieces, rng.randrange(0, len(pieces) + 2)
