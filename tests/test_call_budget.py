"""A function that has hung once costs a multiple of what correct code needs, not 5 s again.

``suite/budget.py``: once a request has timed out, later requests of the same part that
run the same function or method (outside timing blocks) may use ``max(FLOOR, FACTOR *
cost)`` seconds of CPU (``cost``: the most one request of that test took over the
gradings of correct work, ``CALL_COSTS.json``), under the ``CALL_TIMEOUT`` wall cap. What
must hold, and where it is proved:

- a function that never timed out keeps the plain limit, even when another one of its part
  has (slow tier, every isolation level: it waits the 5 s); in a real grading, a
  pre-tokenizer that hangs on one input costs a slow but correct decode nothing;
- the budget is the worker's CPU since the request began: a worker that a busy machine
  stalls is never stopped for it, whenever the stall comes, and a spinning one is (every
  isolation level, a real toy worker; and through the Gradescope entry point,
  ``test_gradescope.py``); the worker's limits are put back after each request;
- a worker frozen by a signal (the machine stalling it, not sleeping: ``test_asleep.py``)
  still meets the wall cap (slow tier);
- work the scorer does for a budgeted request (a stand-in call) is held to the cap, not
  to the short wall time before the first look (``Deadline.most``);
- the committed costs list exactly the tests of the suite, and the tool that writes them
  grades for real (``make call-costs`` on the toy).
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.sandbox import deadline
from autograder.sandbox.deadline import Deadline
from autograder.sandbox.reference import reference_without
from autograder.suite import budget
from autograder.suite.budget import FACTOR, FLOOR, CpuBudget
from tests.course import LEVELS, PRODUCTION, TOKENIZATION, TOY
from tests.toy_worker import run_script

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """A clock the test moves by hand (the worker's CPU, or the scorer's wall time)."""

    def __init__(self, now: float | None = 10.0) -> None:
        self.now = now

    def __call__(self) -> float | None:
        return self.now


def test_the_budget_counts_the_cpu_used_since_the_request_began():
    clock = Clock()
    patience = CpuBudget(1.0, clock)  # reads the CPU once, now
    clock.now += 0.4
    assert patience() == pytest.approx(0.6) and not patience.spent
    clock.now += 0.59
    assert patience() > 0 and not patience.spent  # just under: still waits
    clock.now += 0.02
    assert patience() <= 0 and patience.spent


@pytest.mark.parametrize("needs", [0.95, 1.15])
def test_the_verdict_does_not_depend_on_when_the_machine_stalls_the_worker(needs):
    verdicts = set()
    for at_first_look in (0.0, 0.5):  # stalled from the start, or running at once
        clock = Clock()
        patience = CpuBudget(1.0, clock)
        clock.now += at_first_look
        patience()
        clock.now = 10.0 + needs  # the request's whole work
        verdicts.add(patience() <= 0)
    assert verdicts == {needs > 1.0}


def test_a_stalled_worker_waits_and_an_unknown_cpu_leaves_it_to_the_cap():
    clock = Clock()
    patience = CpuBudget(1.0, clock)
    for _ in range(100):  # the machine holds the worker: no CPU, however long the wait
        assert patience() == 1.0
    clock.now = None  # the kernel stops telling: only the wall cap decides
    assert patience() == float("inf") and not patience.spent


def test_a_deadline_with_a_cap_grants_patience_only_up_to_it(monkeypatch):
    wall = Clock(100.0)
    monkeypatch.setattr(deadline.time, "monotonic", wall)
    capped = Deadline(0.0, lambda: float("inf"), cap=3.0)
    assert capped.left() == 3.0
    wall.now += 3.0
    assert capped.left() == 0.0


def test_the_scorers_work_for_a_request_is_held_to_the_cap_not_the_first_look(monkeypatch):
    wall = Clock(100.0)
    monkeypatch.setattr(deadline.time, "monotonic", wall)
    assert Deadline(0.5, lambda: 1.0, cap=5.0).most() == 5.0  # a 2 s stand-in call may run
    assert Deadline(0.5, lambda: 1.0).most() == 0.5  # no cap: as before (timing blocks)


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

state = State()
state.timeouts, state.hung = 1, {"spin"}  # a request of this part timed out: spin
if case == "spinning_other":
    state.hung = {"other"}
if case == "first_through_a_handle":
    state.timeouts, state.hung = 0, set()
student = Student(state, worker, time.monotonic(), {}, Meter("part1::t", 1.0))
size = {"stalled": 2_000_000, "frozen": 2_000_000}.get(case, 10**10)
if case in ("stalled", "frozen"):
    threading.Thread(target=freeze, args=({"stalled": 2.0}.get(case),), daemon=True).start()
started = time.monotonic()
try:
    if "handle" in case:  # as ``remote.many`` calls: a map over the handle ``get`` read
        value, error = student.map(student.get(None, "spin"), [size]), None
    else:
        value, error = student.call("spin", size), None
except WorkerFailure as exc:
    value, error = None, exc.detail
print(json.dumps({"value": value, "error": error, "timeouts": state.timeouts,
                  "hung": sorted(state.hung),
                  "wall": time.monotonic() - started,
                  "limits": [worker.timeout, worker.patience is None, worker.cap]}))
worker.close()
"""


