"""Random text drawn as the production spec says, for the oracle tests.

Every character is a code point assigned in the running Python's ``unicodedata`` (category
not ``Cn``) and never a surrogate, so tiktoken (Unicode 16) and HF ``tokenizers`` know it too.
A string is a mix of fragments chosen to hit GPT-2's pattern where implementations differ:
whitespace runs (White_Space and the ``str.isspace``-only U+001C-U+001F), contractions in
both cases, U+0085, U+00A0, U+3000, digit runs, emoji, words of one script, and any
assigned character at all.
"""

import random
import unicodedata
from functools import cache

SPACES = list(" \t\n\r\x0b\x0c\x85\xa0\u1680\u2000\u2007\u200a\u2028\u2029\u202f\u205f\u3000")
SPACES += list("\x1c\x1d\x1e\x1f")  # isspace() is True for these, but they are not White_Space
CONTRACTIONS = ["'s", "'t", "'d", "'m", "'ll", "'ve", "'re", "'S", "'T", "'LL", "'Re", "'", "''"]
ASCII_WORDS = ["Hello", "world", "the", "GPT", "don", "I", "it", "x", "tokenization"]
ASCII_WORDS.append("<|endoftext|>")  # ordinary text for encode_ordinary


@cache
def assigned_code_points() -> tuple[int, ...]:
    """Every code point assigned in this Python's Unicode, surrogates left out."""
    return tuple(cp for cp in range(0x110000) if unicodedata.category(chr(cp)) not in ("Cn", "Cs"))


@cache
def emoji() -> tuple[str, ...]:
    """Pictographs and symbols of the emoji blocks that this Unicode assigns."""
    return tuple(chr(cp) for cp in range(0x1F300, 0x1FAFF) if unicodedata.category(chr(cp)) == "So")


def script_word(rng: random.Random) -> str:
    """A run of letters and marks near one random assigned letter: one script, one block."""
    points = assigned_code_points()
    while True:
        centre = rng.choice(points)
        if unicodedata.category(chr(centre)).startswith("L"):
            break
    near = [
        cp
        for cp in range(max(0, centre - 64), min(0x110000, centre + 64))
        if unicodedata.category(chr(cp))[0] in "LM"
    ]
    return "".join(chr(rng.choice(near)) for _ in range(rng.randint(1, 8)))


def fragment(rng: random.Random) -> str:
    """One piece of a random string (see the module docstring for the mix)."""
    kind = rng.randrange(8)
    if kind == 0:
        return "".join(rng.choice(SPACES) for _ in range(rng.randint(1, 4)))
    if kind == 1:
        return rng.choice(CONTRACTIONS)
    if kind == 2:
        return "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12)))
    if kind == 3:
        return "".join(rng.choice(emoji()) for _ in range(rng.randint(1, 3)))
    if kind == 4:
        return script_word(rng)
    if kind == 5:
        return rng.choice(["", " "]) + rng.choice(ASCII_WORDS)
    if kind == 6:
        return rng.choice(" !?.,;:-'\"()[]{}<>|/\\@#$%^&*_+=~`")
    return "".join(chr(rng.choice(assigned_code_points())) for _ in range(rng.randint(1, 3)))


def random_text(rng: random.Random, max_fragments: int = 12) -> str:
    """A random string of 0 to ``max_fragments`` fragments."""
    return "".join(fragment(rng) for _ in range(rng.randint(0, max_fragments)))
