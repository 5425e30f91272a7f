"""Stop a request whose worker sleeps: its code neither runs nor waits for a core, and
no reply is on its way, for ``SLEEP_LIMIT`` seconds in a row.

A request that loops uses CPU, and the CPU budget of what has hung (``budget.py``) stops
it early. A request that sleeps (``time.sleep``, a lock that no thread will release, a
read from a pipe that nobody writes) uses none: before this watch it waited for its
whole ``CALL_TIMEOUT``, 5 s, twice per part, and a load that slept for ``LOAD_TIMEOUT``.

Asleep is told from slow by the kernel, never by wall time alone. Every thread of every
process in the worker's tree (``cleanup.tree``) must be in state ``S`` (sleeping) or have
ended, at every look, and the nanoseconds they ran or waited in a run queue
(``/proc/.../schedstat``) must not grow between looks. A thread that runs or waits for a
core is ``R``, one that waits for the disk ``D``, one stopped by a signal ``T``: none of
them sleeps by its own choice, so a machine that holds the worker (busy cores, a slow disk,
a stop) does not make it look asleep. (Two holds would: a cgroup freezer, whose frozen
tasks show ``S``, and a file system served by a process outside the tree, as FUSE is. The
grader uses neither.) Nor does this process being slow: the clock runs only while the
worker owes the next message (``Worker.awaiting``: the request is sent, no reply or stand-
in call has come), any message either way starts it again, and a reply's bytes waiting in
the pipe (a worker blocked writing to a scorer slow to read) count as progress. Correct
code never sits still for a second otherwise.

The line is drawn by looks, so it is not sharp: a sleep shorter than ``SLEEP_LIMIT`` is
never stopped, one longer than ``SLEEP_LIMIT`` plus two ``LOOK``s always is, and correct
code has no sleep at all. In a timing test's block (``Student.time_limit``) a worker stopped for
sleeping reads like a run stopped for its time ("took over Nx"): the verdict is the same.

The watch is a ``deadline.Patience``: the request's deadline asks it whether to wait on,
every ``LOOK`` seconds when the request has a wall-clock cap (a plain request, one under the
CPU budget of what has hung, a load), else as often as the patience it wraps asks to be
asked (a timing test's limit, whose grants it passes on whole). Where the
kernel does not tell (no schedstat), it never calls a worker asleep, and the request keeps
its plain limits.
"""

import os
import time
from collections.abc import Callable

from autograder.sandbox import Worker, cleanup

SLEEP_LIMIT = 1.0  # wall seconds with no progress at all before a request is stopped
LOOK = 0.25  # wall seconds between looks

Reading = tuple[int, int]  # (messages from the worker, ns run or waited for a core)
# Not asleep, whatever the counts: this process owes the worker a message (it may have been
# slow to write it), a reply waits in the pipe, or a thread is in a state not in STILL.
BUSY = "busy"
# The only thread states a sleeping tree shows: sleeping, and ended but not yet waited for.
# Every other state is "cannot call it asleep": R (running, or waiting for a core: the
# kernel adds that wait to schedstat only once the thread gets one), D (waiting for the
# disk), T and t (stopped by a signal or a debugger, as a machine that stalls it is
# played in the tests).
STILL = frozenset({b"S", b"Z", b"X"})


def _look(worker: Worker) -> Reading | str | None:
    """What the worker has done so far; ``BUSY`` when it is plainly not asleep; None
    where the kernel does not tell all of it (no schedstat, a thread that could not be
    read, the tree gone)."""
    process = worker.process
    if process is None:
        return None
    if not worker.awaiting or worker.reply_waiting():
        return BUSY
    counted = 0
    try:  # every thread of the tree read, or no reading: a part of it could be working
        for pid in cleanup.tree(process.pid):
            for task in os.listdir(f"/proc/{pid}/task"):
                if _state(pid, task) not in STILL:
                    return BUSY
                counted += sum(cleanup.thread_schedstat(pid, task))
    except (OSError, ValueError, IndexError):  # a process ended mid-walk, or no schedstat
        return None
    return (worker.exchanges, counted) if counted else None


def _state(pid: int, task: str) -> bytes:
    """The thread's state letter (``R``, ``S``, ``D``...)."""
    with open(f"/proc/{pid}/task/{task}/stat", "rb") as handle:
        return handle.read().rsplit(b")", 1)[1].split()[0]


class Asleep:
    """Patience that stops a request once its worker has made no progress for
    ``SLEEP_LIMIT`` seconds, and otherwise grants what ``then`` grants (forever without
    one); under a wall-clock cap (``Worker.cap``), which then ends the request, at most
    ``LOOK`` at a time, so that it looks often."""

    def __init__(self, worker: Worker, then: Callable[[], float] | None = None) -> None:
        self.worker, self.then = worker, then
        self.last: Reading | str | None = None  # the first look only takes a reading
        self.still_since = 0.0  # since when the readings have been ``last``
        self.asleep = False  # the request was stopped for sleeping

    def __call__(self) -> float:
        more = float("inf") if self.then is None else self.then()
        if more <= 0:
            return 0.0
        reading, now = _look(self.worker), time.monotonic()
        if reading in (None, BUSY) or reading != self.last:  # moved, or cannot tell
            self.last, self.still_since = reading, now
        elif now - self.still_since >= SLEEP_LIMIT:
            self.asleep = True
            return 0.0
        if self.then is not None and self.worker.cap is None:
            # The wrapped patience's whole grant, never a shorter one: without a cap (a
            # timing block) the window is also what a stand-in call the scorer serves may
            # use (``Deadline.most``), and a quarter-second window cut honest runs short.
            return more
        # With a cap (a plain request, a CPU budget, a load), the cap is that limit instead,
        # so the watch may look every ``LOOK``.
        return min(more, LOOK, self.still_since + SLEEP_LIMIT - now)

    def failure(self, doing: str = "one call") -> str | None:
        """What the student reads when the watch stopped the request, else None."""
        if not self.asleep:
            return None
        return (f"{doing} sat still for {SLEEP_LIMIT:g} s: it neither ran nor waited for a "
                "core (a sleep, or a wait for input or a lock that never comes)")
