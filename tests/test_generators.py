"""Randomness in the sandbox: a test's generator crosses as a seed, the global ones are fixed.

A function that samples takes a generator and must draw only from it. ``Seeded(kind,
seed)`` makes ``random.Random(seed)`` or ``numpy.random.default_rng(seed)`` in the worker,
where its state can be read back after the call. The worker seeds ``random`` and
``numpy.random`` itself before any student code, so code that draws from them gets the same
draws in every worker and every grading (a grade depends on the submission alone) and not
the draws of the test's generator. Checked in real workers at every isolation level, on the
engine's toy assignment (nothing here names a course assignment).
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import Seeded
from tests.course import LEVELS, TOY, isolation_env

ROOT = Path(__file__).resolve().parents[1]

STUDENT = """
import random
import numpy as np

def count_words(text):
    return {"unused": 1}

def draw(rng, n):
    return [rng.random() for _ in range(n)]

def draw_numpy(rng, n):
    return rng.random(n)

def global_draws():
    return [random.random(), float(np.random.rand())]
"""
IN_WORKERS = """
import json, sys
from pathlib import Path
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Seeded, Worker

toy = load(sys.argv[1])
path = Path(sys.argv[2])
path.write_text(sys.argv[3])
code = extract(path)
seen = {"globals": []}
for _ in range(2):  # two workers, one after the other
    with Worker(toy, code, 1, timeout=30) as worker:
        seen["globals"].append(worker.call("global_draws"))
        rng = worker.put(Seeded("random", 7))
        seen["draws"] = worker.call("draw", rng, 3)
        seen["state"] = worker.method(rng, "getstate")
        seen["numpy"] = worker.call("draw_numpy", Seeded("numpy", 7), 2).tolist()
print(json.dumps(seen))
"""


def test_a_generator_is_a_kind_and_a_seed():
    assert Seeded("random", 3).wire() == {"__seeded__": ["random", 3]}
    for kind, seed in (("secrets", 3), ("random", -1), ("numpy", 2.5), ("random", True)):
        with pytest.raises(ValueError):
            Seeded(kind, seed)


@pytest.mark.parametrize("level", LEVELS)
def test_the_tests_generator_crosses_and_the_global_ones_are_fixed(level, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", IN_WORKERS, str(TOY.folder), str(tmp_path / "student.py"), STUDENT],
        cwd=ROOT, env=isolation_env(level), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    mine = random.Random(7)
    assert seen["draws"] == [mine.random() for _ in range(3)]
    version, internal, gauss = seen["state"]
    assert (version, tuple(internal), gauss) == mine.getstate()
    assert seen["numpy"] == np.random.default_rng(7).random(2).tolist()
    first, second = seen["globals"]
    assert first == second  # the same in every worker: seeded, not from the clock
    assert first[0] not in (random.Random(s).random() for s in range(100))
