"""Watching the CLI grade a class: wall time, CPU time, memory and load.

The CLI runs as a subprocess (``python -m autograder grade TREE --out OUT --jobs N
--force``, the default per-submission timeout). A sampler thread reads, every 0.2 s, the
summed RSS of the CLI and all its descendants from ``/proc`` (scoring processes and
sandboxed workers; a page shared by several processes counts in each) and the load
average. Memory that grows with the class would show as a later part of the run using
more than an earlier one: the sampler keeps each sample, so the report can compare the
halves of the run.
"""

import contextlib
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.assignment import REPO
from autograder.sandbox import cleanup

SAMPLE_SECONDS = 0.2
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss(pid: int) -> int:
    """Bytes resident in ``pid`` (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def tree_rss(pid: int) -> int:
    """Bytes resident in ``pid`` and all its descendants, summed (0 once it is gone)."""
    return sum(rss(p) for p in cleanup.tree(pid))


def in_flight(pids: list[int]) -> list[str]:
    """The students whose scoring processes are among ``pids`` (from ``--submission=``)."""
    students = []
    for pid in pids:
        with contextlib.suppress(OSError):
            for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"):
                if arg.startswith(b"--submission="):
                    students.append(Path(arg.decode(errors="replace")).parents[1].name)
    return sorted(set(students))


class Sampler(threading.Thread):
    """Samples the summed RSS of a process tree and the load average until stopped."""

    def __init__(self, pid: int, interval: float = SAMPLE_SECONDS) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.peak_students: list[str] = []  # being graded when the peak was sampled
        self.totals: list[int] = []
        self.loads: list[float] = []
        self._stop_event = threading.Event()

    @property
    def samples(self) -> int:
        return len(self.totals)

    def halves(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """``((peak, median), (peak, median))`` of the summed RSS in the first and the
        second half of the run, in bytes (zeros without samples)."""
        middle = len(self.totals) // 2
        return tuple(  # type: ignore[return-value]
            (max(part, default=0), int(statistics.median(part)) if part else 0)
            for part in (self.totals[:middle], self.totals[middle:]))

    def run(self) -> None:
        while True:
            pids = cleanup.tree(self.pid)
            total = sum(rss(p) for p in pids)
            if total > self.peak:
                self.peak, self.peak_students = total, in_flight(pids)
            self.totals.append(total)
            self.loads.append(os.getloadavg()[0])
            if self._stop_event.wait(self.interval):
                return

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def children_cpu() -> float:
    """CPU seconds of every finished process this one started, their descendants included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Run:
    """How the CLI run went."""

    code: int
    wall: float  # seconds from start to exit, reports included
    grading: float | None  # the CLI's own "Took N s": grading only
    cpu: float  # CPU seconds of the CLI and everything it started
    sampler: Sampler


def run_cli(tree: Path, out: Path, jobs: int, assignment: str) -> Run:
    """Grade ``tree`` with the CLI (its progress on stderr, its summary echoed)."""
    command = [sys.executable, "-m", "autograder", "grade", str(tree), "--out", str(out),
               "--jobs", str(jobs), "--assignment", assignment, "--force"]
    cpu, started = children_cpu(), time.monotonic()
    process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, text=True)
    sampler = Sampler(process.pid)
    sampler.start()
    try:
        summary, _ = process.communicate()
    finally:
        sampler.stop()
    wall = time.monotonic() - started
    print(summary, end="", flush=True)
    took = re.search(r"Took ([0-9.]+) s", summary)
    return Run(process.returncode, wall, float(took[1]) if took else None,
               children_cpu() - cpu, sampler)