def budgeted_call(level: str, case: str, tmp_path: Path) -> dict:
    return run_script(BUDGETED, level, case, tmp_path)


@pytest.mark.parametrize("level", LEVELS)
def test_a_call_stalled_past_its_budget_is_answered(level, tmp_path):
    got = budgeted_call(level, "stalled", tmp_path)
    assert got["value"] == 2_000_000 and got["wall"] >= 2.0, got  # frozen 2 s, budget 1 s
    assert got["limits"] == [5.0, True, None], got  # put back for the next request


@pytest.mark.parametrize("case", ["spinning", "spinning_through_a_handle"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_call_that_spins_is_stopped_for_its_cpu_and_counts_as_a_timeout(level, case, tmp_path):
    got = budgeted_call(level, case, tmp_path)
    assert got["error"] == "one call used over 1 s of CPU time, the most this test allows", got
    assert got["timeouts"] == 2 and got["limits"] == [5.0, True, None], got


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_timeout_through_a_handle_names_the_function_it_ran(level, tmp_path):
    got = budgeted_call(level, "first_through_a_handle", tmp_path)
    assert got["error"] == "no answer within 5 s" and got["hung"] == ["spin"], got


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_function_that_never_timed_out_keeps_the_plain_limit(level, tmp_path):
    got = budgeted_call(level, "spinning_other", tmp_path)  # another function hung before
    assert got["error"] == "no answer within 5 s" and got["timeouts"] == 2, got


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_frozen_call_is_stopped_by_the_wall_cap(level, tmp_path):
    got = budgeted_call(level, "frozen", tmp_path)
    assert got["error"] == "no answer within 5 s" and got["timeouts"] == 2, got


@pytest.mark.parametrize("assignment", [TOKENIZATION, PRODUCTION], ids=lambda a: a.name)
def test_the_committed_costs_list_exactly_the_tests_of_the_suite(assignment):
    """A test missing from ``CALL_COSTS.json`` was added after it was recorded (rerun
    ``make call-costs``); one the suite lacks was renamed or removed."""
    defined = {f"part{path.stem.removeprefix('test_part')}::{name}"
               for path in assignment.folder.glob("test_part*.py")
               for name in re.findall(r"^def (test_\w+)\(", path.read_text(), re.MULTILINE)}
    recorded = {test.split("[")[0] for test in budget.costs(assignment.folder)}
    assert recorded == defined, (sorted(defined - recorded), sorted(recorded - defined))


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


HANG_AND_SLOW_DECODE = '''

def gpt2_pretokenize(text):
    """Right, except that it never gets past U+10FFFF."""
    if not isinstance(text, str):
        raise TypeError("gpt2_pretokenize expects a str")
    while "\\U0010ffff" in text:
        pass
    return compiled_gpt2_pattern().findall(text)


class ByteLevelBPE(ByteLevelBPE):
    def encode_ordinary(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        self._ready()
        return [i for piece in compiled_gpt2_pattern().findall(text)
                for i in self._encode_piece(piece)]

    def decode(self, ids):
        """Right, and slow: the inverse vocabulary is built again at every call."""
        inverse = {token_id: token for token, token_id in self.encoder.items()}
        assert len(inverse) == len(self.encoder)
        return super().decode(ids)
'''


@pytest.mark.slow
def test_a_hang_in_one_function_costs_nothing_in_the_slow_tests_of_another(tmp_path):
    """Production's Part 1 with a pre-tokenizer that hangs on one input, and a decode that
    needs 2 to 3 s of CPU in the round trip (over any budget of that test; the plain limit
    passes it on a quiet machine): the pre-tokenizer's timeout arms no budget for decode.
    (Whether 5 s of wall time suffice on a loaded machine is the plain limit's business,
    so only the budget's own message is looked for.)"""
    from autograder.suite.run import grade_file

    path = tmp_path / "production_tokenizers.py"
    path.write_text(reference_without(PRODUCTION, 0)[0] + HANG_AND_SLOW_DECODE)
    result = grade_file(path, "hang_and_slow_decode", assignment=PRODUCTION)
    failed = {t["id"]: t["output"] for t in result["tests"] if t["status"] != "passed"}
    assert failed["part1::test_pretokenize_fixed_cases"] == "timed out after 5 s", failed
    assert not [test for test, out in failed.items() if "of CPU time" in out], failed
