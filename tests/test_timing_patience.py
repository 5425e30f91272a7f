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

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.course import LEVELS, TOY, isolation_env

ROOT = Path(__file__).resolve().parents[1]

TIMED = """
import json, os, signal, sys, threading, time
from pathlib import Path
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Worker, cleanup
from autograder.suite.remote import Run, timed
from autograder.suite.student import Student


class State:
    part, seconds, broken, timeouts = 1, 0.0, None, 0

    def timed_out(self):
        pass


toy, path, case = load(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
path.write_text("def spin(n):\\n    total = 0\\n    for i in range(n):\\n"
                "        total += i\\n    return n\\n")
worker = Worker(toy, extract(path), 1, timeout=30)
student = Student(State(), worker, time.monotonic(), {})
student.call("spin", 1000)


def freeze(seconds):
    time.sleep(0.02)  # the request is on its way
    pids = cleanup.tree(worker.process.pid)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    if seconds is not None:
        time.sleep(seconds)
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


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
    done = subprocess.run(
        [sys.executable, "-c", TIMED, str(TOY.folder), str(tmp_path / "spin.py"), case],
        cwd=ROOT, env=isolation_env(level), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


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
