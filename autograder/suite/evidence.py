"""Evidence in the hidden suite's messages: what a hidden input determines, and its outline.

A failure message has two layers. The sentence says *what broke* (which call, which
rule of the specification, what kind of value came back) and is always shown. The
*evidence* is every value that a hidden input determines: the input itself, the
student's reply to it, the expected reply, the student's exception message, and a type
name made at run time (``type(repr(text), (ValueError,), {})``). The reply counts
because it can carry the input: ``decode`` echoes it, and a hostile submission can
return or raise it on purpose.

``evidence(text, outline)`` marks a piece: ``OPEN text SEP outline CLOSE`` (private-use
characters). ``render`` keeps the text (a visible test, or ``--show-hidden-inputs``) or
puts the outline in its place: a description that does not determine the value, such as
"a str of 11 characters with a tab" or "a list of 5 items". So a student still learns
that a length is off or that tabs are the trouble, and cannot rebuild the input. A reply
compared with the expected value (``compared``) is described relative to it ("a list
shorter than expected (a list of 3 items)"), never by numbers of its own, which the
student could choose to spell out an input. What remains is the pass/fail pattern and
the outline of a reply shown on its own (a wrong type, a length): a few bits per test.

Type names that no input can have chosen (builtins, the spec's names, the names the
submission's source defines: ``STATIC_NAMES``, completed by fixtures.py) stay plain. So
does a ``NameError``'s missing name when the submission's kept source uses it and never
binds it (``UNBOUND_NAMES``, worked out from the source fixtures.py hands over at the
first ``NameError`` that needs it), as a helper left in a dropped
statement is, and the source leaves at most ``MAX_UNBOUND`` names so: the student wrote
them before any input existed, and code that picks one of them by an input says at most
which of a few it picked (``exception_detail``; a source that holds thousands of names
would spell the input out, a name per character). And a number compared with the
expected one says by which power of ten it is off (``compared``).
"What feedback shows" in ``docs/grading.md`` states the policy for every message class.
"""

import ast
import builtins
import math
import re
import threading
from collections.abc import Iterable

from autograder.extract.rules import parse

OPEN, SEP, CLOSE = "\ue000", "\ue002", "\ue001"
MARKS = (OPEN, SEP, CLOSE)
# One piece; a piece left open by a message that was cut runs to the end.
PIECE = re.compile(f"{OPEN}([^{CLOSE}]*)(?:{CLOSE}|$)")
HIDDEN_NOTE = "(A hidden test: its inputs and the values computed from them are not shown.)"

STATIC_NAMES = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type)}
# The names the kept source uses and never binds (fixtures.py fills it before any test),
# and how many of them a NameError may name: one of at most 16 is at most 4 bits of an
# input, under the 4.7 bits of a number's power of ten (``MAX_POWER``).
UNBOUND_NAMES: set[str] = set()
MAX_UNBOUND = 16
# The kept source's statements, until a NameError needs ``UNBOUND_NAMES`` (``_unbound``):
# walking a whole submission's syntax trees was about 15 ms of every grading, most of
# which never see a NameError.
PENDING_SOURCES: list[str] = []
# Python's own wording of a NameError, with its suggestion (3.10+).
_IDENTIFIER = "([A-Za-z_][A-Za-z0-9_]*)"
_NAME_ERROR = re.compile(
    rf"name '{_IDENTIFIER}' is not defined(?:\. Did you mean: '{_IDENTIFIER}'\?)?")


def _unmarked(text: object) -> str:
    text = str(text)
    for mark in MARKS:
        text = text.replace(mark, "")
    return text


def evidence(text: object, outline: str = "…") -> str:
    """``text`` marked as evidence, with the ``outline`` shown in its place when hidden."""
    return f"{OPEN}{_unmarked(text)}{SEP}{_unmarked(outline)}{CLOSE}"


def type_label(name: str) -> str:
    """A type name from the worker: plain if static, else evidence."""
    return name if name in STATIC_NAMES else evidence(name, "an exception class made at run time")


