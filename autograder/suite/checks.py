"""Checks of the hidden tests' replies, and the messages students read.

Every check raises ``AssertionError`` with a message written for the student: what was
called, what came back, what the specification asks for, and at most a small input.
Replies are validated *before* they are compared (an ``encode`` must return a list of
``int``, ``bool`` excluded), so a wrong type gives a clear message, not a grader error.

Everything in a message that a hidden input determines is marked as evidence
(``evidence.py``): ``show`` marks a value and gives its outline ("a list of 5 items").
Nothing here knows an assignment: each assignment's hidden folder builds its inputs.
"""

import contextlib
import math
import re
from collections.abc import Callable

from autograder.sandbox import Remote, StudentError
from autograder.sandbox.arrays import is_array

from .evidence import compared, evidence, exception_detail, outline, type_label

# --- messages and reply checks --------------------------------------------------------


def show(value: object, limit: int = 80, hidden_as: str | None = None) -> str:
    """``repr`` of a value, cut to ``limit`` characters, marked as evidence.

    Hidden, it reads as ``hidden_as``, by default the value's outline ("a str of 3
    characters with a tab").
    """
    if isinstance(value, Remote):
        return f"a {type_label(value.type_name)} object"
    return evidence(_cut(value, limit), outline(value) if hidden_as is None else hidden_as)


def versus(got: object, expected: object, limit: int = 80) -> str:
    """``got, expected expected`` for a message; hidden, how ``got`` differs (``compared``)."""
    return evidence(f"{_cut(got, limit)}, expected {_cut(expected, limit)}",
                    compared(got, expected))


def _cut(value: object, limit: int) -> str:
    """``repr(value)`` in about ``limit`` characters, without writing out a huge value.

    Messages are built whether or not a check fails, so this must stay cheap: a long
    container is cut to its first ``limit`` elements before anything is written. A long
    value is then shortened by dropping whole elements, never by cutting its text, so what
    is shown still reads as the structure it came from: ``[1, 2, ... (98 more)]``,
    ``{'a': 1, ... (5 more)}``, ``'abc'... (+900 characters)``. Nested values get a share
    of the room and are shortened the same way.
    """
    if is_array(value) and value.size > limit:  # numpy writes every entry of short axes
        return f"<an array of shape {value.shape} and dtype {value.dtype}>"
    sized = isinstance(value, (str, list, tuple, dict, set, frozenset))
    size = len(value) if sized else 0
    if isinstance(value, (str, list, tuple)) and size > limit:
        value = value[:limit]
    elif isinstance(value, dict) and size > limit:
        value = dict(list(value.items())[:limit])
    text = repr(value) if not sized or size <= limit else ""
    if text and len(text) <= limit:
        return text
    if isinstance(value, str):
        keep = max(limit - 24, 8)
        return f"{value[:keep]!r}... (+{size - keep} characters)"
    if sized:
        return _elements(value, limit, size)
    return f"<{type(value).__name__} whose repr has {len(text)} characters>"


