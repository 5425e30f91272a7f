"""A request whose worker sleeps is stopped after ``SLEEP_LIMIT``, not ``CALL_TIMEOUT``.

``suite/asleep.py``: a worker whose whole tree sits in state ``S`` with no run or run-queue
time added, while it owes the reply, for ``SLEEP_LIMIT`` seconds is stopped. What must hold:

- a call that sleeps is stopped by the watch (never before ``SLEEP_LIMIT``), with a message
  that says so, counts as a timeout and puts the worker's limits back; so is one in a
  timing block and one under the CPU budget of what has hung (every isolation level, a
  real toy worker). No test bounds a wall time from above: which limit stopped the call
  is read from its message, or in a timing block from the watch itself;
- a load that sleeps (a class body) is stopped too, in a real toy grading;
- a call that naps for less than the limit, or that waits for a thread doing the work, is
  answered (every level): waiting on one's own work is not sleep;
- the rule itself: unchanged readings for the limit are asleep; a reading that moves, a
  busy tree (running, waiting for a core or the disk, stopped), a message owed by the
  scorer and a kernel that does not tell never are.

A worker frozen by a signal (the machine stalling it) is not asleep: ``test_call_budget.py``
proves that it is answered under its budget and stopped only by the wall cap.
"""

import os

import pytest

from autograder.sandbox.reference import reference_without
from autograder.suite import asleep
from autograder.suite.asleep import BUSY, LOOK, SLEEP_LIMIT, Asleep
from autograder.suite.run import grade_file
from autograder.suite.student import CALL_TIMEOUT
from tests.course import LEVELS, TOY
from tests.toy_worker import run_script

SLEEPER = """
from autograder.suite.budget import Meter

state = State()
if case == "budgeted_nap":
    state.timeouts, state.hung = 1, {"nap"}
student = Student(state, worker, time.monotonic(), {}, Meter("part1::t", 1.0))
calls = {"helped": ("helped", 1.6), "short_nap": ("nap", 0.4)}
name, argument = calls.get(case, ("nap", 60))
started, stopped_asleep = time.monotonic(), None
try:
    if case == "timed_nap":
        with student.time_limit(0.5):
            try:
                value, error = student.call(name, argument), None
            except WorkerFailure as exc:  # which patience stopped it, read inside the block
                value, error, stopped_asleep = None, exc.detail, worker.patience.asleep
    else:
        value, error = student.call(name, argument), None
except WorkerFailure as exc:
    value, error = None, exc.detail
print(json.dumps({"value": value, "error": error, "timeouts": state.timeouts,
                  "stopped_asleep": stopped_asleep,
                  "wall": time.monotonic() - started, "cpu": student.cpu_seconds(),
                  "limits": [worker.timeout, worker.patience is None, worker.cap]}))
worker.close()
"""


