"""What holds for every assignment of the course, graded by the engine for real.

For each assignment (``autograder/hidden/<name>/``): its source notebook gets full marks
from the hidden suite and its released stub gets 0, and the hidden tests of each part add
up to the part's points (``grade_file`` refuses a suite that does not, so a full-marks
result proves it). The other per-assignment checks are parametrised where they live:
the release (``test_release.py``), the notebooks (``test_notebook.py``) and the
catalogue (``tests/catalogue/``).
"""

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.suite.run import grade_file
from tests.course import known, load

ROOT = Path(__file__).resolve().parents[1]


def naive_notebook(folder: Path) -> Path:
    """production_tokenizers' source notebook with ``train_bpe_fast`` answered by the
    notebook's own naive trainer."""
    assignment = load("production_tokenizers")
    nb = json.loads((ROOT / "source" / assignment.name / f"{assignment.name}.ipynb")
                    .read_text(encoding="utf-8"))
    [cell] = [c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {})
              .get("grade_id") == "part3_train_bpe_fast"]
    source = "".join(cell["source"])
    region = re.search(r"[ \t]*### BEGIN SOLUTION\n.*?### END SOLUTION\n?", source, re.S)
    cell["source"] = source.replace(region.group(0),
                                    "    return train_bpe_naive(corpus, vocab_size)\n")
    path = folder / "naive.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Every assignment's source notebook and released stub, and the naive trainer, graded
    once each, two at a time (a grading keeps about one core busy)."""
    jobs = {(name, kind): (ROOT / folder / name / f"{name}.ipynb", kind, name)
            for name in known() for kind, folder in (("source", "source"),
                                                     ("stub", "assignments"))}
    jobs["production_tokenizers", "naive"] = (
        naive_notebook(tmp_path_factory.mktemp("naive")), "naive", "production_tokenizers")
    order = sorted(jobs, key=lambda key: key[1] != "naive")  # the longest first
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(grade_file, jobs[key][0], jobs[key][1],
                                    assignment=load(jobs[key][2]), timeout=300)
                   for key in order}
        return {key: future.result() for key, future in futures.items()}


@pytest.mark.parametrize("name", known())
@pytest.mark.slow
def test_source_notebook_full_marks_and_release_zero(name, graded):
    assignment = load(name)
    source = graded[name, "source"]
    assert source["status"] == "graded", source["error"]
    lost = {t["id"]: t["output"][:200] for t in source["tests"] if t["status"] != "passed"}
    assert source["score"] == assignment.total, lost
    assert source["assignment"] == name
    stub = graded[name, "stub"]
    assert stub["status"] == "graded", stub["error"]
    assert stub["score"] == 0, {t["id"] for t in stub["tests"] if t["status"] == "passed"}
    assert {int(p) for p in stub["parts"]} == set(assignment.points)


@pytest.mark.slow
def test_the_naive_trainer_loses_only_part3_speed(graded):
    """production_tokenizers: the notebook with ``train_bpe_fast`` answered by the notebook's
    own naive trainer is exact, so it loses only Part 3's tests of how training scales."""
    result = graded["production_tokenizers", "naive"]
    assert result["status"] == "graded", result["error"]
    failed = {t["id"] for t in result["tests"] if t["status"] == "failed"}
    assert failed and all(t.startswith("part3::") for t in failed), failed
    assert failed <= {"part3::test_merges_do_not_recount", "part3::test_best_pair_without_scanning",
                      "part3::test_training_time_ignores_duplication"}, failed
