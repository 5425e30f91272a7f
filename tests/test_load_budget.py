"""A load that loops is stopped at ``LOAD_CPU`` of CPU, in one worker of its part.

``student.LOAD_CPU`` and ``fixtures.PartState.new_worker``: loading runs only definitions,
so a load that uses seconds of CPU is a loop in a class body (or a costly constant). It
used to run until ``LOAD_TIMEOUT``, 10 s of wall time, in every worker of the part at
once: tokenization's Part 3 has two spares (other hash seeds), so three workers looped,
20 CPU seconds on two cores. What must hold:

- a class body that loops is stopped for its CPU, with a message that says so, and only
  its part loses points (every isolation level, the toy, through ``grade_file`` in a
  process of its own; through the Gradescope entry point in ``test_gradescope.py``);
- a part's spares load only after its own worker has: when that load fails, they are
  closed unloaded. Read from the CPU the whole grading used, against a correct grading
  measured in the same run (the kernel's count, which a busy machine barely moves): a
  loop in Part 3's class body costs less than two loads' budgets more.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.sandbox.reference import reference_without
from autograder.suite.student import LOAD_CPU
from tests.course import LEVELS, TOKENIZATION, TOY, isolation_env

ROOT = Path(__file__).resolve().parents[1]

# Grade one file in this process's child, then stop the zygote so that every process of
# the grading has been waited for: their CPU is then all in RUSAGE_CHILDREN.
GRADE = """
import json, resource, sys
from autograder.assignment import load
from autograder.suite import zygote
from autograder.suite.run import grade_file

result = grade_file(sys.argv[2], "s", assignment=load(sys.argv[1]), timeout=120)
zygote.stop_all()
used = resource.getrusage(resource.RUSAGE_CHILDREN)
failed = {t["output"] for t in result["tests"] if t["status"] != "passed"}
print(json.dumps({"status": result["status"], "error": result["error"],
                  "parts": {p: v["score"] for p, v in result["parts"].items()},
                  "outputs": sorted(failed),
                  "cpu": used.ru_utime + used.ru_stime}))
"""

LOOPING_SHOUTER = '''

class Shouter(Shouter):
    """Loaded, it loops: its body runs when the worker loads the code."""
    while True:
        pass
'''

LOOPING_BPE = '''

class BPETokenizer(BPETokenizer):
    """Loaded, it loops, in Part 3's worker (and in its two spares, before)."""
    while True:
        pass
'''

MESSAGE = (f"loading your code stopped: it used over {LOAD_CPU:g} s of CPU time (a loop in a "
           "class body, or a constant that is costly to compute)")


def grade(assignment, source: str, tmp_path: Path, name: str, level: str = "root") -> dict:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", GRADE, str(assignment.folder), str(path)],
                          cwd=ROOT, env=isolation_env(level), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("level", LEVELS)
def test_a_class_body_that_loops_is_stopped_for_its_cpu(level, tmp_path):
    """The message is the budget's (the wall limit says "timed out after 10 s"), and
    only Part 2, whose class it is, loses its points."""
    got = grade(TOY, reference_without(TOY, 0)[0] + LOOPING_SHOUTER, tmp_path, "loops", level)
    assert got["status"] == "graded", got
    assert got["outputs"] == [MESSAGE], got
    assert got["parts"] == {"1": 4.0, "2": 0.0}, got


def test_a_load_that_loops_runs_in_one_worker_of_its_part(tmp_path):
    """Part 3's worker loops for ``LOAD_CPU``; its spares, which would loop as long each,
    are never loaded. Measured against a correct grading's CPU in the same run."""
    reference = reference_without(TOKENIZATION, 0)[0]
    correct = grade(TOKENIZATION, reference, tmp_path, "correct")
    looping = grade(TOKENIZATION, reference + LOOPING_BPE, tmp_path, "loops")
    assert correct["parts"]["3"] == 25.0 and looping["parts"]["3"] == 0.0, (correct, looping)
    assert looping["outputs"] == [MESSAGE], looping
    assert looping["cpu"] - correct["cpu"] < 2 * LOAD_CPU, (looping["cpu"], correct["cpu"])
