"""Part 1: GPT-2's pre-tokenizer, written with the standard library only.

Follows GPT-2's splitting pattern (``GPT2_PATTERN`` below, in the syntax of the ``regex``
module and of tiktoken). Before any merge, text is cut into pieces, and BPE never merges
across two pieces: contractions, a word with at most one leading space, a number, a run of
punctuation, or a run of whitespace.

What ``\\p{L}``, ``\\p{N}`` and ``\\s`` mean is fixed by the spec, not by a library:

- ``\\p{L}`` / ``\\p{N}``: code points whose general category in the *running* Python's
  ``unicodedata`` starts with ``L`` / ``N``. The ``regex`` module carries its own, newer
  Unicode tables, so on characters assigned after Python's version it can disagree.
- ``\\s``: the Unicode White_Space property (``WHITE_SPACE`` below), which is *not*
  ``str.isspace()``: that one is also true for U+001C-U+001F, which are not White_Space.

So this module builds the three character classes itself, from ``unicodedata``, and hands
the same pattern to the standard ``re`` module, whose alternation semantics (first
alternative that matches, greedy repeats that backtrack) are those of ``regex``.

Left out: GPT-4's pattern (cl100k: case-insensitive contractions, numbers of at most three
digits), and the Unicode-version tables of any particular library.
"""

import re
import unicodedata
from functools import cache

# GPT-2's pattern as OpenAI and tiktoken write it (needs ``regex`` for \p{...}).
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# The Unicode White_Space property (PropList.txt); unchanged since Unicode 6.3.
WHITE_SPACE: frozenset[str] = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def _class_body(code_points: list[int]) -> str:
    """The inside of a ``[...]`` class matching exactly ``code_points`` (sorted), as ranges."""
    if not code_points:
        return ""
    parts: list[str] = []
    start = previous = code_points[0]
    for cp in code_points[1:] + [-1]:
        if cp != previous + 1:
            # Close the run start..previous; \U escapes need no further quoting.
            parts.append(f"\\U{start:08x}")
            if previous != start:
                parts.append(f"-\\U{previous:08x}")
            start = cp
        previous = cp
    return "".join(parts)


# Code points beyond the Basic Multilingual Plane (emoji, historic scripts, CJK ext. B...).
ASTRAL = "\\U00010000-\\U0010ffff"


def _runs_of(code_points: list[int]) -> str:
    """A pattern for one or more characters from ``code_points``.

    Written as ``(?:[bmp]+|(?=astral)[astral])+`` for speed, not meaning: ``re`` tests a BMP
    character against a class in constant time, but walks a class's astral ranges one by
    one, and most tests fail (a space tried as a letter). The lookahead lets only astral
    characters reach those ranges; this makes the whole split six times faster.
    """
    bmp = _class_body([cp for cp in code_points if cp < 0x10000])
    astral = _class_body([cp for cp in code_points if cp >= 0x10000])
    return rf"(?:[{bmp}]+|(?=[{ASTRAL}])[{astral}])+"


@cache
def compiled_gpt2_pattern() -> re.Pattern[str]:
    """GPT-2's pattern for ``re``, with L, N and White_Space spelled out as code point classes.

    Built once per process (a few tenths of a second: one ``unicodedata`` call per code point).
    """
    letters: list[int] = []
    numbers: list[int] = []
    others: list[int] = []  # neither letter, number nor White_Space: [^\s\p{L}\p{N}]
    for cp in range(0x110000):
        major = unicodedata.category(chr(cp))[0]
        if major == "L":
            letters.append(cp)
        elif major == "N":
            numbers.append(cp)
        elif chr(cp) not in WHITE_SPACE:
            others.append(cp)
    letter, number, other = _runs_of(letters), _runs_of(numbers), _runs_of(others)
    space = _class_body(sorted(map(ord, WHITE_SPACE)))
    # Alternatives in GPT-2's order; [space]+(?![^space]) is \s+(?!\S): a whitespace run that
    # leaves its last character to the next piece when a non-space follows (" word").
    return re.compile(
        rf"'(?:[sdmt]|ll|ve|re)| ?{letter}| ?{number}| ?{other}"
        rf"|[{space}]+(?![^{space}])|[{space}]+"
    )


def gpt2_pretokenize(text: str) -> list[str]:
    """Split ``text`` exactly as GPT-2's pattern does; the pieces join back to ``text``.

    >>> gpt2_pretokenize("Hello world, it's 2024!  ok")
    ['Hello', ' world', ',', ' it', "'s", ' 2024', '!', ' ', ' ok']
    >>> gpt2_pretokenize("HELLO'S")  # contractions are lowercase only
    ['HELLO', "'", 'S']
    """
    if not isinstance(text, str):
        raise TypeError(f"gpt2_pretokenize expects a str, got {type(text).__name__}")
    return compiled_gpt2_pattern().findall(text)
