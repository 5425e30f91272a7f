"""A sandbox that cannot start is the grader's failure, never the student's zero.

The scoring process learns the isolation level (and the interpreter the worker runs
with) from ``AUTOGRADER_ISOLATION_PROBED``, set by the process that probed the
machine. These tests hand it a level whose interpreter cannot run the worker at all
(``/bin/false``), which is what a stale probe or a broken machine looks like.
"""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cache import ResultCache
from autograder.sandbox import limits
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("startup") / "reference.py"
    path.write_text(reference_without(0)[0], encoding="utf-8")
    return path


def test_a_worker_that_dies_before_it_is_ready_is_a_grading_error(
    reference_file, monkeypatch, tmp_path
):
    monkeypatch.setenv(limits.PROBED_ENV, f"basic:{limits.WORKER_DIGEST}:/bin/false")
    result = grade_file(reference_file, "someone", timeout=120)
    assert result["status"] == "error", "a sandbox that never started was scored"
    assert result["error"].startswith("environment: the sandboxed worker did not start")
    assert result["score"] == 0
    # An error is not a grade: the cache keeps nothing, so the next run grades again.
    cache = ResultCache(tmp_path, options="")
    cache.put(reference_file, result)
    assert cache.get(reference_file) is None and not list(tmp_path.iterdir())


def test_a_probe_made_for_another_worker_program_is_probed_again(reference_file, monkeypatch):
    # What a batch that straddles an update of the grader inherits from its parent.
    monkeypatch.setenv(limits.PROBED_ENV, f"basic:{'0' * 16}:/bin/false")
    result = grade_file(reference_file, "someone", timeout=120)
    assert result["status"] == "graded", result["error"]
    assert result["score"] == 100


def test_the_cli_lists_the_row_as_failed_warns_the_ta_and_caches_nothing(
    reference_file, tmp_path
):
    env = {**os.environ, limits.PROBED_ENV: f"basic:{limits.WORKER_DIGEST}:/bin/false"}
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(reference_file),
                           "--out", str(out)], env=env, capture_output=True, text=True,
                          timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "the sandbox did not start for 1 submission" in done.stderr
    (row,) = csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8")))
    assert row["status"] == "error" and row["error"].startswith("environment:"), row
    assert not list((out / ".cache").glob("*.json"))
