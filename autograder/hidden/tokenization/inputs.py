"""The tokenization suite's generated inputs and its Part 1 message rules.

Texts mix every kind of whitespace ``str.split`` splits on, literal markup that looks
like the tokenizers' special strings, and characters from every plane; seeded, so a
submission always meets the same examples.
"""

import random
import re

from hypothesis import strategies as st

UNK = "<UNK>"
EOW = " "
# Hypothesis examples of the round-trip properties, after the seeded cases.
ROUND_TRIP_EXAMPLES = 12

# str.split() splits on all of these; a split(" ") or a regex on [ \t\n] does not.
WHITESPACE = [" ", "  ", "\t", "\n", "\r\n", " \t ", "\u00a0", "\u3000", "\x0b", "\x0c",
              "\x1c", "\x85", "\u2028"]
# Text that looks like markup must round-trip like any other text.
LITERALS = ["<UNK>", "</w>", "<unk>", "</w></w>", "x<UNK>y", "</w>a"]


def texts(alphabet: str | None = None, max_pieces: int = 8) -> st.SearchStrategy[str]:
    """Text built from runs of characters, whitespace runs and literal markup."""
    chars = ANY_CHAR if alphabet is None else st.sampled_from(sorted(set(alphabet)))
    literals = [t for t in LITERALS if alphabet is None or set(t) <= set(alphabet)]
    pieces = [st.text(chars, min_size=1, max_size=6), st.sampled_from(WHITESPACE)]
    if literals:
        pieces.append(st.sampled_from(literals))
    return st.lists(st.one_of(*pieces), max_size=max_pieces).map("".join)


def random_texts(
    seed: int, words: list[str], count: int, per_text: tuple[int, int] = (0, 6)
) -> list[str]:
    """``count`` texts of words drawn from ``words``, joined by assorted whitespace."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        chosen = [rng.choice(words) for _ in range(rng.randint(*per_text))]
        text = rng.choice(["", " ", "\n"])
        for word in chosen:
            text += word + rng.choice([" ", " ", " ", "  ", "\t", "\n", " \n "])
        out.append(text)
    return out


def random_words(seed: int, alphabet: str, count: int, max_len: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, max_len)))
            for _ in range(count)]


# Characters for seeded texts: ASCII, Latin-1 and beyond, CJK, astral emoji, combining
# marks, zero-width and control characters.
CHAR_POOL = (
    "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789.,;:!?'\"-_()[]{}<>/\\|@#$%^&*+=~`"
    "éèßñüçØΩЖא日本語中文한국어😀🎉👍🏽\u0301\u200b\u00ad\ufeff\x00\x7f\x1b"
)


# Any character but lone surrogates (they cannot be written to a UTF-8 report). Drawn
# from code points, not with st.characters(): that builds hypothesis' Unicode table, a
# second or more per scoring process (its cache lives in the working directory).
ANY_CHAR = st.one_of(
    st.sampled_from(CHAR_POOL),
    st.integers(0x20, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF).map(chr),
)


def random_text(rng: random.Random, alphabet: str = CHAR_POOL, max_pieces: int = 8) -> str:
    """Runs of characters from ``alphabet``, whitespace runs and literal markup, joined."""
    literals = [t for t in LITERALS if set(t) <= set(alphabet)]
    pieces = []
    for _ in range(rng.randint(0, max_pieces)):
        roll = rng.random()
        if roll < 0.55 or not literals and roll >= 0.85:
            pieces.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))))
        elif roll < 0.85:
            pieces.append(rng.choice(WHITESPACE))
        else:
            pieces.append(rng.choice(literals))
    return "".join(pieces)


# --- what a message says (Part 1) -----------------------------------------------------

# Who must provide the method: a subclass, a concrete implementation, or one named.
WHO = re.compile(
    r"sub-?\s?class|child class|derived class|inherit|concrete|chartokenizer|bpetokenizer"
)
# ... or the duty itself: overriding, or an obligation to implement, provide or define.
DUTY = re.compile(
    r"overrid|override|(must|should|shall|need|needs|has to|have to|is required to|are "
    r"required to|to be|responsib\w*)(\s+\w+){0,3}?\s+(implement|provide|define|supply)"
)


def names_method(message: str, method: str) -> bool:
    """``encode`` (``encode()``, ``Tokenizer.encode``, "encoding") appears as a word."""
    return re.search(rf"(?<![a-z]){method[:-1]}(e|es|ed|ing|er)\b", message) is not None


def duty_problems(message: str, method: str) -> list[str]:
    """What the message of ``Tokenizer.method``'s ``NotImplementedError`` fails to say.

    It must name the method and say that a subclass or a concrete implementation has
    to provide it, in any words: "subclasses must implement encode", "encode() must be
    overridden", "use a concrete implementation like CharTokenizer", ... A message that
    names only the other method was copied from it.
    """
    text = " ".join(message.lower().split())
    other = "decode" if method == "encode" else "encode"
    problems = []
    if not names_method(text, method):
        problems.append(f"name the method ({method})" + (
            f" rather than {other}" if names_method(text, other) else ""))
    if not (WHO.search(text) or DUTY.search(text)):
        problems.append("say that a subclass (or a concrete tokenizer) must provide it")
    return problems
