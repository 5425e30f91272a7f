"""Calls into the worker that keep values there, and the timing of student code.

The hidden tests reach student code only through a ``Student`` (fixtures.py): these
helpers batch calls (``many``: one request for a whole column of inputs), compose them
in the worker, and time them (``growth``: the ratio test that tells linear code from
quadratic code without asserting any absolute number of seconds).
"""

import contextlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from autograder.sandbox import Remote, StudentError, WorkerFailure

from .checks import check, raised_at, show
from .evidence import exception_detail, type_label

# --- values that stay in the worker ---------------------------------------------------
# Everything below uses only the worker's own requests (``map``, ``attrs``, ``put`` and
# ``keep``, see ``Worker``): the suite never calls a builtin that it reached through the
# student's objects (a function's ``__builtins__`` is whatever the student made it).


def mro_names(student, name: str) -> list[str]:
    """The names of the classes ``name`` derives from, read in the worker as plain strings."""
    cls = handle(student, name)
    mro = student.get(cls, "__mro__")
    check(type(mro) is tuple and all(isinstance(c, Remote) for c in mro),
          lambda: f"{name}.__mro__ should be a tuple of classes, got {show(mro)}")
    return [str(student.get(c, "__name__")) for c in mro]  # type: ignore[union-attr]


def handle(student, name: str, attribute: str | None = None) -> Remote:
    """The worker's ``name`` (or ``name.attribute``), looked up once per worker."""
    key = ("handle", name, attribute)
    found = student.cache.get(key)
    if found is None:
        found = student.get(None, name)
        if attribute is not None:
            found = student.get(found, attribute)
        check(isinstance(found, Remote), lambda: f"{name} should be a function or a class, got "
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
                    + exception_detail(exc.type_name, exc.message)
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
        detail = exception_detail(exc.type_name, exc.message)
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
    """One timed run of the student's code.

    ``compute()`` sends the inputs (``put``: once they are in the worker, student code
    can work on them, in the put's own request if it has patched the worker's protocol
    code, so the clock must already run), does the work and leaves its result in the
    worker (it returns a handle); ``fetch(handle)`` brings the result back;
    ``check(value)`` judges the fetched value, outside the timing: against the reference,
    else, for a deviation already charged, against the student's own untimed answers
    (``Own``; a baseline run's deviation needs the charge only, ``Own.gate``).
    ``fetch`` is timed too: a result that is worked out only when it is read (a lazy
    list) is paid for there.
    """

    compute: Callable[[], object]
    fetch: Callable[[object], object]
    check: Callable[[object], None]


def timed(student, run: Run, limit: float | None = None) -> tuple[float, float]:
    """``(compute seconds, fetch seconds)`` of ``run``; ``inf`` past
    ``limit``. The output is checked (``run.check``) once the clocks are read.

    Seconds are the CPU time of the worker's processes (``worker_cpu``: all their
    threads and children, plus the reference's time on its behalf) when the kernel
    reports it (``CLOCK``), else wall time. ``limit`` stops the run (``Student.time_limit``):
    by the worker's CPU time where the kernel reports it, so that a busy machine's stall
    does not stop a short run; else by each request's wall time.
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
            return math.inf, math.inf
        raise
    run.check(value)
    if None in (cpu_start, cpu_computed, cpu_fetched):
        return wall_computed - wall_start, wall_fetched - wall_computed
    return cpu_computed - cpu_start, cpu_fetched - cpu_computed  # type: ignore[operator]


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
    from an earlier round is worth nothing), each output checked (``Run.check``).
    The same total work for linear code, so the ratio is about 1 when the code is linear
    and about k when it is quadratic. The ratio is the larger of the compute times' ratio
    and the ratio of compute and fetch together (work put off until the result is read
    counts there). The two runs last about as long, so whatever disturbs one (another
    process on the core or on its hyperthread sibling) is as likely to disturb the other;
    the minimum of several runs is the least disturbed one. They are run in turns until
    the ratio is at most ``clear`` (clearly linear: noise only makes a ratio look worse,
    except for a lucky single run, and a quadratic ratio is several times ``clear``) or
    ``rounds`` rounds after the first turn are done. The first turn counts like the others:
    the student's code has run at the batch's size in the correctness tests already, and
    what is still cold then (page faults, caches) slows the first batch by a few percent,
    which lowers a quadratic ratio far less than its distance from ``clear``; a linear one
    that the cold start pushes above ``clear`` just takes another turn. A single run
    that takes ``give_up`` times the batch's time (at least 1 s; CPU time where the
    kernel reports it, ``timed``) is stopped (the worker is killed) and counts as
    infinitely slow: far beyond any threshold, and a quadratic submission does not cost
    minutes. Both sides in CPU time: a machine that other processes hold stops a slow
    run no later, in the run's own CPU time, than a quiet one does.
    """
    batch_best, single_best = [math.inf, math.inf], [math.inf, math.inf]
    ratio = math.inf
    for turn in range(rounds + 1):
        compute, fetch = timed(student, batch(turn))
        batch_best = [min(batch_best[0], compute), min(batch_best[1], fetch)]
        compute, fetch = timed(student, single(turn), limit=max(1.0, give_up * sum(batch_best)))
        if math.inf in (compute, fetch):  # stopped: far too slow, however fast it ran before
            return math.inf, sum(batch_best), math.inf
        single_best = [min(single_best[0], compute), min(single_best[1], fetch)]
        ratio = max(single_best[0] / max(batch_best[0], 1e-6),
                    sum(single_best) / max(sum(batch_best), 1e-6))
        if ratio <= clear:
            break
    return ratio, sum(batch_best), sum(single_best)


def cannot_time(exc: StudentError, charged_by: str) -> str:
    """The message of a timing test whose inputs the student's code cannot run."""
    detail = exception_detail(exc.type_name, exc.message)
    return (f"your code raised {type_label(exc.type_name)}{raised_at(exc)}{detail} on this timing "
            f"test's inputs, so it could not be timed; that failure is already charged by "
            f"{charged_by}. Fix it there and this test times your code.")


class Spawn(Protocol):
    """The ``spawn`` fixture (``fixtures.Spawner``): extra workers, and what is charged."""

    def __call__(self, hash_seed: int) -> object: ...

    def forgive(self) -> str | None: ...


class Own:
    """The student's own answers, worked out untimed in a fresh worker of the part.

    A timing test judges time only: a timed output that differs from the reference is
    compared with these (a deviation the correctness tests charge is not charged again),
    and still fails when it differs from them (the timed run skipped work). Only a
    deviation already charged is forgiven, and for no more points than it was charged
    (``spawn.forgive()``, ``judged.forgive``): else a timed output that differs from the
    reference fails at once. Code that knows when it is timed (by the shape of the
    requests) and answers the fresh worker the same way, doing the work only when judged,
    gets back at most what it gave (``tests/security/test_opened_gate.py``).
    The fresh worker (``spawn(hash_seed)``, started on first use, one per test) never saw
    the timed run, so an answer the timed worker remembered or put off cannot reach it.
    Code that raises there fails the test with ``cannot_time``'s message.

    Only the runs in ``growth``'s numerator need those answers. A baseline run (the batch,
    the corpus once) that skipped work is faster, which makes the ratio larger and stops
    the other run sooner: it can only fail the test. So a baseline run's deviation needs
    only the gate (``gate``), not untimed answers of its own. (A test may still ask the
    fresh worker other questions about it: production's trainer, whether the deviation
    shows on the exactness corpora.)
    """

    def __init__(self, spawn: Spawn, hash_seed: int, charged_by: str) -> None:
        self.spawn, self.hash_seed, self.charged_by = spawn, hash_seed, charged_by
        self.worker: object = None

    def gate(self) -> None:
        """Pass a timed output that differs from the reference if the deviation is already
        charged (``spawn.forgive()``), else fail the test. Starts no worker; a baseline
        run needs nothing more."""
        why_not = self.spawn.forgive()
        if why_not is not None:
            raise AssertionError(
                "in this timing test your code's output differs from the specification's, "
                f"while {self.charged_by} {why_not}: a timed run must give the answers "
                "your code gives when it is checked")

    def __call__(self, work: Callable[[object], object]) -> object:
        self.gate()  # first: no worker is started for a deviation not charged
        if self.worker is None:
            self.worker = self.spawn(self.hash_seed)
        try:
            return work(self.worker)
        except StudentError as exc:
            raise AssertionError(cannot_time(exc, self.charged_by)) from None


def growth_or_plain(student, runs: Callable[[bool], tuple[Callable[[int], Run],
                                                          Callable[[int], Run]]],
                    charged_by: str, **options) -> tuple[float, float, float]:
    """``growth`` on ``runs(False)`` (inputs made like the correctness tests'); if the
    student's code raises on them, on ``runs(True)`` (plain inputs: no unknown characters,
    ASCII words); if it raises there too, the test fails with ``cannot_time``'s message.
    A crash is the correctness tests' to charge: a timing test times what runs."""
    try:
        return growth(student, *runs(False), **options)
    except StudentError:
        pass
    try:
        return growth(student, *runs(True), **options)
    except StudentError as exc:
        raise AssertionError(cannot_time(exc, charged_by)) from None


def growth_in_memory(student, batch: Callable[[int], Run], single: Callable[[int], Run],
                     too_big: str, charged_by: str, **options) -> tuple[float, float, float]:
    """``growth``, where running out of memory is an answer: code whose memory grows with
    the size that should not matter (a one-hot matrix of the vocabulary, a ``(T, T)``
    array) fails with ``too_big``, which says in words what was too big, instead of a
    bare ``MemoryError``; any other exception is ``cannot_time``'s (``charged_by`` charges
    it)."""
    try:
        return growth(student, batch, single, **options)
    except StudentError as exc:
        if exc.is_a("MemoryError"):
            raise AssertionError(f"your code ran out of memory{raised_at(exc)} {too_big}"
                                 ) from None
        raise AssertionError(cannot_time(exc, charged_by)) from None


def fetch_ids(student, kept: Remote) -> object:
    """A kept list of ID lists, read back through its text: ``repr`` of a list of ``int``
    is JSON, and makes the worker spend a tenth of what sending each ID as a value does
    (so the fetch does not drown the compute time). Anything else comes back as a value."""
    text = student.method(kept, "__repr__")
    if type(text) is str:
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(text)
            if type(value) is list and all(  # every ID an int (no bool): at C speed
                    type(ids) is list and set(map(type, ids)) <= {int} for ids in value):
                return value
    return student.get(kept, None)


def ratio_text(ratio: float, give_up: float) -> str:
    """``"9.5x"``, or ``"over 8x"`` for a run that was stopped."""
    return f"over {give_up:g}x" if ratio == math.inf else f"{ratio:.1f}x"


def ms_text(seconds: float) -> str:
    return "stopped" if seconds == math.inf else f"{seconds * 1e3:.1f} ms"
