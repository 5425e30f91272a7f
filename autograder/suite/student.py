"""A test's view of its worker (``Student``), the limits of one grading, and CPU time.

Limits, so that a hanging submission costs seconds, not minutes, and only in its part:
every request has ``CALL_TIMEOUT`` seconds (loading: ``LOAD_TIMEOUT``, and ``LOAD_CPU`` of
CPU), is stopped once its
worker has sat still for ``asleep.SLEEP_LIMIT`` (``asleep.py``), and, if what it runs has
timed out before in the part, has the CPU budget of its test within them (``budget.py``); after
``MAX_TIMEOUTS`` timeouts a part's remaining tests fail at once; a test may spend
``TEST_BUDGET`` and a part ``PART_BUDGET`` seconds in calls. ``worker_cpu`` is the CPU
the kernel counted for a worker's whole process tree, which the timing tests compare.
"""

import contextlib
import os
import time
from typing import Protocol

from autograder.sandbox import MissingName, Remote, StudentError, Worker, WorkerFailure, cleanup
from autograder.suite.asleep import LOOK, Asleep
from autograder.suite.budget import FIRST_LOOK, CpuBudget, Meter

# The key, in a worker's cache, of the name a handle was read by (``Student._label``).
LABEL = "__label__"
CALL_TIMEOUT = 5.0
# Wall seconds to start a worker, and to load the code into one part's workers: its own, then
# its spares (other hash seeds), which share what the first load left of it.
LOAD_TIMEOUT = 10.0
# CPU seconds a worker may use loading the code (``fixtures.PartState.new_worker``). Loading
# runs only definitions (``extract/rules.py``): a correct load takes milliseconds, and code
# that runs longer is a loop in a class body or a costly constant. 2.5 s is a chosen
# constant, hundreds of times a correct load: with both assignments' eight workers (six
# parts, two spares) loading side by side, it is what the wall limit above guaranteed a
# statement that all of them load on a quiet 2-core machine (10 s x 2 cores / 8), and more
# than it guaranteed in a batch; being CPU, it does not tighten when the machine is busy.
# A loop is stopped in about 2.5 s instead of 10 s.
LOAD_CPU = 2.5
MAX_TIMEOUTS = 2
TEST_BUDGET = 25.0
PART_BUDGET = 45.0


class PartLimits(Protocol):
    """What ``Student`` reads and updates of its part (``fixtures.PartState`` has it):
    the seconds spent in calls, why the part stopped, its count of timeouts and what
    timed out."""

    part: int
    seconds: float
    broken: str | None
    timeouts: int
    hung: set[str]  # what timed out (``Student._request``'s labels)

    def timed_out(self) -> None: ...