def _elements(value: list | tuple | dict | set | frozenset, limit: int, size: int) -> str:
    """The first elements of a container that fit in ``limit``; ``size`` of them in all."""
    start, end = {list: "[]", tuple: "()"}.get(type(value), "{}")
    pairs = value.items() if isinstance(value, dict) else value
    shown: list[str] = []
    width = len(start) + len(end)
    for i, element in enumerate(pairs):
        if isinstance(value, dict):
            room = max(limit // 3, 12)
            item = f"{_cut(element[0], room)}: {_cut(element[1], room)}"
        else:
            item = _cut(element, max(limit // 2, 16))
        more = size - i - 1
        tail = len(f", ... ({more} more)") if more else 0
        if shown and width + len(item) + 2 + tail > limit:
            break
        shown.append(item)
        width += len(item) + 2
    left = size - len(shown)
    body = ", ".join(shown) + (f", ... ({left} more)" if left else "")
    return f"{start}{body}{end}"


# A message, or a function that writes it: a check that runs thousands of times per
# grading (one per hidden input) passes a function, so that the message (``show`` of the
# input: tens of microseconds) is written only when the check fails.
Said = str | Callable[[], str]


def said(message: Said) -> str:
    """``message`` written out (called, if it was given as a function)."""
    return message() if callable(message) else message


def check(condition: object, message: Said) -> None:
    """Fail the test with ``message`` unless ``condition`` holds."""
    if not condition:
        raise AssertionError(said(message))


class Failures:
    """The failing checks of one test, reported together instead of the first one alone.

    ``with failures.case():`` runs one independent check (one corpus, one input); an
    ``AssertionError`` or a ``StudentError`` inside it is recorded and the test goes on
    with the next case. ``report()`` fails the test with every recorded message, at most
    ``limit`` of them written out, and says how many more there are.
    """

    def __init__(self, limit: int = 4) -> None:
        self.messages: list[str] = []
        self.limit = limit

    def check(self, condition: object, message: Said) -> None:
        if not condition:
            self.messages.append(said(message))

    @contextlib.contextmanager
    def case(self):
        try:
            yield
        except AssertionError as exc:
            self.messages.append(str(exc) or "a check failed")
        except StudentError as exc:
            message = getattr(exc, "student_message", None) or (
                f"your code raised {type_label(exc.type_name)}{raised_at(exc)}"
                + exception_detail(exc.type_name, exc.message))
            self.messages.append(message)

    def report(self) -> None:
        if not self.messages:
            return
        if len(self.messages) == 1:
            raise AssertionError(self.messages[0])
        shown = self.messages[: self.limit]
        more = len(self.messages) - len(shown)
        text = f"{len(self.messages)} checks failed: " + " ".join(
            f"({i}) {m}" for i, m in enumerate(shown, 1))
        raise AssertionError(text + (f" (and {more} more)" if more else ""))


def raised_at(exc: StudentError) -> str:
    """``" at cell 9, line 12"``: where the student's code raised, when the worker knows.

    The worker runs student code, so only that exact shape is shown: free text there
    could carry a hidden input (see ``evidence.py``).
    """
    where = getattr(exc, "where", "")
    return f" at {where}" if re.fullmatch(r"(cell \d{1,5}, )?line \d{1,7}", where) else ""


def is_int(value: object) -> bool:
    """An ``int`` that is not a ``bool`` (replies are plain data, so ``type`` is exact)."""
    return type(value) is int


def is_number(value: object) -> bool:
    """An ``int`` or a finite ``float``, ``bool`` excluded."""
    return type(value) is int or (type(value) is float and math.isfinite(value))


def kind(value: object) -> str:
    return "a handle to a " + type_label(value.type_name) if isinstance(value, Remote) else type(
        value
    ).__name__


def expect_ids(value: object, what: Said) -> list[int]:
    check(
        type(value) is list and all(is_int(v) for v in value),
        lambda: f"{said(what)} should return a list of int, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_str(value: object, what: Said) -> str:
    check(type(value) is str,
          lambda: f"{said(what)} should return a str, got {kind(value)} {show(value)}")
    return value  # type: ignore[return-value]


def expect_str_list(value: object, what: Said) -> list[str]:
    check(
        type(value) is list and all(type(v) is str for v in value),
        lambda: f"{said(what)} should be a list of str, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_remote(value: object, what: Said, type_name: str | None = None) -> Remote:
    check(isinstance(value, Remote),
          lambda: f"{said(what)} should return an object, got {show(value)}")
    if type_name is not None:
        check(
            value.type_name == type_name,  # type: ignore[union-attr]
            lambda: f"{said(what)} should return a {type_name}, "
                    f"got a {type_label(value.type_name)}",  # type: ignore[union-attr]
        )
    return value  # type: ignore[return-value]


def expect_pairs(value: object, what: Said) -> list[tuple[str, str]]:
    """A list of 2-item pairs of str; a pair may arrive as a tuple or a list."""
    ok = type(value) is list and all(
        type(p) in (tuple, list) and len(p) == 2 and all(type(s) is str for s in p)
        for p in value
    )
    check(ok, lambda: f"{said(what)} should be a list of (str, str) pairs, got {kind(value)} "
                      f"{show(value)}")
    return [tuple(p) for p in value]  # type: ignore[union-attr, misc]


def as_id_map(value: object, what: Said) -> dict[int, str]:
    """``id -> token`` given as a dict, or as a list indexed by ID."""
    if type(value) in (list, tuple):
        value = dict(enumerate(value))  # type: ignore[arg-type]
    check(
        type(value) is dict
        and all(is_int(k) and type(v) is str for k, v in value.items()),  # type: ignore
        lambda: f"{said(what)} should map int IDs to str, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_raises(kind_name: str, what: Said, func: Callable, *args, **kwargs) -> StudentError:
    """Call ``func`` and require that the student's code raises ``kind_name``."""
    try:
        value = func(*args, **kwargs)
    except StudentError as exc:
        if exc.is_a(kind_name):
            return exc
        detail = exception_detail(exc.type_name, exc.message)
        raise AssertionError(
            f"{said(what)} should raise {kind_name}, "
            f"but it raised {type_label(exc.type_name)}{detail}"
        ) from None
    raise AssertionError(f"{said(what)} should raise {kind_name}, but it returned {show(value)}")


def clip(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def by_size(cases: list) -> list:
    """Cases from the smallest to the largest, so that the first failure is a small one."""
    return sorted(cases, key=lambda case: (len(repr(case)), repr(case)))