def exception_detail(type_name: str, message: str, limit: int = 200) -> str:
    """``": message"`` of a student's exception for a message, ``""`` if it has none.

    Evidence, unless it is a ``NameError`` in Python's words whose missing name is one of
    the few the submission's source uses and never binds (``UNBOUND_NAMES``): a missing
    helper's name is the student's own and tells them what to fix. Its ``Did you mean``
    is left out: that second name is picked from everything the source defines.
    """
    text = " ".join(str(message).split())
    if not text:
        return ""
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    found = _NAME_ERROR.fullmatch(text)
    if (type_name == "NameError" and found and found.group(1) in _unbound()
            and len(UNBOUND_NAMES) <= MAX_UNBOUND):
        return f": name '{found.group(1)}' is not defined"
    return f": {evidence(text)}"


def _unbound() -> set[str]:
    """``UNBOUND_NAMES``, completed from ``PENDING_SOURCES`` the first time it is read (by
    one thread: a grading's workers load, and report their errors, side by side)."""
    with _COMPLETING:
        if PENDING_SOURCES:
            UNBOUND_NAMES.update(unbound_names(PENDING_SOURCES))
            PENDING_SOURCES.clear()
    return UNBOUND_NAMES


_COMPLETING = threading.Lock()


def unbound_names(sources: Iterable[str]) -> set[str]:
    """The names ``sources`` read and bind nowhere (in no scope), builtins aside: where a
    ``NameError`` of the code as written can come from. A source that does not parse adds
    nothing."""
    used: set[str] = set()
    bound: set[str] = set()
    for source in sources:
        try:
            tree = parse(source)  # the scorer's threads may be parsing too
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, ast.alias):
                bound.add(node.asname or node.name.split(".")[0])
            elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
                bound.add(node.name)
            elif isinstance(node, ast.MatchMapping) and node.rest:
                bound.add(node.rest)
    return used - bound - set(dir(builtins))


def load_error(text: str) -> str:
    """A worker's load error (``cell 9, line 3: NameError: ...``) for a warning: evidence,
    unless it has exactly that shape and its message may show (``exception_detail``)."""
    found = re.fullmatch(r"((?:cell \d{1,5}, )?line \d{1,7}): (\w{1,50}): (.*)", text, re.S)
    if found:
        detail = exception_detail(found.group(2), found.group(3))
        if not is_all_evidence(detail[2:]):  # the detail as it may show, not the text
            return f"{found.group(1)}: {found.group(2)}{detail}"
    return evidence(text)


def _count(n: int, what: str) -> str:
    plural = what[:-1] + "ies" if what.endswith("y") else what + "s"
    return f"{n} {what if n == 1 else plural}"


# What a str holds that often explains a failure, and how to say it: tests on the set of
# its distinct characters, or on the str itself (all at C speed: messages are built
# whether or not a check fails).
_FEATURES = (
    (lambda s, chars: "\t" in chars, "a tab"),
    (lambda s, chars: "\n" in chars or "\r" in chars, "a line break"),
    (lambda s, chars: any(c.isspace() and c not in " \t\n\r" for c in chars),
     "Unicode whitespace"),
    (lambda s, chars: "  " in s, "a run of spaces"),
    (lambda s, chars: s[:1].isspace() or s[-1:].isspace(), "leading or trailing whitespace"),
    (lambda s, chars: "<UNK>" in s, "the text <UNK>"),
    (lambda s, chars: "</w>" in s, "the text </w>"),
    (lambda s, chars: any(ord(c) > 0xFFFF for c in chars), "characters beyond the BMP (emoji)"),
    (lambda s, chars: any(127 < ord(c) <= 0xFFFF and not c.isspace() for c in chars),
     "non-ASCII characters"),
    (lambda s, chars: any(not c.isprintable() and not c.isspace() for c in chars),
     "control or invisible characters"),
)


