"""A load that loops is stopped at ``LOAD_CPU`` of CPU, in one worker of its part.

``student.LOAD_CPU`` and ``fixtures.PartState.new_worker``: loading runs only definitions,
so a load that uses seconds of CPU is a loop in a class body (or a costly constant). It
used to run until ``LOAD_TIMEOUT``, 10 s of wall time, in every worker of the part at
once: tokenization's Part 3 has two spares (other hash seeds), so three workers looped,
20 CPU seconds on two cores. What must hold:

- a class body that loops is stopped for its CPU, with a message that says so, and only
  its part loses points (every isolation level, the toy, through ``grade_file`` in a
  process of its own; through the Gradescope entry point in ``test_gradescope.py``);
- a part's spares load only after its own worker has, within what that load left of
  ``LOAD_TIMEOUT`` (a load just under the limit is not paid twice); when it fails, they are
  closed unloaded. Read from the CPU the whole grading used (the kernel's count, which a
  busy machine barely moves), against a grading measured in the same run whose Part 3 load
  dies at once.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.sandbox.reference import reference_without
from autograder.sandbox.worker import QUIET_SECONDS
from autograder.suite.student import LOAD_CPU, LOAD_TIMEOUT
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

DYING_BPE = '''

class BPETokenizer(BPETokenizer):
    """Loaded, it ends its worker at once."""
    __import__("os")._exit(3)
'''

# Never still for a second (so the sleep watch does not stop it) and little CPU: about 7 s
# of wall time, in a class body.
SLOW_BPE = '''

class BPETokenizer(BPETokenizer):
    """Loaded, it takes about 7 s of wall time, working a little between short naps."""
    for _ in range(14):
        __import__("time").sleep(0.45)
        sum(range(20_000))
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
@pytest.mark.slow
def test_a_class_body_that_loops_is_stopped_for_its_cpu(level, tmp_path):
    """The message is the budget's (the wall limit says "timed out after 10 s"), and
    only Part 2, whose class it is, loses its points."""
    got = grade(TOY, reference_without(TOY, 0)[0] + LOOPING_SHOUTER, tmp_path, "loops", level)
    assert got["status"] == "graded", got
    assert got["outputs"] == [MESSAGE], got
    assert got["parts"] == {"1": 4.0, "2": 0.0}, got


@pytest.mark.slow
def test_a_load_that_loops_runs_in_one_worker_of_its_part(tmp_path):
    """Part 3's worker loops for ``LOAD_CPU``; its spares, which would loop as long each,
    are never loaded. Measured against a grading whose Part 3 load ends at once (so both
    skip the same tests), in the same run. The loop costs ``LOAD_CPU`` plus what the five
    other parts' workers spend trying the class quietly (at most ``QUIET_SECONDS`` of wall
    each, less CPU when they share the cores): at most 5 s (measured: 3.2). With the spares
    looping too it costs at least ``3 * LOAD_CPU``, 7.5 s (measured: 8.3). The bound is
    halfway."""
    reference = reference_without(TOKENIZATION, 0)[0]
    killed = grade(TOKENIZATION, reference + DYING_BPE, tmp_path, "killed")
    looping = grade(TOKENIZATION, reference + LOOPING_BPE, tmp_path, "loops")
    assert killed["parts"]["3"] == looping["parts"]["3"] == 0.0, (killed, looping)
    assert looping["outputs"] == [MESSAGE], looping
    bound = (LOAD_CPU + 5 * QUIET_SECONDS + 3 * LOAD_CPU) / 2
    assert looping["cpu"] - killed["cpu"] < bound, (looping["cpu"], killed["cpu"])


@pytest.mark.slow
def test_a_parts_workers_share_one_load_limit(tmp_path):
    """A load of about 7 s passes in Part 3's own worker; its spares get what is left of
    ``LOAD_TIMEOUT``, about 3 s, and time out: only the hash-seed test, which uses them,
    fails (with its own full limit each, they loaded, and the load phase took 17 s)."""
    got = grade(TOKENIZATION, reference_without(TOKENIZATION, 0)[0] + SLOW_BPE, tmp_path,
                "slow")
    assert got["parts"]["3"] == 23.0, got
    assert got["outputs"] == [f"loading your code timed out after {LOAD_TIMEOUT:g} s"], got
