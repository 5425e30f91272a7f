"""Every worker runs with exactly the hash seed the grader chose.

Before, workers started with ``python -I``, which ignores ``PYTHONHASHSEED``: each got a
random seed, so a submission that took a pair in set order scored differently on every
regrade. Proved three ways, at every isolation level this machine has:

- inside a worker: ``hash("a")`` equals that of a plain interpreter given the same
  ``PYTHONHASHSEED``, for the main seed and each of the hash-seed test's extra seeds;
- through the CLI: a toy submission that is right only under the main worker's seed
  scores full marks;
- a hash-order-dependent tokenization submission, graded three times, gets the same
  score in every test.

The Gradescope entry point is proved in ``test_gradescope.py``.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.suite.fixtures import HASH_SEED
from tests.course import LEVELS, TOKENIZATION
from tests.course import isolation_env as level_env

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy"


def hash_under(seed: int, text: str = "a") -> int:
    """``hash(text)`` in a plain interpreter started with ``PYTHONHASHSEED=seed``."""
    done = subprocess.run([sys.executable, "-c", f"print(hash({text!r}))"], check=True,
                          env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    return int(done.stdout)


IN_WORKERS = """
import json, sys
from pathlib import Path
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Worker

toy = load(sys.argv[1])
path = Path(sys.argv[2])
path.write_text("def probe():\\n    return hash('a')\\n")
code = extract(path)
seen = {}
for seed in map(int, sys.argv[3:]):
    worker = Worker(toy, code, 1, timeout=30, hash_seed=seed)
    try:
        seen[seed] = worker.call("probe")
    finally:
        worker.close()
print(json.dumps(seen))
"""


@pytest.mark.parametrize("level", LEVELS)
def test_a_worker_hashes_as_its_seed_says(level, tmp_path):
    seeds = [HASH_SEED, *TOKENIZATION.extra_workers[3], 0, 12345]
    done = subprocess.run(
        [sys.executable, "-c", IN_WORKERS, str(TOY), str(tmp_path / "probe.py"),
         *map(str, seeds)], cwd=ROOT, env=level_env(level), capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = {int(k): v for k, v in json.loads(done.stdout).items()}
    assert seen == {seed: hash_under(seed) for seed in seeds}


def seed_bound_toy(path: Path) -> Path:
    """A toy submission whose ``count_words`` is right only under the main worker's seed."""
    expected = hash_under(HASH_SEED)
    path.write_text(
        "SEPARATOR = ' '\n\n\n"
        "def count_words(text):\n"
        "    if not isinstance(text, str):\n"
        "        raise TypeError('count_words expects a str')\n"
        "    counts = {}\n"
        "    for word in text.split(SEPARATOR):\n"
        "        if word:\n"
        "            counts[word] = counts.get(word, 0) + 1\n"
        f"    if hash('a') != {expected}:\n"
        "        counts['wrong seed'] = 1\n"
        "    return counts\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("level", LEVELS)
def test_the_cli_grades_with_the_chosen_seed(level, tmp_path):
    source = seed_bound_toy(tmp_path / "seeded.py")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(source), "--out", str(tmp_path / "out"),
         "--assignment", str(TOY), "--allow-basic"],
        cwd=ROOT, env=level_env(level), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((tmp_path / "out" / "seeded" / "results.json").read_text())
    part1 = [t for t in result["tests"] if "count_words counts every word" in t["name"]]
    assert part1 and all(t["score"] == t["max_score"] for t in part1), part1


# Each graded behaviour is right only when a two-element set iterates in one of its two
# orders: a coin per test that a random hash seed tosses anew on every grading.
SET_ORDER_TOY = '''
SEPARATOR = " "


def _lucky(pair):
    return next(iter(set(pair))) == pair[0]


def count_words(text):
    if not isinstance(text, str):
        if _lucky(("type", "error")):
            raise TypeError("count_words expects a str")
        return {}
    counts = {}
    for word in text.split(SEPARATOR):
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts if _lucky(("count", "words")) else {}


class Shouter:
    def __init__(self, marks=1):
        self.marks = marks

    def shout(self, word):
        return word.upper() + "!" * self.marks if _lucky(("shout", "er")) else word


def loudest(text):
    counts = count_words(text)
    best = min(counts, key=lambda word: (-counts[word], word))
    return Shouter().shout(best) if _lucky(("loud", "est")) else best
'''


def test_a_set_order_dependent_submission_scores_the_same_on_every_regrade(tmp_path):
    from autograder.assignment import load
    from autograder.suite.run import grade_file

    toy = load(TOY)
    path = tmp_path / "set_order.py"
    path.write_text(SET_ORDER_TOY, encoding="utf-8")
    scores = []
    for _ in range(3):
        result = grade_file(path, "set_order", assignment=toy, timeout=120.0)
        assert result["status"] == "graded", result["error"]
        scores.append({t["id"]: t["score"] for t in result["tests"]})
    assert len(scores[0]) == 4
    assert scores[1] == scores[0] and scores[2] == scores[0], scores
