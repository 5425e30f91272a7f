"""What holds for every assignment of the course, graded by the engine for real.

For each assignment (``autograder/hidden/<name>/``): its source notebook gets full marks
from the hidden suite and its released stub gets 0, and the hidden tests of each part add
up to the part's points (``grade_file`` refuses a suite that does not, so a full-marks
result proves it). The other per-assignment checks are parametrised where they live:
the release (``test_release.py``), the notebooks (``test_notebook.py``) and the
catalogue (``tests/catalogue/``).
"""

from pathlib import Path

import pytest

from autograder.suite.run import grade_file
from tests.course import known, load

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", known())
def test_source_notebook_full_marks_and_release_zero(name):
    assignment = load(name)
    source = grade_file(ROOT / "source" / name / f"{name}.ipynb", "instructor",
                        assignment=assignment, timeout=300)
    assert source["status"] == "graded", source["error"]
    lost = {t["id"]: t["output"][:200] for t in source["tests"] if t["status"] != "passed"}
    assert source["score"] == assignment.total, lost
    assert source["assignment"] == name
    stub = grade_file(ROOT / "assignments" / name / f"{name}.ipynb", "stub",
                      assignment=assignment, timeout=300)
    assert stub["status"] == "graded", stub["error"]
    assert stub["score"] == 0, {t["id"] for t in stub["tests"] if t["status"] == "passed"}
    assert {int(p) for p in stub["parts"]} == set(assignment.points)
