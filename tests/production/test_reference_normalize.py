"""Part 2's reference: NormalizationTest conformance, ``clean_text``, the numeric answers.

The conformance data is a small offline subset of Unicode's NormalizationTest for UCD 14.0.0
(tests/data/, all of Parts 0 and 3, a sample of Parts 1 and 2), the version of Python 3.11's
``unicodedata``; on another Python the file would not match its tables, so the test says so.
"""

import unicodedata
from pathlib import Path

import pytest

import solutions.production_tokenizers as ref
from solutions.production_tokenizers import FORMS, clean_text, gotcha_token_counts, normalize

SUBSET = Path(__file__).resolve().parents[1] / "data" / "NormalizationTest-14.0.0-subset.txt"


def conformance_lines() -> list[tuple[str, ...]]:
    """``(c1, c2, c3, c4, c5)`` of every test line: source, NFC, NFD, NFKC, NFKD."""
    rows = []
    for line in SUBSET.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "@")):
            fields = line.split(";")[:5]
            rows.append(tuple("".join(chr(int(cp, 16)) for cp in f.split()) for f in fields))
    return rows


def test_the_subset_is_for_this_pythons_unicode():
    assert unicodedata.unidata_version == "14.0.0", "regenerate tests/data for this Python"
    rows = conformance_lines()
    assert len(rows) > 2700


def test_normalization_conformance():
    """The invariants of the file's header, for every line of the subset."""
    failures = []
    for c1, c2, c3, c4, c5 in conformance_lines():
        expected = {
            "NFC": [(c2, (c1, c2, c3)), (c4, (c4, c5))],
            "NFD": [(c3, (c1, c2, c3)), (c5, (c4, c5))],
            "NFKC": [(c4, (c1, c2, c3, c4, c5))],
            "NFKD": [(c5, (c1, c2, c3, c4, c5))],
        }
        for form, checks in expected.items():
            for want, sources in checks:
                failures += [(form, s) for s in sources if normalize(s, form) != want]
    assert not failures, f"{len(failures)} checks fail, e.g. {failures[:3]}"


@pytest.mark.parametrize("form", ["nfc", "NFX", "", None, "NFKC "])
def test_unknown_form_lists_the_valid_ones(form):
    with pytest.raises(ValueError, match="NFC, NFD, NFKC, NFKD"):
        normalize("x", form)


def test_forms_on_small_examples():
    assert FORMS == ("NFC", "NFD", "NFKC", "NFKD")
    assert normalize("e\u0301", "NFC") == "é" and normalize("é", "NFD") == "e\u0301"
    assert normalize("ﬁ²", "NFKC") == "fi2" and normalize("ﬁ²", "NFC") == "ﬁ²"


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("K\u200bill", "Kill"),  # zero-width space (Cf)
        ("a\u200db\u2060c\ufeffd\u00ade", "abcde"),  # ZWJ, word joiner, BOM, soft hyphen: Cf
        ("a\tb\nc\rd", "a b c d"),  # kept controls, then White_Space -> one space each
        ("a\x00b\x07c\x1cd\x7fe\x85f", "abcdef"),  # other controls go, U+0085 included
        ("a\x0bb\x0cc", "abc"),  # VT and FF are controls too: deleted before the space step
        ("a\u00a0\u3000\u2003b", "a   b"),  # NFKC makes these spaces; runs are kept
        ("a\u1680\u2028\u2029b", "a   b"),  # White_Space without a decomposition
        ("Ｋｉｌｌ ﬁle", "Kill file"),  # NFKC folds full-width letters and ligatures
        ("", ""),
    ],
)
def test_clean_text(text, clean):
    assert clean_text(text) == clean


def test_gotcha_constants_are_gpt2s_counts(gpt2, oracle):
    counts = gotcha_token_counts(gpt2)
    assert counts == gotcha_token_counts(oracle)  # tiktoken agrees
    assert counts == {name: getattr(ref, name) for name in ref.GOTCHA_TEXTS}
    for name, value in counts.items():
        assert type(value) is int, name
    assert ref.GOTCHA_ZWSP_TOKENS > ref.GOTCHA_ZWSP_CLEAN_TOKENS
    assert ref.GOTCHA_WORD_TOKENS != ref.GOTCHA_SPACE_WORD_TOKENS
    assert ref.GOTCHA_LOWER_TOKENS != ref.GOTCHA_UPPER_TOKENS
