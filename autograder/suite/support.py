"""Helpers of the hidden tests: reply checks, student-facing messages, strategies, timings.

Every check raises ``AssertionError`` with a message written for the student: what was
called, what came back, what the specification asks for, and at most a small input.
Replies are validated *before* they are compared (an ``encode`` must return a list of
``int``, ``bool`` excluded), so a wrong type gives a clear message, not a grader error.

Everything in a message that a hidden input determines is marked as evidence
(``evidence.py``): ``show`` marks a value and gives its outline ("a list of 5 items").
"""

import contextlib
import json
import math
import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

from autograder.sandbox import Remote, StudentError, WorkerFailure

from .evidence import compared, evidence, outline, type_label

UNK = "<UNK>"
EOW = " "
# Hypothesis examples of the round-trip properties, after the seeded cases.
ROUND_TRIP_EXAMPLES = 12
# PYTHONHASHSEED of every part's own worker; ``spawn`` starts workers with others.
HASH_SEED = 1
EXTRA_HASH_SEEDS = (2, 3)

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


def check(condition: object, message: str) -> None:
    """Fail the test with ``message`` unless ``condition`` holds."""
    if not condition:
        raise AssertionError(message)


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

    def check(self, condition: object, message: str) -> None:
        if not condition:
            self.messages.append(message)

    @contextlib.contextmanager
    def case(self):
        try:
            yield
        except AssertionError as exc:
            self.messages.append(str(exc) or "a check failed")
        except StudentError as exc:
            message = getattr(exc, "student_message", None) or (
                f"your code raised {type_label(exc.type_name)}{raised_at(exc)}"
                + (f": {evidence(clip(exc.message))}" if exc.message.strip() else ""))
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


