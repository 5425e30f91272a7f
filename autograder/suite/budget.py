"""How much CPU one request may use once its part has hung: a multiple of what correct
code needs for that test.

A request that hangs costs its whole ``CALL_TIMEOUT`` (5 s of wall time), and a part's
second timeout stops the part. Here, once a part has timed out, its tests' ordinary
requests (not those in a timing test's ``time_limit`` block, which has its own) get a
CPU budget:

    budget = min(CALL_TIMEOUT, max(FLOOR, FACTOR * cost))

where ``cost`` is the most CPU that any single request of that test took when the
assignment's reference and its slow-but-correct variants were graded (``make
call-costs``, which writes ``CALL_COSTS.json`` beside the hidden tests; a test it does
not list keeps ``CALL_TIMEOUT``). The file is part of the suite, so a regrade uses the
same budgets.

Why only after a timeout: correct code can be far slower than everything we measured
and still well inside 5 s. A decode that rebuilds its inverse vocabulary at each call
(50,257 entries, about 3 ms) needs 2.2 to 3 s of CPU in production's round-trip test,
whose recorded cost is 0.03 s; a budget from the first request stopped it there, where
the plain limit passes it. So code that never times out is graded exactly as before, and
a hang pays the plain limit once, then the budget: about 7 s per hanging part instead
of 10.

How a budget is enforced (``CpuBudget``, a ``deadline.Patience``): the scorer waits
``FIRST_LOOK`` seconds of wall time, then reads the CPU the worker's process tree has
used (plus the scorer's own work for it, ``student.worker_cpu``) and stops the request
once the worker has used ``budget`` seconds more. CPU used before that first look is
not counted, so the check is lenient by up to ``FIRST_LOOK``; in exchange a request
pays nothing for the budget unless it runs past ``FIRST_LOOK``. A worker that waits
for a core does not use CPU, so a loaded machine only makes the wait longer, never the
verdict harsher. ``CALL_TIMEOUT`` stays the wall-clock cap: a worker that sleeps is
stopped there, as before (telling a sleeping worker from one the machine holds would
need its run-queue times, and a stand-in call the scorer serves looks the same).

``FACTOR`` is far above the spread of CPU time between runs of the same code (a loaded
machine moves a request's CPU time by tens of per cent, not tenfold), and the costs
include the timing variants and the catalogue's differently built correct submissions.
``FLOOR`` covers what the costs cannot see: work a submission does on first use that the
reference does elsewhere (the heaviest measured is production's GPT-2 tables, 0.6 s,
built in Part 1's first test), a package imported late, a garbage collection.
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
FIRST_LOOK = 0.5  # wall seconds before the worker's CPU is first read
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
    """Patience for one request: grants wall time until the worker has used ``seconds``
    of CPU since the first time it is asked (``cpu``: the worker's CPU reading, None where
    the kernel does not tell, and then only the request's wall-clock cap decides)."""

    def __init__(self, seconds: float, cpu: Callable[[], float | None]) -> None:
        self.seconds, self.cpu = seconds, cpu
        self.since: float | None = None
        self.spent = False  # the request was stopped for its CPU

    def __call__(self) -> float:
        now = self.cpu()
        if now is None:
            return float("inf")
        if self.since is None:
            self.since = now
            return self.seconds
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
            handle, path = tempfile.mkstemp(prefix="costs-", suffix=".json", dir=self.folder)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self.most, out, sort_keys=True)


@dataclass(frozen=True)
class Meter:
    """One test's budget for its ordinary requests, and where their costs are recorded."""

    test_id: str
    seconds: float
    recording: Recording | None = None
