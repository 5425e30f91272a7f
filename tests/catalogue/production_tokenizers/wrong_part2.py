"""Part 2 (``normalize``, ``clean_text``, the gotcha constants): wrong implementations
students hand in."""

from ..catalogue import differs
from . import wrong


@wrong(2, "unicodedata already rejects an unknown form; its error is enough",
       """
def normalize(text, form):
    return unicodedata.normalize(form, text)
""")
def p2_normalize_library_error(bug, ref):
    def message(ns):
        try:
            ns["normalize"]("x", "nfc")
        except ValueError as exc:
            return "NFKD" in str(exc)
        return None

    differs(bug, ref, message)


@wrong(2, "form names are case-insensitive",
       """
def normalize(text, form):
    form = form.upper()
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; valid forms: NFC, NFD, NFKC, NFKD")
    return unicodedata.normalize(form, text)
""")
def p2_normalize_lowercase_forms(bug, ref):
    differs(bug, ref, lambda ns: ns["normalize"]("x", "nfc"))


@wrong(2, "normalizing each character normalizes the text",
       """
def normalize(text, form):
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; valid forms: NFC, NFD, NFKC, NFKD")
    return "".join(unicodedata.normalize(form, char) for char in text)
""")
def p2_normalize_per_character(bug, ref):
    differs(bug, ref, lambda ns: ns["normalize"]("e\u0301", "NFC"))


CLEAN = """
def clean_text(text):
    kept = []
    for char in {SOURCE}:
        category = unicodedata.category(char)
        if {DROP}:
            continue
        kept.append({KEEP})
    return {JOIN}
"""
PARTS = {"SOURCE": 'normalize(text, "NFKC")',
         "DROP": 'category == "Cf" or (category == "Cc" and char not in "\\t\\n\\r")',
         "KEEP": '" " if char in WHITE_SPACE else char', "JOIN": '"".join(kept)'}


def clean_with(**changes: str) -> str:
    code = CLEAN
    for key, value in {**PARTS, **changes}.items():
        code = code.replace("{" + key + "}", value)
    return code


def cleaned(ns, text):
    return ns["clean_text"](text)


@wrong(2, "NFC is the normalization that keeps text as it looks",
       clean_with(SOURCE='normalize(text, "NFC")'))
def p2_clean_nfc(bug, ref):
    differs(bug, ref, lambda ns: cleaned(ns, "Ｋｉｌｌ"))


@wrong(2, "the invisible characters are the zero-width ones",
       clean_with(DROP='char in "\\u200b\\u200c\\u200d\\ufeff" or '
                       '(category == "Cc" and char not in "\\t\\n\\r")'))
def p2_clean_zero_width_only(bug, ref):
    differs(bug, ref, lambda ns: cleaned(ns, "K\u2060ill\u00ad"))


@wrong(2, "control characters are all invisible: tab and newline too",
       clean_with(DROP='category in ("Cf", "Cc")'))
def p2_clean_drops_tab_newline(bug, ref):
    differs(bug, ref, lambda ns: cleaned(ns, "a\tb"))


@wrong(2, "white space is cleaned best by collapsing runs",
       clean_with(JOIN='" ".join("".join(kept).split())'))
def p2_clean_collapses_runs(bug, ref):
    differs(bug, ref, lambda ns: cleaned(ns, "a \t b "))


@wrong(2, "white space first, then the controls (U+0085 is white space)",
       """
def clean_text(text):
    spaced = "".join(" " if char in WHITE_SPACE else char for char in normalize(text, "NFKC"))
    return "".join(char for char in spaced if unicodedata.category(char) != "Cf"
                   and (unicodedata.category(char) != "Cc" or char in "\\t\\n\\r"))
""")
def p2_clean_spaces_before_controls(bug, ref):
    differs(bug, ref, lambda ns: cleaned(ns, "a\x85b"))


@wrong(2, "a number of ten digits is one token (or one per digit)",
       "GOTCHA_NUMBER_TOKENS = 10\n")
def p2_gotcha_digits(bug, ref):
    differs(bug, ref, lambda ns: ns["GOTCHA_NUMBER_TOKENS"])


@wrong(2, "case does not change the number of tokens", "GOTCHA_UPPER_TOKENS = 1\n")
def p2_gotcha_case(bug, ref):
    differs(bug, ref, lambda ns: ns["GOTCHA_UPPER_TOKENS"])


@wrong(2, "an invisible character is invisible to the tokenizer too",
       "GOTCHA_ZWSP_TOKENS = 1\n")
def p2_gotcha_invisible(bug, ref):
    differs(bug, ref, lambda ns: ns["GOTCHA_ZWSP_TOKENS"])