def expect_ids(value: object, what: str) -> list[int]:
    check(
        type(value) is list and all(is_int(v) for v in value),
        f"{what} should return a list of int, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_str(value: object, what: str) -> str:
    check(type(value) is str, f"{what} should return a str, got {kind(value)} {show(value)}")
    return value  # type: ignore[return-value]


def expect_str_list(value: object, what: str) -> list[str]:
    check(
        type(value) is list and all(type(v) is str for v in value),
        f"{what} should be a list of str, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_remote(value: object, what: str, type_name: str | None = None) -> Remote:
    check(isinstance(value, Remote), f"{what} should return an object, got {show(value)}")
    if type_name is not None:
        check(
            value.type_name == type_name,  # type: ignore[union-attr]
            f"{what} should return a {type_name}, got a {type_label(value.type_name)}",  # type: ignore
        )
    return value  # type: ignore[return-value]


def expect_pairs(value: object, what: str) -> list[tuple[str, str]]:
    """A list of 2-item pairs of str; a pair may arrive as a tuple or a list."""
    ok = type(value) is list and all(
        type(p) in (tuple, list) and len(p) == 2 and all(type(s) is str for s in p)
        for p in value
    )
    check(ok, f"{what} should be a list of (str, str) pairs, got {kind(value)} {show(value)}")
    return [tuple(p) for p in value]  # type: ignore[union-attr, misc]


def as_id_map(value: object, what: str) -> dict[int, str]:
    """``id -> token`` given as a dict, or as a list indexed by ID."""
    if type(value) in (list, tuple):
        value = dict(enumerate(value))  # type: ignore[arg-type]
    check(
        type(value) is dict
        and all(is_int(k) and type(v) is str for k, v in value.items()),  # type: ignore
        f"{what} should map int IDs to str, got {kind(value)} {show(value)}",
    )
    return value  # type: ignore[return-value]


def expect_raises(kind_name: str, what: str, func: Callable, *args, **kwargs) -> StudentError:
    """Call ``func`` and require that the student's code raises ``kind_name``."""
    try:
        value = func(*args, **kwargs)
    except StudentError as exc:
        if exc.is_a(kind_name):
            return exc
        detail = f": {evidence(clip(exc.message))}" if exc.message.strip() else ""
        raise AssertionError(
            f"{what} should raise {kind_name}, but it raised {type_label(exc.type_name)}{detail}"
        ) from None
    raise AssertionError(f"{what} should raise {kind_name}, but it returned {show(value)}")


def clip(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# --- generated inputs -----------------------------------------------------------------

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


def by_size(cases: list) -> list:
    """Cases from the smallest to the largest, so that the first failure is a small one."""
    return sorted(cases, key=lambda case: (len(repr(case)), repr(case)))


# --- values that stay in the worker ---------------------------------------------------
# Everything below uses only the worker's own requests (``map``, ``attrs``, ``put`` and
# ``keep``, see ``Worker``): the suite never calls a builtin that it reached through the
# student's objects (a function's ``__builtins__`` is whatever the student made it).


def mro_names(student, name: str) -> list[str]:
    """The names of the classes ``name`` derives from, read in the worker as plain strings."""
    cls = handle(student, name)
    mro = student.get(cls, "__mro__")
    check(type(mro) is tuple and all(isinstance(c, Remote) for c in mro),
          f"{name}.__mro__ should be a tuple of classes, got {show(mro)}")
    return [str(student.get(c, "__name__")) for c in mro]  # type: ignore[union-attr]


def handle(student, name: str, attribute: str | None = None) -> Remote:
    """The worker's ``name`` (or ``name.attribute``), looked up once per worker."""
    key = ("handle", name, attribute)
    found = student.cache.get(key)
    if found is None:
        found = student.get(None, name)
        if attribute is not None:
            found = student.get(found, attribute)
        check(isinstance(found, Remote), f"{name} should be a function or a class, got "
                                         f"{show(found)}")
        student.cache[key] = found
    return found


def many(student, func: str | Remote, *columns: list, describe=None) -> list:
    """``[func(*row) for row in zip(*columns)]``, computed in the worker in one request.

    One request instead of one per case: the cost of a property test is then the
    student's code, not the round trips. If the student's code raises, the rows are
    retried one by one to say which input raised (``describe(row)``, else its ``repr``).
    """
    if isinstance(func, str):
        func = handle(student, func)
    count = len(columns[0]) if columns else 0
    try:
        results = student.map(func, *columns)
    except StudentError:
        for row in zip(*columns):
            try:
                student.method(func, "__call__", *row)
            except StudentError as exc:
                where = describe(row) if describe else show(row if len(row) > 1 else row[0])
                exc.student_message = (  # type: ignore[attr-defined]
                    f"your code raised {type_label(exc.type_name)}{raised_at(exc)}"
                    + (f": {evidence(clip(exc.message))}" if exc.message else "")
                    + f" (for {where})"
                )
                raise
        raise
    check(type(results) is list and len(results) == count, "the grader could not call your code")
    return results  # type: ignore[return-value]


def decode_of_encode(student, encode: Remote, decode: Remote, objects: list | None,
                     texts: list[str]) -> list:
    """``decode(encode(text))`` of every text, composed in the worker (two requests).

    ``encode``/``decode`` are bound methods (``objects`` None) or a class's functions
    applied to ``objects`` one by one.
    """
    before = [objects] if objects is not None else []
    try:
        ids = student.map(encode, *before, texts, keep=True)
        results = student.map(decode, *before, ids)
    except StudentError as exc:
        where = show(texts[0]) if len(texts) == 1 else "one of the texts"
        detail = f": {evidence(clip(exc.message))}" if exc.message.strip() else ""
        exc.student_message = (  # type: ignore[attr-defined]
            f"your code raised {type_label(exc.type_name)}{raised_at(exc)}{detail} "
            f"(in decode(encode({where})))")
        raise
    check(type(results) is list and len(results) == len(texts),
          "the grader could not call your code")
    return results  # type: ignore[return-value]


def attributes(student, objects: list[Remote] | Remote, name: str) -> list:
    """``[obj.name for obj in objects]`` in one request (``objects`` may be kept)."""
    if not objects:
        return []
    found = student.attributes(objects, name)
    count = len(objects) if isinstance(objects, list) else None
    check(type(found) is list and (count is None or len(found) == count),
          f"the grader could not read {name} of your objects")
    return found  # type: ignore[return-value]


def call_keeping_argument(
    student, func: str | Remote, first: object, *rest: object
) -> tuple[object, object]:
    """Call ``func(first, *rest)`` in the worker; return ``(result, first afterwards)``.

    ``first`` is kept in the worker (``put``), so a function that changes its argument
    in place is seen doing it.
    """
    if isinstance(func, str):
        func = student.get(None, func)
    kept = student.put(first)
    result = student.method(func, "__call__", kept, *rest)
    return result, student.get(kept, None)


# --- timings --------------------------------------------------------------------------


# "cpu": the worker's CPU time (immune to other processes sharing the cores), falling
# back to wall time where the kernel does not report it; "wall": wall time only.
CLOCK = os.environ.get("AUTOGRADER_TIMING_CLOCK", "cpu")


@dataclass(frozen=True)
class Run:
    """One timed run of the student's code on inputs that are in the worker already.

    ``compute()`` does the work and leaves its result in the worker (it returns a
    handle); ``fetch(handle)`` brings the result back; ``check(value)`` judges the
    fetched value against the reference, outside the timing. ``fetch`` is timed too: a
    result that is worked out only when it is read (a lazy list) is paid for there.
    """

    compute: Callable[[], object]
    fetch: Callable[[object], object]
    check: Callable[[object], None]


def timed(student, run: Run, limit: float | None = None) -> tuple[float, float, float]:
    """``(compute seconds, fetch seconds, compute wall seconds)`` of ``run``; ``inf`` past
    ``limit``. The output is checked (``run.check``) once the clocks are read.

    Seconds are the CPU time of the worker's processes (``worker_cpu``: all their
    threads and children, plus the reference's time on its behalf) when the kernel
    reports it (``CLOCK``), else wall time. ``limit`` is on wall time: it is the timeout
    of each request.
    """
    cpu = student.cpu_seconds if CLOCK == "cpu" else lambda: None
    try:
        with student.time_limit(limit) if limit is not None else contextlib.nullcontext():
            cpu_start, wall_start = cpu(), time.perf_counter()
            kept = run.compute()
            cpu_computed, wall_computed = cpu(), time.perf_counter()
            value = run.fetch(kept)
            cpu_fetched, wall_fetched = cpu(), time.perf_counter()
    except WorkerFailure as exc:
        if exc.kind == "timeout" and limit is not None:
            return math.inf, math.inf, math.inf
        raise
    run.check(value)
    wall = wall_computed - wall_start
    if None in (cpu_start, cpu_computed, cpu_fetched):
        return wall, wall_fetched - wall_computed, wall
    return cpu_computed - cpu_start, cpu_fetched - cpu_computed, wall  # type: ignore[operator]


def growth(
    student,
    batch: Callable[[int], Run],
    single: Callable[[int], Run],
    give_up: float,
    clear: float,
    rounds: int = 3,
) -> tuple[float, float, float]:
    """``(single / batch, batch, single)``: best-of-``rounds`` times, measured in turns.

    ``batch(r)`` makes k calls on k inputs of size n, ``single(r)`` one call on an input
    of size k n (see ``Run``), each on fresh inputs for round ``r`` (a result remembered
    from an earlier round is worth nothing), each output checked against the reference.
    The same total work for linear code, so the ratio is about 1 when the code is linear
    and about k when it is quadratic. The ratio is the larger of the compute times' ratio
    and the ratio of compute and fetch together (work put off until the result is read
    counts there). The two runs last about as long, so whatever disturbs one (another
    process on the core or on its hyperthread sibling) is as likely to disturb the other;
    the minimum of several runs is the least disturbed one. Both are run once to warm up
    (page faults, caches), then in turns, until the ratio is at most ``clear`` (clearly
    linear: noise only makes a ratio look worse, except for a lucky single run, and a
    quadratic ratio is several times ``clear``) or ``rounds`` rounds are done. A single run
    that takes ``give_up`` times the batch's wall time is stopped (the worker is killed)
    and counts as infinitely slow: far beyond any threshold, and a quadratic submission
    does not cost minutes.
    """
    batch_best, single_best = [math.inf, math.inf], [math.inf, math.inf]
    batch_wall, ratio = math.inf, math.inf
    for turn in range(rounds + 1):
        compute, fetch, wall = timed(student, batch(turn))
        batch_best = [min(batch_best[0], compute), min(batch_best[1], fetch)]
        batch_wall = min(batch_wall, wall)
        compute, fetch, _ = timed(student, single(turn), limit=max(1.0, give_up * batch_wall))
        if math.inf in (compute, fetch):  # stopped: far too slow, however fast it ran before
            return math.inf, sum(batch_best), math.inf
        single_best = [min(single_best[0], compute), min(single_best[1], fetch)]
        ratio = max(single_best[0] / max(batch_best[0], 1e-6),
                    sum(single_best) / max(sum(batch_best), 1e-6))
        if turn and ratio <= clear:
            break
    return ratio, sum(batch_best), sum(single_best)


def fetch_ids(student, kept: Remote) -> object:
    """A kept list of ID lists, read back through its text: ``repr`` of a list of ``int``
    is JSON, and makes the worker spend a tenth of what sending each ID as a value does
    (so the fetch does not drown the compute time). Anything else comes back as a value."""
    text = student.method(kept, "__repr__")
    if type(text) is str:
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(text)
            if type(value) is list and all(
                    type(ids) is list and all(is_int(i) for i in ids) for ids in value):
                return value
    return student.get(kept, None)


def ratio_text(ratio: float, give_up: float) -> str:
    """``"9.5x"``, or ``"over 8x"`` for a run that was stopped."""
    return f"over {give_up:g}x" if ratio == math.inf else f"{ratio:.1f}x"


def ms_text(seconds: float) -> str:
    return "stopped" if seconds == math.inf else f"{seconds * 1e3:.1f} ms"


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
