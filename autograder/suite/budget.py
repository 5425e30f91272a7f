"""How much CPU a function that has hung may use in later tests: a multiple of what correct
code needs for that test.

A request that hangs costs its whole ``CALL_TIMEOUT`` (5 s of wall time), and a part's
second timeout stops the part. A function that hung once mostly hangs again, so once a
request has timed out, later requests in the same part that run the same function or
method (``Student._request``'s label: ``name``, ``Class.method``) get a CPU budget,
outside the timing tests' ``time_limit`` blocks (which have their own):

    budget = min(CALL_TIMEOUT, max(FLOOR, FACTOR * cost))

where ``cost`` is the most CPU that any single request of that test took when the
assignment's reference, its timing variants and the catalogue's correct submissions were
graded (``make call-costs``, which writes ``CALL_COSTS.json`` beside the hidden tests; a
test it does not list keeps ``CALL_TIMEOUT``). The file is part of the suite, so a regrade
uses the same budgets.

Why only what has hung: correct code can be far slower than everything measured and still
well inside 5 s. A decode that rebuilds its inverse vocabulary at every call (50,257
entries, about 3 ms) needs 2.2 to 3 s of CPU in production's round-trip test, whose
recorded cost is 0.03 s. A first version armed the budget for the whole part after any
timeout: a pre-tokenizer that hangs on one code point then cost that slow decode its
round trip, and, counted as the part's second timeout, the rest of Part 1 (87 points
instead of 98). Code whose functions never time out is graded exactly as before; a hang
pays the plain limit once, then the budget: about 7 s per hanging part instead of 10.

How a budget is enforced (``CpuBudget``, a ``deadline.Patience``): the CPU of the worker's
process tree (plus the scorer's own work for it, ``student.worker_cpu``) is read when the
request starts; the scorer first looks again after ``FIRST_LOOK`` seconds of wall time,
and stops the request once the worker has used ``budget`` seconds since the start. A
worker that waits for a core does not use CPU, so a loaded machine makes the wait longer,
not the verdict harsher. ``CALL_TIMEOUT`` stays the wall-clock cap; a worker that sleeps
is stopped by the watch that wraps the budget (``asleep.py``: thread states and run-queue
times tell it from one the machine holds).

``FACTOR`` is far above the spread of CPU time between runs of the same code (a loaded
machine moves a request's CPU time by tens of per cent, not tenfold). ``FLOOR`` covers
what the costs cannot see: work a submission does on first use that the reference does
elsewhere, which after a hang lands in a fresh worker's first request (the heaviest
measured is production's GPT-2 tables, 0.6 s), a package imported late, a garbage
collection.
"""

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FACTOR = 20.0
FLOOR = 1.5  # CPU seconds
FIRST_LOOK = 0.5  # wall seconds before the worker's CPU is read again
COSTS_FILE = "CALL_COSTS.json"
# A directory: when set, each scoring process writes there the most CPU a single request
# of each test used (``make call-costs`` sets it; grading never does).
RECORD_ENV = "AUTOGRADER_RECORD_COSTS"


@cache
def costs(folder: Path) -> dict[str, float]:
    """The recorded cost of each test (``{test id: CPU seconds}``), empty without a file."""
    path = Path(folder) / COSTS_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(test): float(seconds) for test, seconds in data["costs"].items()}


def budget(folder: Path, test_id: str, call_timeout: float) -> float:
    """The CPU seconds a request of ``test_id`` may use (``call_timeout`` if unrecorded, and
    while costs are being recorded: they are measured against the fixed limit)."""
    if os.environ.get(RECORD_ENV):
        return call_timeout
    cost = costs(folder).get(test_id)
    if cost is None:
        return call_timeout
    return min(call_timeout, max(FLOOR, FACTOR * cost))


class CpuBudget:
    """Patience for one request: grants wall time until the worker has used ``seconds`` of
    CPU since the request began (``cpu``: the worker's CPU reading, read once here; None
    where the kernel does not tell, and then only the request's wall-clock cap decides)."""

    def __init__(self, seconds: float, cpu: Callable[[], float | None]) -> None:
        self.seconds, self.cpu = seconds, cpu
        self.since = cpu()
        self.spent = False  # the request was stopped for its CPU

    def __call__(self) -> float:
        now = self.cpu()
        if now is None or self.since is None:
            return float("inf")
        left = self.seconds - (now - self.since)
        self.spent = left <= 0
        return left


class Recording:
    """The most CPU any single request of each test used in this scoring process, written
    to ``RECORD_ENV``'s directory at the end (a no-op when it is not set)."""

    def __init__(self) -> None:
        folder = os.environ.get(RECORD_ENV)
        self.folder = Path(folder) if folder else None
        self.most: dict[str, float] = {}

    def add(self, test_id: str, seconds: float) -> None:
        self.most[test_id] = max(seconds, self.most.get(test_id, 0.0))

    def write(self) -> None:
        if self.folder is not None and self.most:
            handle, _ = tempfile.mkstemp(prefix="costs-", suffix=".json", dir=self.folder)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self.most, out, sort_keys=True)


@dataclass(frozen=True)
class Meter:
    """One test's budget for its ordinary requests, and where their costs are recorded."""

    test_id: str
    seconds: float
    recording: Recording | None = None
