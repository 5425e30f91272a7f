"""Part 2: normalization, invisible characters, gotchas (10 points).

``normalize`` is graded against Unicode's own conformance file for the grader's
Unicode version (14.0 for Python 3.11): ``p13_normalization_test.txt`` holds about 1,100
lines of ``NormalizationTest-14.0.0.txt`` (all of its Parts 0 and 3, a regular sample of
Parts 1 and 2; a repository test keeps it a subset of ``tests/data``'s). Each line's five
columns are normalized to each of the four forms and checked against the file's
invariants, all in one worker request. ``clean_text`` is compared with the reference on
fixed cases and on random strings rich in format (Cf) and control (Cc) characters,
White_Space, and compatibility characters that NFKC folds. The numeric answers are
compared with the reference's literals, which the repository's tests recompute from
GPT-2's files.
"""

import random

import pytest

import solutions.production_tokenizers as ref
from autograder.suite.ahead import ahead
from autograder.suite.checks import Failures, check, expect_raises, is_int, show, versus
from autograder.suite.remote import many

from .p13_inputs import FORMS, conformance_lines, invariants

PART = 2

@ahead()
def conformance_cases() -> tuple[tuple[str, str, str], ...]:
    """(text, form, expected) of every invariant of NormalizationTest's lines, sorted."""
    return tuple(sorted({case for line in conformance_lines() for case in invariants(line)}))


@pytest.mark.points(3)
def test_normalize_conformance(student):
    """normalize passes Unicode's NormalizationTest (14.0) in all four forms"""
    cases = conformance_cases()
    got_all = many(student, "normalize", [t for t, _, _ in cases], [f for _, f, _ in cases],
                   describe=lambda row: f"normalize({show(row[0])}, {row[1]!r})")
    failures = Failures()
    for (text, form, expected), got in zip(cases, got_all):
        failures.check(got == expected, lambda: f"normalize({show(text)}, {form!r}) returned "
                                                f"{versus(got, expected)} (NormalizationTest-14.0)")
    failures.report()


@pytest.mark.points(1)
def test_normalize_rejects_other_forms(student):
    """Any other form raises ValueError listing NFC, NFD, NFKC and NFKD"""
    for bad in ("nfc", "NFKC_CF", "", "NFX", " NFC", "NFC "):
        call = f"normalize('x', {bad!r})"
        error = expect_raises("ValueError", call, student.call, "normalize", "x", bad)
        missing = [form for form in FORMS if form not in error.message]
        check(not missing,
              lambda: f"the ValueError of {call} should list the valid forms NFC, NFD, "
 f"NFKC and NFKD; its message was {show(error.message[:200], 220)}")


CLEAN_CASES = [
    "", "Kill", "K\u200bill", "K\u200dill\u2060\ufeff", "K\u00adill", "\u202eevil\u202c",
    "a\u200cb\u200eC\u2066d\u2069", "\U000e0041tag", "Ｋｉｌｌ me", "ﬁne ² ½ Ⅻ", "e\u0301",
    "a \t b", "line\r\nnext\n", "a\u00a0b\u3000c\u2028d\u2029e", "a\u1680b\u2007c\u202fd",
    "a\x85b\x0bc\x0cd", "bell\x07 nul\x00 sep\x1c\x1f del\x7f", "\x9bcsi\x80", "  \t\t  ",
    "\ufeff\ufeffBOM", "tab\there", "x\u180ey", "\u2028",
]
# Characters for random strings: the categories clean_text treats differently.
POOL = (
    list("abcXYZ019 .,'") + ["\t", "\n", "\r", "\x0b", "\x0c", "\x85", "\xa0", "\u1680",
                             "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f",
                             "\u3000", "\x1c", "\x1f"]
    + ["\x00", "\x07", "\x1b", "\x7f", "\x80", "\x9f", "\u200b", "\u200c", "\u200d",
       "\u200e", "\u2060", "\u2061", "\ufeff", "\u00ad", "\u061c", "\u202e", "\U000e0001",
       "\u180e", "\ufff9"]
    + ["ﬁ", "²", "½", "Ⅻ", "Ｋ", "ｶ", "\u0301", "é", "Å", "\u212b", "ℌ", "㎏", "\u00a8",
       "\u1fee", "\u3131", "가", "\u0345", "ǅ", "\U0001d400"]
)


@ahead()
def clean_cases() -> tuple[str, ...]:
    rng = random.Random(21)
    return tuple("".join(rng.choice(POOL) for _ in range(rng.randint(1, 12)))
                 for _ in range(400))


def check_clean(student, texts, label: str) -> None:
    got_all = many(student, "clean_text", list(texts),
                   describe=lambda row: f"clean_text({show(row[0])})")
    failures = Failures()
    for text, got in zip(texts, got_all):
        expected = ref.clean_text(text)
        failures.check(got == expected, lambda: f"{label}: clean_text({show(text)}) returned "
                                                f"{versus(got, expected)}")
    failures.report()


@pytest.mark.points(2)
def test_clean_text_fixed_cases(student):
    """clean_text: NFKC, no Cf, no Cc but tab/newline/CR, each White_Space one space"""
    check_clean(student, CLEAN_CASES, "on a fixed case")


@pytest.mark.points(2)
def test_clean_text_random(student):
    """clean_text on 400 random strings of format, control, space and compatibility chars"""
    check_clean(student, clean_cases(), "on a random string")


def check_answers(student, names: list[str]) -> None:
    failures = Failures()
    for name in names:
        expected = getattr(ref, name)
        text, cleaned = ref.GOTCHA_TEXTS[name]
        what = f"clean_text({text!r})" if cleaned else repr(text)
        with failures.case():
            got = student.get(None, name)
            check(is_int(got), lambda: f"{name} should be an int, got {show(got)}")
            check(got == expected,
                  lambda: f"{name} is {got}, which is not the number of GPT-2 tokens "
                          f"of {ascii(what)}")
    failures.report()


@pytest.mark.points(1)
def test_gotcha_digits_and_spaces(student):
    """GOTCHA_NUMBER_TOKENS, GOTCHA_WORD_TOKENS, GOTCHA_SPACE_WORD_TOKENS are GPT-2's counts"""
    check_answers(student, ["GOTCHA_NUMBER_TOKENS", "GOTCHA_WORD_TOKENS",
                            "GOTCHA_SPACE_WORD_TOKENS"])


@pytest.mark.points(1)
def test_gotcha_case_and_invisible(student):
    """GOTCHA_LOWER/UPPER_TOKENS, GOTCHA_ZWSP(_CLEAN)_TOKENS are GPT-2's counts"""
    check_answers(student, ["GOTCHA_LOWER_TOKENS", "GOTCHA_UPPER_TOKENS", "GOTCHA_ZWSP_TOKENS",
                            "GOTCHA_ZWSP_CLEAN_TOKENS"])

