"""A timing test measures the student's calls, whatever state the other parts are in.

When Part 4 fails, Part 3 is graded with the grader's Part 4: ``merge_pair`` is a stand-in,
one round trip to the scoring process per call. The worker remembers stand-in results by
arguments, so a call repeated costs a lookup and a new one a round trip. In a timing
test that made a corpus repeated 8 times (calls repeat) look cheap next to the corpus once
(calls new): a trainer that walks every word occurrence measured about 3x instead of 8x,
on the threshold, and passed one CI run. Timed runs now make every stand-in call a round
trip (``Student.calls_unremembered``). Proved here:

- in a worker, at every isolation level: a repeated stand-in call is one round trip with
  the memo on, and one round trip per call with it off;
- graded: with Part 4 wrong, the reference passes every timing test and the
  every-occurrence trainer fails the duplication test by far (with the memo on in timed
  runs it reported 3.3x, just over the fail line of 3).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.suite.run import grade_file
from autograder.validity.timing_stability import RATIO, submission
from tests.course import LEVELS, TOKENIZATION, isolation_env

ROOT = Path(__file__).resolve().parents[1]

COUNT_ROUND_TRIPS = """
import json, sys
from pathlib import Path
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Worker

path = Path(sys.argv[1])
path.write_text("def probe():\\n"
                "    return [merge_pair(['a', 'b'], ('a', 'b')) for _ in range(5)]\\n")
trips = []
with Worker(load("tokenization"), extract(path), part=3, timeout=30) as worker:
    for remember in (True, False, True):
        worker.remember(remember)
        before = worker.standin_calls
        assert worker.call("probe") == [["ab"]] * 5
        trips.append(worker.standin_calls - before)
print(json.dumps(trips))
"""


@pytest.mark.parametrize("level", LEVELS)
def test_without_the_memo_every_standin_call_is_a_round_trip(level, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", COUNT_ROUND_TRIPS, str(tmp_path / "probe.py")], cwd=ROOT,
        env=isolation_env(level), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    # memo on: one trip, four lookups; off: five trips; on again: remembered from the first
    assert json.loads(done.stdout) == [1, 5, 0]


def graded_part3(tmp_path: Path, name: str) -> dict[str, dict]:
    """Grade the timing variant ``name``; its Part 3 tests by id."""
    from autograder.hidden.tokenization.timing_variants import VARIANTS

    path = tmp_path / "variant.py"
    path.write_text(submission(TOKENIZATION, VARIANTS[name][0]), encoding="utf-8")
    result = grade_file(path, "variant", assignment=TOKENIZATION)
    assert result["status"] == "graded", result["error"]
    assert result["parts"]["4"]["score"] < result["parts"]["4"]["max_score"]  # Part 4 wrong
    return {t["id"]: t for t in result["tests"] if t["part"] == 3}


@pytest.mark.slow
def test_with_part_4_wrong_the_reference_passes_every_timing_test(tmp_path):
    tests = graded_part3(tmp_path, "reference, Part 4 wrong")
    assert {t["status"] for t in tests.values()} == {"passed"}, tests


@pytest.mark.slow
def test_with_part_4_wrong_the_every_occurrence_trainer_is_caught_by_far(tmp_path):
    tests = graded_part3(tmp_path, "trainer over every occurrence, Part 4 wrong")
    failed = {test for test, t in tests.items() if t["status"] == "failed"}
    assert failed == {"part3::test_training_time_ignores_duplication"}, tests
    # 8 times the calls: about 8x, or stopped; far above the fail line of 3 (with the memo
    # on in timed runs: 3.3x, twice in a row)
    found = RATIO.search(tests["part3::test_training_time_ignores_duplication"]["output"])
    assert found and (found.group(1) or float(found.group(2)) >= 6), found
