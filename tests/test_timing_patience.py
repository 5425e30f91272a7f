"""A timing test's run is stopped by the CPU time its code used, not by a busy machine.

A timing test stops its long run at a small multiple of its short run's time (at least
1 s), so that quadratic code does not cost minutes. Before, that limit was wall time: a
run of a few milliseconds that the machine stalled for a second (a fork storm, memory
being reclaimed) was stopped and counted as infinitely slow, and correct code lost the
test. Now a timed request waits on past its wall time while the worker's CPU time is
under the limit (``sandbox/deadline.py``, ``Student.time_limit``), up to a hard wall cap.

Proved at every isolation level, in a subprocess that starts a toy worker and times it
with the engine's ``remote.timed``:

- a short run whose worker is frozen (``SIGSTOP``) for longer than the limit is timed,
  not stopped; with the patience removed it is stopped;
- a run that burns CPU past the limit is still stopped, within about the limit;
- (slow tier) a worker frozen for good is stopped by the hard cap, ``CALL_TIMEOUT``.
"""

from pathlib import Path

import pytest

from tests.course import LEVELS
from tests.toy_worker import run_script

TIMED = """
from autograder.suite.remote import Run, timed

student = Student(State(), worker, time.monotonic(), {})
size = {"stalled": 2_000_000, "spinning": 100_000_000, "frozen": 2_000_000}[case]
stall = {"stalled": 1.0, "spinning": None, "frozen": None}[case]
if case != "spinning":
    threading.Thread(target=freeze, args=(stall,), daemon=True).start()
started = time.monotonic()
compute, _ = timed(student, Run(lambda: student.call("spin", size), lambda v: v,
                                   lambda v: None), limit=0.5)
print(json.dumps({"compute": compute if compute != float("inf") else None,
                  "wall": time.monotonic() - started}))
worker.close()
"""


def timed_run(level: str, case: str, tmp_path: Path) -> dict:
    return run_script(TIMED, level, case, tmp_path)


@pytest.mark.parametrize("level", LEVELS)
def test_a_stalled_run_is_timed_not_stopped(level, tmp_path):
    got = timed_run(level, "stalled", tmp_path)
    assert got["compute"] is not None, got  # None: stopped, as if infinitely slow
    assert got["compute"] < 0.5 and got["wall"] >= 1.0, got


@pytest.mark.parametrize("level", LEVELS)
def test_a_run_that_spins_is_still_stopped(level, tmp_path):
    got = timed_run(level, "spinning", tmp_path)
    assert got["compute"] is None, got
    assert got["wall"] < 4.0, got  # about the limit's 0.5 s of CPU, not the 5 s hard cap


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_frozen_run_is_stopped_by_the_hard_cap(level, tmp_path):
    got = timed_run(level, "frozen", tmp_path)
    assert got["compute"] is None, got
