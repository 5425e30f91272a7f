"""The course loop of an assignment without a written reflection, with a student who did
not submit it: grade, reports, nbgrader hand-off, feedback page.

One ``production_tokenizers`` course (its gradebook made by nbgrader's own
``generate_assignment``): ``stub`` submits the release notebook unchanged (graded for real,
and fast: every part raises), ``absent`` submitted only ``tokenization``. Graded once by
the real CLI and handed off once; the tests read what came out.
"""

import contextlib
import csv
import io
import shutil
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from test_handoff import ENV, ROOT, SAMPLES, STAMP, copy_course, run

from autograder.handoff.__main__ import main
from autograder.handoff.gradebook import load_config

# A course loop end to end, like the course workflow tests: slow (`make test-all`). The
# fast tier still sees a missing student graded (test_cli) and handed off (test_handoff).
pytestmark = pytest.mark.slow
A = "production_tokenizers"


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("missing")
    course = base / "course"
    shutil.copytree(ROOT / "source" / A, course / "source" / A)
    (course / "nbgrader_config.py").write_text(
        f"{(ROOT / 'nbgrader_config.py').read_text()}\nc.CourseDirectory.root = {str(course)!r}\n")
    config = load_config(course)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", ENV["PATH"])  # nbgrader runs `alembic` to make a new gradebook
        made = NbGraderAPI(CourseDirectory(config=config), config=config).generate_assignment(A)
    assert made["success"], made.get("error")
    stub = course / "submitted" / "stub" / A
    stub.mkdir(parents=True)
    shutil.copy(course / "assignments" / A / f"{A}.ipynb", stub)
    (stub / "timestamp.txt").write_text(STAMP)
    other = course / "submitted" / "absent" / "tokenization"
    shutil.copytree(SAMPLES / "dave_script" / "tokenization", other)
    out = base / "graded"
    graded = run(sys.executable, "-m", "autograder", "grade", course / "submitted",
                 "--assignment", A, "--out", out, "--jobs", "1", cwd=ROOT, timeout=400)
    assert graded.returncode == 0, graded.stderr[-3000:]
    said, warned = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(warned):
        code = main(["--course", str(course), "--grades", str(out / "grades.csv")])
    return {"course": course, "out": out, "graded": graded, "code": code,
            "said": said.getvalue(), "warned": warned.getvalue()}


def test_a_student_who_did_not_submit_is_missing_not_failed(loop) -> None:
    out: Path = loop["out"]
    assert "2 students: 1 graded, 1 missing" in loop["graded"].stdout
    rows = {r["student_id"]: r for r in csv.DictReader(io.StringIO(
        (out / "grades.csv").read_text()))}
    assert rows["absent"]["status"] == "missing" and rows["absent"]["total"] == ""
    assert rows["stub"]["status"] == "graded" and rows["stub"]["total"] == "0"
    assert not (out / "absent").exists()  # no "0 / 100, could not be graded" page
    summary = (out / "summary.md").read_text()
    assert "2 students: 1 graded, 1 missing" in summary
    assert "check them by hand" not in summary
    assert "- absent: absent/production\\_tokenizers/ does not exist" in summary


def test_the_hand_off_writes_nothing_for_a_missing_student(loop) -> None:
    assert loop["code"] == 0, loop["warned"]
    assert "unknown student" not in loop["warned"] and "SKIPPED" not in loop["warned"]
    assert "absent: missing, nothing submitted: no submission in the gradebook" in loop["said"]
    assert "Handed off 1 of 2 students (1 submitted nothing)" in loop["said"]
    course: Path = loop["course"]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb, pytest.raises(MissingEntry):
        gb.find_submission(A, "absent")
    assert not (course / "feedback" / "absent").exists()
    assert not (course / "autograded" / "absent").exists()


def test_no_reflection_wording_for_an_assignment_without_one(loop) -> None:
    summary = (loop["out"] / "summary.md").read_text()
    assert "reflection" not in summary.lower()
    last = loop["said"].splitlines()[-1]
    assert "formgrader" not in last and "next: `nbgrader export`" in last, last
    page = (loop["course"] / "feedback" / "stub" / A / f"{A}.html").read_text()
    assert "Total over everything." in page and "graded by hand" not in page


def test_a_missing_row_whose_files_came_later_is_skipped(loop, tmp_path, capsys) -> None:
    course = copy_course(loop["course"], tmp_path / "course")
    late = course / "submitted" / "absent" / A
    late.mkdir(parents=True)
    shutil.copy(course / "assignments" / A / f"{A}.ipynb", late)
    assert main(["--course", str(course), "--grades", str(loop["out"] / "grades.csv")]) == 1
    assert "says missing, but submitted/absent/production_tokenizers/ holds files now: " \
           "grade again" in capsys.readouterr().err
