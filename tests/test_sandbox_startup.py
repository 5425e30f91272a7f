"""A sandbox that cannot start is the grader's failure, never the student's zero.

The scoring process learns the isolation level (and the interpreter the worker runs
with) from ``AUTOGRADER_ISOLATION_PROBED``, set by the process that probed the
machine. These tests hand it a level whose interpreter cannot run the worker at all
(``/bin/false``), which is what a stale probe or a broken machine looks like.
"""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cache import ResultCache
from autograder.sandbox import limits
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_probe():
    """``limits.isolation`` keeps its first answer for the process: a test that hands it a
    broken probe must not leave that answer to the tests after it (an in-process worker
    of a later test then ran ``/bin/false`` and could not start)."""
    limits.isolation.cache_clear()
    yield
    limits.isolation.cache_clear()


@pytest.fixture(scope="module")
def reference_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("startup") / "reference.py"
    path.write_text(reference_without(TOKENIZATION, 0)[0], encoding="utf-8")
    return path


def test_a_worker_that_dies_before_it_is_ready_is_a_grading_error(
    reference_file, monkeypatch, tmp_path
):
    monkeypatch.setenv(limits.PROBED_ENV, f"basic:{limits.WORKER_DIGEST}:/bin/false")
    result = grade_file(reference_file, "someone", assignment=TOKENIZATION, timeout=120)
    assert result["status"] == "error", "a sandbox that never started was scored"
    assert result["error"].startswith("environment: the sandboxed worker did not start")
    assert result["score"] == 0
    # An error is not a grade: the cache keeps nothing, so the next run grades again.
    cache = ResultCache(tmp_path, TOKENIZATION, options="")
    cache.put(reference_file, result)
    assert cache.get(reference_file) is None and not list(tmp_path.iterdir())


def test_a_probe_made_for_another_worker_program_is_probed_again(reference_file, monkeypatch):
    # What a batch that straddles an update of the grader inherits from its parent.
    monkeypatch.setenv(limits.PROBED_ENV, f"basic:{'0' * 16}:/bin/false")
    result = grade_file(reference_file, "someone", assignment=TOKENIZATION, timeout=120)
    assert result["status"] == "graded", result["error"]
    assert result["score"] == 100


@pytest.mark.slow
def test_the_cli_lists_the_row_as_failed_warns_the_ta_and_caches_nothing(
    reference_file, tmp_path
):
    env = {**os.environ, limits.PROBED_ENV: f"basic:{limits.WORKER_DIGEST}:/bin/false",
           "AUTOGRADER_ALLOW_BASIC": "1"}  # the only level that probe names
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(reference_file),
                           "--out", str(out)], env=env, capture_output=True, text=True,
                          timeout=240, cwd=ROOT)
    assert done.returncode == 3, done.stderr  # reports written, but the TA must act
    assert "the sandbox did not start for 1 submission" in done.stderr
    (row,) = csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8")))
    assert row["status"] == "error" and row["error"].startswith("environment:"), row
    assert not list((out / ".cache").glob("*.json"))


# Loaded into every worker (an UPPER_CASE constant): a process that leaves the worker's
# group and, for 30 s, kills every worker that starts after it. Part 2's encode kills its
# own worker, so the next Part 2 test needs a new one.
KILLER = '''
import os
import time


def _kill_new_workers():
    if os.fork():
        return 1
    os.setsid()
    def workers():
        found = set()
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if pid.isdigit() and b"-s\\0-S\\0-P\\0-\\0" in f.read():
                        found.add(int(pid))
            except OSError:
                pass
        return found
    old = workers()
    deadline = time.time() + 30
    while time.time() < deadline:
        for pid in workers() - old:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
    os._exit(0)


KILLER_STARTED = _kill_new_workers()


class CharTokenizer(CharTokenizer):
    def encode(self, text):
        os._exit(1)
'''


@pytest.mark.slow  # its killer runs for 30 s: the grading waits it out (about 14 s)
def test_a_submission_that_kills_new_workers_cannot_pass_for_a_broken_machine(tmp_path):
    # Without namespaces (as on Gradescope) a submission can see and kill the workers that
    # start after its code ran. The grader must take it all down and start again, not
    # call that an environment failure (an error row instead of the student's zero).
    path = tmp_path / "killer.py"
    path.write_text(reference_without(TOKENIZATION, 0)[0] + "\n\n" + KILLER, encoding="utf-8")
    env = {**os.environ, "AUTOGRADER_ISOLATION": "basic"}
    env.pop(limits.PROBED_ENV, None)
    code = ("import json, sys; from autograder.suite.run import grade_file; "
            "from autograder.assignment import load; "
            "r = grade_file(sys.argv[1], 'killer', assignment=load('tokenization'), timeout=200); "
            "print(json.dumps({k: r[k] for k in ('status', 'error', 'score')}))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "graded", result
    assert result["score"] < 100


def test_a_short_timeout_still_grades(tmp_path):
    # The scoring process's CPU limit follows the timeout; its workers inherit it, and a
    # worker lowers its own limits to what it inherits instead of failing to raise them.
    # (It did fail: with --timeout 30 every submission was an environment error.)
    path = tmp_path / "plain.py"
    path.write_text("class Tokenizer:\n    pass\n", encoding="utf-8")
    result = grade_file(path, "short", assignment=TOKENIZATION, timeout=30)
    assert result["status"] == "graded", result


def test_the_worker_starts_from_bytecode_its_own_interpreter_made():
    """``limits.program``: the worker's interpreter compiles the worker once per process,
    and each worker reads that bytecode (a third of its start was compiling); an
    interpreter that cannot make it gets the source, as before."""
    python = limits.isolation()[1]
    flags, code = limits.program(python)
    assert flags[0] == "-c" and code != limits.WORKER_SOURCE
    done = subprocess.run([python, *limits.WORKER_FLAGS, "-c",
                           "import marshal,sys;c=marshal.loads(sys.stdin.buffer.read());"
                           "print(c.co_filename, 'confine' in c.co_names)"],
                          input=code, capture_output=True, text=False)
    assert done.stdout.split() == [b"<worker>", b"True"], done.stderr
    assert limits.program("/bin/false") == (["-"], limits.WORKER_SOURCE)