@pytest.mark.parametrize("case", ["nap", "timed_nap", "budgeted_nap"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_call_that_sleeps_is_stopped_after_the_sleep_limit(level, case, tmp_path):
    got = run_script(SLEEPER, level, case, tmp_path)
    assert got["value"] is None and got["wall"] >= SLEEP_LIMIT, got  # never before the limit
    if case == "timed_nap":  # a timing block's stop reads as its own (and is not counted)
        assert got["stopped_asleep"] is True and got["timeouts"] == 0, got
    else:  # the watch's message, not the wall cap's "no answer within 5 s"
        assert got["error"].startswith(f"one call sat still for {SLEEP_LIMIT:g} s"), got
        assert got["timeouts"] == (2 if case == "budgeted_nap" else 1), got
    assert got["limits"] == [CALL_TIMEOUT, True, None], got


@pytest.mark.parametrize("case", ["short_nap", "helped"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_short_nap_and_a_wait_for_ones_own_thread_are_answered(level, case, tmp_path):
    got = run_script(SLEEPER, level, case, tmp_path)
    assert got["error"] is None and got["timeouts"] == 0, got
    if case == "helped":  # the main thread waited longer than the limit, the helper ran
        assert got["value"] == 1.6 and got["cpu"] > SLEEP_LIMIT + LOOK, got


class Worker:
    """What the watch reads of a worker, set by hand."""

    awaiting = True
    exchanges = 0
    cap = None


def watch_with(readings: list, monkeypatch) -> tuple[Asleep, list[float]]:
    """An ``Asleep`` whose looks return ``readings`` in turn, on a clock moved by hand."""
    clock = [100.0]
    monkeypatch.setattr(asleep.time, "monotonic", lambda: clock[0])
    answers = iter(readings)
    monkeypatch.setattr(asleep, "_look", lambda worker: next(answers))
    return Asleep(Worker()), clock


@pytest.mark.parametrize("still", [(1, 500), BUSY, None], ids=["moving", "busy", "unknown"])
def test_only_a_reading_that_stands_still_for_the_limit_is_asleep(still, monkeypatch):
    looks = 12
    readings = ([(1, 500 + i) for i in range(looks)] if still == (1, 500)
                else [still] * looks)
    watch, clock = watch_with(readings, monkeypatch)
    for _ in range(looks):
        assert watch() > 0, clock
        clock[0] += 0.25
    assert not watch.asleep and watch.failure() is None


def test_the_same_reading_for_the_limit_is_asleep_and_the_wrapped_patience_still_speaks(
        monkeypatch):
    watch, clock = watch_with([(1, 500)] * 10, monkeypatch)
    assert watch() > 0  # the first look only takes the reading
    clock[0] += SLEEP_LIMIT - 0.01
    assert watch() > 0  # just under the limit
    clock[0] += 0.02
    assert watch() == 0 and watch.asleep
    assert watch.failure().startswith(f"one call sat still for {SLEEP_LIMIT:g} s")
    stopping = Asleep(Worker(), lambda: 0.0)  # the wrapped patience stops it first
    assert stopping() == 0 and not stopping.asleep


def test_a_busy_or_owed_look_is_read_from_the_kernel_and_the_pipe(monkeypatch):
    """``_look`` itself: BUSY while the scorer owes a message or a reply waits; else the
    tree's counts, or BUSY for a thread in a state that is not sleeping."""

    class Process:
        pid = os.getpid()  # a live process whose threads this test may read

    class Real(Worker):
        process = Process()

        def reply_waiting(self) -> bool:
            return self.pending

    worker = Real()
    worker.pending, worker.awaiting = False, False
    assert asleep._look(worker) == BUSY  # the scorer owes the worker a message
    worker.awaiting, worker.pending = True, True
    assert asleep._look(worker) == BUSY  # a reply waits in the pipe
    worker.pending = False
    monkeypatch.setattr(asleep.cleanup, "tree", lambda pid: [pid])
    monkeypatch.setattr(asleep, "_state", lambda pid, task: b"S")
    assert asleep._look(worker)[0] == 0  # sleeping threads: their counts
    for state in (b"R", b"D", b"T"):
        monkeypatch.setattr(asleep, "_state", lambda pid, task, state=state: state)
        assert asleep._look(worker) == BUSY, state


SLEEPY_CLASS = '''

class Shouter(Shouter):
    """Loaded, it sleeps: its body runs when the worker loads the code."""
    __import__("time").sleep(60)
'''


def test_a_load_that_sleeps_is_stopped_after_the_sleep_limit(tmp_path):
    """A class body that sleeps held each worker's load for ``LOAD_TIMEOUT`` (10 s); the
    message is the watch's (a load stopped by the wall says "timed out after 10 s")."""
    path = tmp_path / "sleepy.py"
    path.write_text(reference_without(TOY, 0)[0] + SLEEPY_CLASS, encoding="utf-8")
    result = grade_file(path, "sleepy", assignment=TOY, timeout=120)
    assert result["status"] == "graded", result["error"]
    outputs = {t["output"] for t in result["tests"] if t["part"] == 2}
    assert outputs == {"loading your code stopped: it sat still for 1 s: it neither ran nor "
                       "waited for a core (a sleep, or a wait for input or a lock that never "
                       "comes)"}, outputs


def test_a_wrapped_patience_keeps_its_whole_grant(monkeypatch):
    """A timing block's deadline has no cap, so its window is also the CPU a stand-in call
    the scorer serves may use (``Deadline.most``): the watch must not cut it to a look's
    quarter second (honest runs on a loaded machine would then fail)."""
    watch, clock = watch_with([(1, 500), (1, 600), (1, 600)], monkeypatch)
    watch.then = lambda: 3.0
    assert watch() == 3.0 and watch() == 3.0  # moving, then the first still look
    clock[0] += SLEEP_LIMIT
    assert watch() == 0 and watch.asleep  # still for the limit: asleep all the same


def test_under_a_cap_the_watch_looks_often_whatever_it_wraps(monkeypatch):
    """A request with a cap (a load, one under the CPU budget) ends there whatever the
    windows, so the watch looks every ``LOOK`` and stops a sleep in about ``SLEEP_LIMIT``,
    not at the wrapped budget's pace (2.5 s at a load)."""
    watch, clock = watch_with([(1, 500)] * 3, monkeypatch)
    watch.then, watch.worker.cap = (lambda: 2.5), 10.0
    assert watch() == LOOK
    clock[0] += SLEEP_LIMIT
    assert watch() == 0 and watch.asleep

