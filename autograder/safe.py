"""Make every string of a result safe to report, whatever a submission put in it.

A result carries text from many hands: folder names (bytes that need not be UTF-8,
decoded with ``surrogateescape``), exception messages written by student code, cell
sources quoted in warnings. One lone surrogate makes a UTF-8 report unwritable, and a
control character can rewrite a terminal line or hide text. So results pass through
``safe_result`` where they are built (``batch.grade_one``), cached (``cache``) and
reported (``write_reports``, the Gradescope entry point); it is idempotent.

``safe_text`` turns a lone surrogate into a visible escape (``\\xff`` for an undecodable
byte of a file name, ``\\ud800`` otherwise) and a control or bidirectional-override
character into U+FFFD; a one-line field (IDs, names, paths) loses its line breaks too.
It leaves Markdown, HTML and CSV escaping to the writers: that depends on the format.

``unique_ids`` makes student IDs distinct after sanitising (two folders can become the
same ID), with a ``~2``, ``~3`` suffix; ``RENAMED`` starts the warning that says so, and
the class summary lists those warnings.
"""

import re

from .results import SubmissionResult

MAX_WARNINGS = 20  # the last one says how many more there were
# Room for the longest warning the engine writes (a dropped statement that three graded
# names read: about 400 characters with long names); a longer one is cut between words.
WARNING_CHARS = 600
OUTPUT_CHARS = 2000
LINE_CHARS = 300
RENAMED = "student ID changed: "

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0/C1 controls (tab and newline are handled apart), bidirectional overrides and
# isolates, and the suite's evidence marks (private use), which mean nothing here.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ue000\ue001]")


def _escape_surrogate(match: re.Match) -> str:
    code = ord(match.group(0))
    # os.fsdecode maps an undecodable byte b to U+DC00 + b (surrogateescape).
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def safe_text(text: object, limit: int | None = None, *, one_line: bool = False) -> str:
    """``text`` as a string any UTF-8 report can hold, cut to ``limit`` characters."""
    value = text if isinstance(text, str) else str(text)
    value = _SURROGATE.sub(_escape_surrogate, value).replace("\r\n", "\n")
    if one_line:
        value = " ".join(value.replace("\t", " ").splitlines())
    value = _CONTROL.sub("\ufffd", value.replace("\r", "\n"))
    if limit is not None and len(value) > limit:
        value = value[: limit - 1] + "…"
    return value


def cap_warnings(warnings: list) -> list[str]:
    """At most ``MAX_WARNINGS`` warnings of ``WARNING_CHARS`` each; the last counts the rest."""
    kept = [_between_words(safe_text(w), WARNING_CHARS) for w in warnings]
    if len(kept) <= MAX_WARNINGS:
        return kept
    more = len(kept) - (MAX_WARNINGS - 1)
    return [*kept[: MAX_WARNINGS - 1], f"… and {more} more warnings"]


def _between_words(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a space (mid-word only if it has
    none in its second half), ending with "…"."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", limit // 2, limit - 1)
    return text[: cut if cut > 0 else limit - 1].rstrip() + "…"


def _deep(value: object) -> object:
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict):
        return {safe_text(k) if isinstance(k, str) else k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def safe_result(result: SubmissionResult) -> SubmissionResult:
    """A copy of ``result`` whose every string is safe and whose free text is bounded.

    Anything that is not shaped like a result is returned as it is (made safe), for the
    schema check to reject.
    """
    clean = _deep(result)
    if not isinstance(clean, dict):
        return clean  # type: ignore[return-value]
    for key in ("student_id", "source"):
        if isinstance(clean.get(key), str):
            clean[key] = safe_text(clean[key], LINE_CHARS, one_line=True)
    if isinstance(clean.get("error"), str):
        clean["error"] = safe_text(clean["error"], OUTPUT_CHARS)
    if isinstance(clean.get("warnings"), list):
        clean["warnings"] = cap_warnings(clean["warnings"])
    for test in clean.get("tests") or []:
        if isinstance(test, dict):
            for key in ("id", "name"):
                if isinstance(test.get(key), str):
                    test[key] = safe_text(test[key], LINE_CHARS, one_line=True)
            if isinstance(test.get("output"), str):
                test["output"] = safe_text(test["output"], OUTPUT_CHARS)
    return clean  # type: ignore[return-value]


def unique_ids(ids: list[str]) -> list[str]:
    """``ids`` with repeats made distinct: the second ``bob`` becomes ``bob~2``.

    A suffix never takes a name that another entry holds as its own.
    """
    taken, seen, out = set(ids), set(), []
    for sid in ids:
        name, n = sid, 1
        while name in seen or (name != sid and name in taken):
            n += 1
            name = f"{sid}~{n}"
        seen.add(name)
        out.append(name)
    return out
