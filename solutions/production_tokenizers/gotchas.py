"""Part 2: the numeric answers, token counts that show GPT-2's gotchas.

Follows the tokenizer gotchas of the course's readings (numbers, leading spaces, case,
invisible characters), measured with GPT-2's tokenizer.
Each constant is the number of GPT-2 tokens of one short text (``GOTCHA_TEXTS``). They are
written as literals because the grader compares a student's constants without loading
GPT-2; ``gotcha_token_counts`` computes them from a tokenizer, and the repository's tests
check that it gives exactly these literals with the bundled GPT-2 files.

What they show: digits are cut into irregular chunks (``123|45|678|90``), so arithmetic on
numbers starts from arbitrary pieces; a word with and without its leading space are
different tokens (``" SolidGoldMagikarp"`` is one token, without the space two); case changes
the count (``hello`` 1, ``HELLO`` 3); a zero-width space makes a word three tokens while it
looks unchanged, and ``clean_text`` gives the one token back.

Left out: GPT-4's tokenizer, whose numbers would differ (digits in groups of three).
"""

from typing import Protocol

from .normalization import clean_text

GOTCHA_NUMBER_TOKENS = 4  # "1234567890"
GOTCHA_WORD_TOKENS = 2  # "SolidGoldMagikarp"
GOTCHA_SPACE_WORD_TOKENS = 1  # " SolidGoldMagikarp"
GOTCHA_LOWER_TOKENS = 1  # "hello"
GOTCHA_UPPER_TOKENS = 3  # "HELLO"
GOTCHA_ZWSP_TOKENS = 3  # "K\u200bill" (a zero-width space inside "Kill")
GOTCHA_ZWSP_CLEAN_TOKENS = 1  # clean_text("K\u200bill")

# Constant name -> (text, whether clean_text runs first).
GOTCHA_TEXTS: dict[str, tuple[str, bool]] = {
    "GOTCHA_NUMBER_TOKENS": ("1234567890", False),
    "GOTCHA_WORD_TOKENS": ("SolidGoldMagikarp", False),
    "GOTCHA_SPACE_WORD_TOKENS": (" SolidGoldMagikarp", False),
    "GOTCHA_LOWER_TOKENS": ("hello", False),
    "GOTCHA_UPPER_TOKENS": ("HELLO", False),
    "GOTCHA_ZWSP_TOKENS": ("K\u200bill", False),
    "GOTCHA_ZWSP_CLEAN_TOKENS": ("K\u200bill", True),
}


class Encoder(Protocol):
    """Anything with GPT-2's ``encode_ordinary`` (``ByteLevelBPE``, a tiktoken ``Encoding``)."""

    def encode_ordinary(self, text: str) -> list[int]: ...


def gotcha_token_counts(tokenizer: Encoder) -> dict[str, int]:
    """Compute every ``GOTCHA_*`` constant with ``tokenizer`` (GPT-2 gives the literals above)."""
    return {
        name: len(tokenizer.encode_ordinary(clean_text(text) if clean else text))
        for name, (text, clean) in GOTCHA_TEXTS.items()
    }