class GradingStopped(Exception):
    """A test that is not run (or stopped) because of a limit; the message is for the student."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.student_message = message


TICK = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _process_cpu(pid: int) -> float:
    """CPU seconds of one process: all its threads, and its children that it has reaped.

    The threads alive now are read to the nanosecond (``task/*/schedstat``); threads that
    already ended only show in the process's ``utime + stime`` (clock ticks), which counts
    every thread, so the larger of the two is taken. ``cutime + cstime`` are the children
    that ended and were waited for (a child still running is in the tree on its own).
    """
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    threads = 0
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                threads += cleanup.thread_schedstat(pid, task)[0]
    return max(threads / 1e9, (utime + stime) * TICK) + (cutime + cstime) * TICK


def worker_cpu(worker: Worker) -> float | None:
    """CPU seconds spent on the worker's behalf so far, counted by the kernel.

    Every thread of every process in the tree under the process the sandbox started
    (which may be a launcher such as ``unshare``), found again at each reading, so that
    work moved into a helper thread or a child process counts; children that already
    ended count through their parent's ``cutime``/``cstime``. Plus the scoring process's
    own CPU spent answering the worker's calls of the reference (``ref_seconds``), which
    is work done for the student's code too. Unlike wall time, none of this grows while
    other processes hold the cores. None where the kernel does not tell (then the timings
    fall back to wall time).
    """
    process = worker.process
    if process is None:
        return None
    for _ in range(READINGS):
        tree = cleanup.tree(process.pid)
        if not tree:
            return None
        total, read = 0.0, []
        # Children before their parents: a child reaped between the walk and its own
        # reading is then in its parent's cutime, read after. (Parents first, a child
        # reaped after its parent was read counted nowhere: code that reaped its
        # helper a few ms after returning hid the helper's work from the timing tests.)
        for pid in reversed(tree):
            try:
                total += _process_cpu(pid)
            except (OSError, ValueError, IndexError):
                if pid == process.pid:  # the worker itself is gone: no reading
                    return None
                continue
            read.append(pid)
        # A child read and then reaped before its parent was read counts twice: read
        # again (what stays counted twice after that favours no one's speed).
        if all(_unreaped(pid) for pid in read if pid != process.pid):
            break
    return total + getattr(worker, "ref_seconds", 0.0)


# Readings ``worker_cpu`` makes at most while children end under it.
READINGS = 4


def _unreaped(pid: int) -> bool:
    """Is ``pid`` still in the process table, running or a zombie nobody has reaped?

    A zombie counts: its CPU has not yet moved to its parent's ``cutime``, so a reading
    that included it is still right. (``cleanup._alive`` is the opposite rule, for
    killing: a zombie needs no signal.)"""
    return os.path.exists(f"/proc/{pid}")


class Student:
    """A test's view of a worker: the sandbox API with sticky failures and time budgets."""

    def __init__(self, state: PartLimits, worker: Worker, started: float, cache: dict,
                 meter: Meter | None = None) -> None:
        self.state, self.worker, self.started, self.cache = state, worker, started, cache
        self.meter = meter or Meter("", CALL_TIMEOUT)
        self.failure: BaseException | None = None
        self.last_seconds = 0.0
        self._limited = False

    @property
    def names(self) -> set[str]:
        return self.worker.names

    def call(self, name: str, *args: object, **kwargs: object) -> object:
        """Call a module-level function or class of the submission."""
        return self._request(name, self.worker.call, name, *args, **kwargs)

    def method(self, obj: Remote, name: str, *args: object, **kwargs: object) -> object:
        """Call ``obj.name(*args, **kwargs)`` in the worker."""
        label = self._label(obj) if name == "__call__" else self._label(obj, name)
        return self._request(label, self.worker.method, obj, name, *args, **kwargs)

    def get(self, obj: Remote | None, name: str) -> object:
        """Read ``obj.name`` (a module-level name when ``obj`` is None)."""
        label = name if obj is None else self._label(obj, name)
        value = self._request(label, self.worker.get, obj, name)
        if isinstance(value, Remote):  # a function, class or method: calls of it carry its name
            self.cache[(LABEL, value)] = label
        return value

    def map(self, func: str | Remote, *columns: list, keep: bool = False) -> object:
        """``[func(*row) for row in zip(*columns)]`` in the worker, in one request."""
        label = func if isinstance(func, str) else self._label(func)
        return self._request(label, self.worker.map, func, *columns, keep=keep)

    def attributes(self, objects: list[Remote] | Remote, name: str) -> object:
        """``[obj.name for obj in objects]`` in one request (``objects``: a list of handles, or
        a handle to a list kept in the worker)."""
        return self._request(None, self.worker.attributes, objects, name)

    def _label(self, obj: Remote, name: str | None = None) -> str | None:
        """What a request on ``obj`` runs, for the budget of what has hung: the name ``obj``
        was read by (``get``: ``f``, ``Cls.f``), else its type's name,
        then ``.name``; None for calling a handle of unknown origin."""
        owner = self.cache.get((LABEL, obj))
        if name is None:
            return owner
        return f"{owner or obj.type_name}.{name}"

    def put(self, value: object) -> Remote:
        """Keep a copy of ``value`` in the worker (see ``Worker.put``)."""
        return self._request(None, self.worker.put, value)

    def cpu_seconds(self) -> float | None:
        """CPU seconds the worker has used so far (None where unknown)."""
        return worker_cpu(self.worker)

    @contextlib.contextmanager
    def time_limit(self, seconds: float):
        """Requests inside are stopped once the worker has used ``seconds`` of CPU time
        in them (at most ``CALL_TIMEOUT``), or after ``CALL_TIMEOUT`` of wall time.

        Each request waits ``seconds`` of wall time first; past that it waits on while
        the worker's CPU time since the block began is under ``seconds`` (the patience of
        ``sandbox/deadline.py``): a run that a busy machine stalls is not stopped for it.
        Where the kernel reports no CPU time, the wall time alone decides. A timeout here
        is the test's own limit (a timing test stopping a slow run), so it does not count
        towards ``MAX_TIMEOUTS``. A worker that sits still is stopped after
        ``asleep.SLEEP_LIMIT`` here too, the same way.
        """
        limit = min(seconds, CALL_TIMEOUT)
        began, cpu_began = time.monotonic(), self.cpu_seconds()

        def patience() -> float:
            cpu_now = self.cpu_seconds()
            if cpu_began is None or cpu_now is None:
                return 0.0
            return min(limit - (cpu_now - cpu_began), CALL_TIMEOUT - (time.monotonic() - began))

        old, self.worker.timeout = self.worker.timeout, limit
        self.worker.patience, self._limited = Asleep(self.worker, patience), True
        try:
            yield
        finally:
            self.worker.timeout, self.worker.patience, self._limited = old, None, False

    def _stop(self, message: str) -> None:
        self.failure = GradingStopped(message)
        raise self.failure

    def _request(self, label: str | None, func, *args: object, **kwargs: object) -> object:
        """``func(*args, **kwargs)`` within the part's limits; ``label`` names what the
        student's code runs (the function, ``Class.method``, the attribute), for the CPU
        budget of a name that has timed out before."""
        if self.failure is not None:
            raise self.failure
        state = self.state
        if state.broken is not None:
            self._stop(state.broken)
        if state.seconds > PART_BUDGET:
            state.broken = f"not run: your Part {state.part} code used up its {PART_BUDGET:g} s"
            self._stop(state.broken)
        if time.monotonic() - self.started > TEST_BUDGET:
            self._stop(f"stopped: this test took longer than {TEST_BUDGET:g} s")
        meter, limited = self.meter, self._limited
        # The CPU budget applies to a name that has timed out in this part (``budget.py``:
        # code that never hangs is graded under the plain limit).
        budget = None if limited or label not in state.hung or meter.seconds >= CALL_TIMEOUT \
            else CpuBudget(meter.seconds, self.cpu_seconds)
        recording = None if limited else meter.recording
        cpu_before = self.cpu_seconds() if recording is not None else None
        worker, kept = self.worker, (self.worker.timeout, self.worker.patience, self.worker.cap)
        # A timing test's block has its own patience (``time_limit``, asleep-watched too);
        # any other request is watched for sleep (``asleep.py``) within ``CALL_TIMEOUT``.
        watch = None if limited else Asleep(worker, budget)
        if watch is not None:  # put back in ``finally``: nothing may raise in between
            worker.timeout = FIRST_LOOK if budget is not None else LOOK
            worker.patience, worker.cap = watch, CALL_TIMEOUT
        start = time.perf_counter()
        try:
            value = func(*args, **kwargs)
        except (StudentError, MissingName):
            raise
        except WorkerFailure as exc:
            self.worker.close()
            if exc.kind == "timeout" and watch is not None:
                exc = _over_limit(watch, budget)
            self.failure = exc
            if exc.kind == "timeout" and not limited:
                state.timed_out()
                if label is not None:
                    state.hung.add(label)
            raise exc from None
        except BaseException:
            # Interrupted in the middle of a request: a stale reply may wait in the pipe.
            self.worker.close()
            raise
        finally:
            self.last_seconds = time.perf_counter() - start
            state.seconds += self.last_seconds
            if watch is not None:
                worker.timeout, worker.patience, worker.cap = kept
            if cpu_before is not None:  # a request that ended its worker counts as the cap
                cpu_after = self.cpu_seconds()
                recording.add(meter.test_id, CALL_TIMEOUT if cpu_after is None
                              else cpu_after - cpu_before)
        return value


def _over_limit(watch: Asleep, budget: CpuBudget | None) -> WorkerFailure:
    """The timeout of an ordinary request, saying which limit stopped it (the student reads
    the detail): it sat still, it used its CPU budget, or it ran out of wall time."""
    if watch.asleep:
        return WorkerFailure("timeout", watch.failure())
    if budget is not None and budget.spent:
        return WorkerFailure("timeout", f"one call used over {budget.seconds:.2g} s of CPU "
                             "time, the most this test allows")
    return WorkerFailure("timeout", f"no answer within {CALL_TIMEOUT:g} s")
