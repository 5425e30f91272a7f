"""Once a part has hung, a hanging call costs a multiple of what correct code needs.

``suite/budget.py``: after a part's first timeout, each ordinary request of its tests
(outside timing blocks) may use ``max(FLOOR, FACTOR * cost)`` seconds of CPU (``cost``:
the most one request of that test took over the gradings of correct work,
``CALL_COSTS.json``), under the ``CALL_TIMEOUT`` wall cap. What must hold, and where it
is proved:

- a part that never timed out keeps the plain limit, so code that never hangs is graded
  as before (slow tier: it waits the 5 s);
- the budget is counted in the worker's CPU from its first look, so a worker that a busy
  machine stalls is never stopped for it, and a spinning one is (every isolation level,
  a real toy worker; and through the Gradescope entry point, ``test_gradescope.py``);
- a worker that sleeps still meets the wall cap (slow tier);
- work the scorer does for a budgeted request (a stand-in call) is held to the cap, not
  to the short wall time before the first look (``Deadline.most``);
- the committed costs name only tests that exist, and the tool that writes them grades
  for real (``make call-costs`` on the toy).
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.sandbox.deadline import Deadline
from autograder.suite import budget
from autograder.suite.budget import FACTOR, FLOOR, CpuBudget
from tests.course import LEVELS, PRODUCTION, TOKENIZATION, TOY
from tests.toy_worker import run_script

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """A CPU reading the test moves by hand."""

    def __init__(self) -> None:
        self.now: float | None = 10.0

    def __call__(self) -> float | None:
        return self.now


def test_the_budget_counts_cpu_from_the_first_look_and_stops_only_past_it():
    clock = Clock()
    patience = CpuBudget(1.0, clock)
    assert patience() == 1.0  # the first look: the whole budget, whatever ran before
    clock.now += 0.4
    assert patience() == pytest.approx(0.6) and not patience.spent
    clock.now += 0.59
    assert patience() > 0 and not patience.spent  # just under: still waits
    clock.now += 0.02
    assert patience() <= 0 and patience.spent


def test_a_stalled_worker_is_never_stopped_for_its_budget():
    clock = Clock()
    patience = CpuBudget(1.0, clock)
    patience()
    for _ in range(100):  # the machine holds the worker: no CPU, however long the wait
        assert patience() == 1.0
    clock.now = None  # the kernel stops telling: only the wall cap decides
    assert patience() == float("inf") and not patience.spent


def test_a_deadline_with_a_cap_grants_patience_only_up_to_it():
    deadline = Deadline(0.0, lambda: float("inf"), cap=0.3)
    assert 0.2 < deadline.left() <= 0.3
    time.sleep(0.35)
    assert deadline.left() == 0.0


def test_the_scorers_work_for_a_request_is_held_to_the_cap_not_the_first_look():
    deadline = Deadline(0.5, lambda: 1.0, cap=5.0)
    assert deadline.left() <= 0.5
    assert deadline.most() > 4.0  # a stand-in call of 2 s of the reference is not cut at 0.5
    assert Deadline(0.5, lambda: 1.0).most() <= 0.5  # no cap: as before (timing blocks)


def test_a_budget_is_a_multiple_of_the_recorded_cost_within_the_floor_and_the_cap(
        tmp_path, monkeypatch):
    monkeypatch.delenv(budget.RECORD_ENV, raising=False)
    (tmp_path / budget.COSTS_FILE).write_text(json.dumps({"costs": {
        "part1::cheap": 0.001, "part1::heavy": 0.1, "part1::huge": 3.0}}))
    assert budget.budget(tmp_path, "part1::cheap", 5.0) == FLOOR
    assert budget.budget(tmp_path, "part1::heavy", 5.0) == pytest.approx(FACTOR * 0.1)
    assert budget.budget(tmp_path, "part1::huge", 5.0) == 5.0
    assert budget.budget(tmp_path, "part1::new_test", 5.0) == 5.0
    monkeypatch.setenv(budget.RECORD_ENV, str(tmp_path))  # recording: the fixed limit
    assert budget.budget(tmp_path, "part1::cheap", 5.0) == 5.0


BUDGETED = """
from autograder.suite.budget import Meter

State.timeouts = 0 if case == "spinning_first" else 1  # the part has timed out once
state = State()
student = Student(state, worker, time.monotonic(), {}, Meter("part1::t", 1.0))
size = {"stalled": 2_000_000, "frozen": 2_000_000}.get(case, 10**10)
if case in ("stalled", "frozen"):
    threading.Thread(target=freeze, args=({"stalled": 2.0}.get(case),), daemon=True).start()
started = time.monotonic()
try:
    value, error = student.call("spin", size), None
except WorkerFailure as exc:
    value, error = None, exc.detail
print(json.dumps({"value": value, "error": error, "timeouts": state.timeouts,
                  "wall": time.monotonic() - started}))
worker.close()
"""


def budgeted_call(level: str, case: str, tmp_path: Path) -> dict:
    return run_script(BUDGETED, level, case, tmp_path)


@pytest.mark.parametrize("level", LEVELS)
def test_a_call_stalled_past_its_budget_is_answered(level, tmp_path):
    got = budgeted_call(level, "stalled", tmp_path)
    assert got["value"] == 2_000_000 and got["wall"] >= 2.0, got  # frozen 2 s, budget 1 s


@pytest.mark.parametrize("level", LEVELS)
def test_a_call_that_spins_is_stopped_for_its_cpu_and_counts_as_a_timeout(level, tmp_path):
    got = budgeted_call(level, "spinning", tmp_path)
    assert got["error"] == "one call used over 1 s of CPU time, the most this test allows", got
    assert got["timeouts"] == 2, got


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_part_that_never_timed_out_keeps_the_plain_limit(level, tmp_path):
    got = budgeted_call(level, "spinning_first", tmp_path)
    assert got["error"] == "no answer within 5 s" and got["timeouts"] == 1, got


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_call_that_sleeps_is_stopped_by_the_wall_cap(level, tmp_path):
    got = budgeted_call(level, "frozen", tmp_path)
    assert got["error"] == "no answer within 5 s" and got["timeouts"] == 2, got


@pytest.mark.parametrize("assignment", [TOKENIZATION, PRODUCTION], ids=lambda a: a.name)
def test_the_committed_costs_name_only_tests_of_the_suite(assignment):
    recorded = set(budget.costs(assignment.folder))
    assert len(recorded) > 20, "no CALL_COSTS.json: run make call-costs"
    source = "\n".join(path.read_text() for path in assignment.folder.glob("test_part*.py"))
    for test_id in recorded:
        _, name = test_id.split("::")
        assert f"def {name.split('[')[0]}(" in source, test_id


def test_the_cost_tool_grades_the_toy_and_records_its_tests(tmp_path):
    output = tmp_path / "costs.json"
    done = subprocess.run(
        [sys.executable, "-m", "autograder.validity.call_costs", "--assignment",
         str(TOY.folder), "--runs", "1", "--output", str(output)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    costs = json.loads(output.read_text())["costs"]
    assert {test.split("::")[0] for test in costs} == {"part1", "part2"}, costs
    assert all(0 < seconds < 1 for seconds in costs.values()), costs