def outline(value: object) -> str:
    """A description of ``value`` that says what it is like, not what it is."""
    if isinstance(value, str):
        if not value:
            return "the empty str"
        chars = set(value)
        found = [label for test, label in _FEATURES if test(value, chars)]
        return f"a str of {_count(len(value), 'character')}" + (
            f" with {', '.join(found)}" if found else "")
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        kind = type(value).__name__
        if not value:
            return f"an empty {kind}"
        return f"a {kind} of {_count(len(value), 'entry' if kind == 'dict' else 'item')}"
    if value is None or isinstance(value, bool):
        return repr(value)
    return "an int" if isinstance(value, int) else f"a {type(value).__name__}"


def compared(got: object, expected: object) -> str:
    """The student's reply described against the expected one, with no number of its own.

    The reply is the student's to choose, so its outline could carry a hidden input a
    few bits at a time ("a list of 104 items"); said relative to the expected value, it
    carries at most "shorter" or "longer".
    """
    kind = type(got).__name__
    article = "an" if kind[:1] in tuple("aeiou") else "a"
    if type(got) is not type(expected):
        return f"{article} {kind}, expected {outline(expected)}"
    off = _magnitude(got, expected)
    if off:
        return f"{article} {kind} {off}"
    try:
        mine, theirs = len(got), len(expected)  # type: ignore[arg-type]
    except TypeError:
        return f"{article} {kind} other than expected"
    if mine == theirs:
        return f"{article} {kind} of the expected length ({outline(expected)}) but other content"
    longer = "shorter" if mine < theirs else "longer"
    return f"{article} {kind} {longer} than expected ({outline(expected)})"


# The largest power of ten a message names; past it, "over". Each failed comparison of
# numbers thus says at most one of 2 * MAX_POWER + 3 things (about 4.7 bits).
MAX_POWER = 12


def _magnitude(got: object, expected: object) -> str:
    """How far a number is from the expected one, as a power of ten ("about 1,000 times
    the expected value"), or ``""`` when that says nothing useful.

    Only the ratio's order of magnitude is said, never the ratio: the student knows their
    reply, so an exact ratio would give away the expected value, while a power of ten
    gives its order of magnitude at most, which is what a unit slip (1,000 times, a
    percentage) needs to be found.
    """
    if type(got) not in (int, float) or type(expected) not in (int, float):
        return ""
    finite = all(type(v) is int or math.isfinite(v) for v in (got, expected))
    if not finite or not got or not expected:
        return ""
    if (got > 0) != (expected > 0):
        return "of the opposite sign to the expected value"
    power = round(math.log10(abs(got)) - math.log10(abs(expected)))  # no overflow
    if power == 0:
        return "other than expected, of the same order of magnitude"
    if abs(power) > MAX_POWER:
        return f"over 10^{MAX_POWER} times {'larger' if power > 0 else 'smaller'} than expected"
    times = f"{10 ** abs(power):,}"
    return (f"about {times} times the expected value" if power > 0
            else f"about {times} times smaller than the expected value")


def _plain(text: str) -> str:
    """``text`` without spaces and with one kind of quote, to compare spellings."""
    return "".join(text.split()).replace("'", '"')


def render(text: str, reveal: bool, limit: int, public: str = "") -> str:
    """A marked message as the student reads it, at most ``limit`` characters.

    Evidence that ``public`` spells out (the test's name, which every student reads, e.g.
    ``f(["a","a","a"], ("a","a"))``) is no secret and stays, however hidden the test.
    """
    known = _plain(public)

    def piece(match: re.Match) -> str:
        shown, _, hidden = match.group(1).partition(SEP)
        stated = len(_plain(shown)) >= 3 and _plain(shown) in known
        return shown if reveal or stated else (hidden or "…")

    out = _unmarked(PIECE.sub(piece, text))
    if not reveal and _unmarked(PIECE.sub(lambda m: m.group(1).partition(SEP)[0], text)) != out:
        out = f"{_clip(out, limit - len(HIDDEN_NOTE) - 1)}\n{HIDDEN_NOTE}"
    return _clip(out, limit)


def is_all_evidence(text: str) -> bool:
    """True when ``text`` is one piece of evidence and nothing else."""
    return PIECE.fullmatch(text) is not None


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
