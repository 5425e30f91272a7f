"""The nbgrader hand-off end to end, in a temporary nbgrader course.

``nbgrader generate_assignment`` makes the gradebook, two students submit (the
source notebook with solutions, and the release stub with a written reflection),
the real grader grades them once (a subprocess); each test then works on its own copy
of that course: the hand-off, a TA's manual grade as formgrader sets it, and the real
``nbgrader export`` (a subprocess). nbgrader takes seconds to import, so the rest runs
in-process: generate_assignment through nbgrader's API, the hand-off through its main().
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from autograder.handoff import cell_shares, hand_off
from autograder.handoff.__main__ import main
from autograder.handoff.gradebook import load_config
from autograder.parts import POINTS
from autograder.report.schema import GRADES_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
A = "tokenization"  # assignment and notebook name
STAMP = "2030-01-15 09:30:00.000000 UTC"
REFLECTION = "Characters never miss a word; BPE sequences are shorter, so attention is cheaper."


def run(*cmd: object, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=timeout)


def copy_course(src: Path, dst: Path) -> Path:
    """A copy of a course whose nbgrader_config.py points at the copy (its last word wins)."""
    shutil.copytree(src, dst)
    config = dst / "nbgrader_config.py"
    config.write_text(f"{config.read_text()}\nc.CourseDirectory.root = {str(dst)!r}\n")
    return dst


def grade_id(cell: nbformat.NotebookNode) -> str:
    return cell.metadata.get("nbgrader", {}).get("grade_id", "")


def submit(course: Path, student: str, notebook: Path, reflection: str | None = None) -> None:
    folder = course / "submitted" / student / A
    folder.mkdir(parents=True)
    nb = nbformat.read(notebook, as_version=4)
    if reflection is not None:
        [cell] = [c for c in nb.cells if grade_id(c) == "reflection"]
        cell.source = reflection
    nbformat.write(nb, folder / f"{A}.ipynb")
    (folder / "timestamp.txt").write_text(STAMP)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A course with two graded submissions, and our grades.csv for it."""
    base = tmp_path_factory.mktemp("handoff")
    course = base / "course"
    shutil.copytree(ROOT / "source", course / "source")
    config = (ROOT / "nbgrader_config.py").read_text()
    root = f"c.CourseDirectory.root = {str(course)!r}"
    (course / "nbgrader_config.py").write_text(f"{config}\n{root}\n")
    # `nbgrader generate_assignment`, in-process as formgrader runs it (saves a slow import)
    config = load_config(course)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", ENV["PATH"])  # nbgrader runs `alembic` to make a new gradebook
        made = NbGraderAPI(CourseDirectory(config=config), config=config).generate_assignment(A)
    assert made["success"] and (course / "gradebook.db").is_file(), made.get("error")
    submit(course, "good", course / "source" / A / f"{A}.ipynb")
    submit(course, "stub", course / "assignments" / A / f"{A}.ipynb", reflection=REFLECTION)
    out = base / "graded"
    proc = run(sys.executable, "-m", "autograder", "grade", course / "submitted", "--out", out,
               "--jobs", "2", cwd=ROOT, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return course, out / "grades.csv"


@pytest.fixture
def course(graded: tuple[Path, Path], tmp_path: Path) -> Path:
    return copy_course(graded[0], tmp_path / "course")


def our_rows(grades: Path) -> dict[str, dict[str, str]]:
    """A CSV with a student_id column, by student."""
    return {r["student_id"]: r for r in csv.DictReader(io.StringIO(grades.read_text()))}


def grade_by_hand(course: Path, cell: str, student: str, score: float | None) -> None:
    """What formgrader's grade API does when a TA saves a score."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        grade = gb.find_grade(cell, A, A, student)
        grade.manual_score = score
        grade.needs_manual_grade = score is None and grade.auto_score is None
        gb.db.commit()


def export(course: Path) -> dict[str, dict[str, str]]:
    proc = run("nbgrader", "export", "--to", course / "export.csv", cwd=course)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return our_rows(course / "export.csv")


def snapshot(course: Path) -> dict:
    """Everything the hand-off may write: gradebook rows and the autograded/ files."""
    state: dict = {"files": {str(p.relative_to(course)): p.read_bytes()
                             for p in sorted((course / "autograded").rglob("*")) if p.is_file()}}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        state["students"] = sorted(s.id for s in gb.students)
        for sub in gb.assignment_submissions(A):
            [nb] = sub.notebooks
            state[sub.student.id] = (
                sub.id, sub.timestamp, nb.late_submission_penalty,
                sorted((g.name, g.auto_score, g.manual_score, g.needs_manual_grade)
                       for g in nb.grades),
                sorted((c.name, c.auto_comment) for c in nb.comments))
    return state


def grades_of(course: Path, student: str) -> dict[str, tuple]:
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        nb = gb.find_submission_notebook(A, A, student)
        return {g.name: (g.auto_score, g.manual_score, g.needs_manual_grade) for g in nb.grades}


def test_export_is_our_autograde_plus_the_manual_reflection(graded, course, capsys) -> None:
    ours = our_rows(graded[1])
    assert ours["good"]["status"] == "graded" and float(ours["good"]["total"]) > 50, ours
    assert ours["stub"]["status"] == "graded" and float(ours["stub"]["total"]) == 0, ours

    assert main(["--course", str(course), "--grades", str(graded[1])]) == 0
    out = capsys.readouterr().out
    assert "good: " in out and "reflection awaits manual grading" in out

    # formgrader lists both as autograded, with the reflection waiting for the TA
    config = load_config(course)
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    for student in ("good", "stub"):
        sub = api.get_submission(A, student)
        assert sub["autograded"] and sub["needs_manual_grade"], sub
    good = grades_of(course, "good")
    for p in POINTS:
        part = [v[0] for k, v in good.items() if k.startswith(f"test_part{p}_")]
        assert sum(part) == pytest.approx(float(ours["good"][f"part{p}"]), abs=1e-6)
    assert all(not v[2] for k, v in good.items() if k.startswith("test_"))
    assert good["reflection"] == (None, None, True)

    # the formgrader copy: locked cells restored, no student outputs, a note on each test
    nb = nbformat.read(course / "autograded" / "good" / A / f"{A}.ipynb", as_version=4)
    tests = [c for c in nb.cells if grade_id(c).startswith("test_part")]
    assert len(tests) == sum(1 for k in good if k.startswith("test_"))
    assert all("Scored by the hidden autograder" in c.outputs[0]["text"] for c in tests)

    grade_by_hand(course, "reflection", "good", 4.0)
    grade_by_hand(course, "reflection", "stub", 2.5)
    exported = export(course)
    assert float(exported["good"]["score"]) == pytest.approx(float(ours["good"]["total"]) + 4)
    assert float(exported["stub"]["score"]) == pytest.approx(2.5)
    assert float(exported["good"]["max_score"]) == sum(POINTS.values()) + 5
    assert exported["good"]["timestamp"] == "2030-01-15 09:30:00"


def test_second_hand_off_changes_nothing_and_keeps_manual_grades(graded, course) -> None:
    hand_off(course, graded[1])
    first = snapshot(course)
    hand_off(course, graded[1])
    assert snapshot(course) == first

    grade_by_hand(course, "reflection", "stub", 3.0)
    grade_by_hand(course, "test_part6_answers", "good", 1.0)  # a TA's override
    graded_by_hand = snapshot(course)
    outcome = hand_off(course, graded[1])
    assert snapshot(course) == graded_by_hand
    assert "reflection graded by hand: 3" in outcome.handed_off["stub"]

    # a regrade that changes the overridden cell flags the override for review
    text = graded[1].read_text().splitlines()
    changed = graded[1].parent / "changed.csv"
    good = our_rows(graded[1])["good"]
    assert float(good["part6"]) > 0, good
    row = [f"{float(good[k]) - 1:g}" if k in ("part6", "total") else good[k] for k in good]
    changed.write_text("\n".join(
        [text[0], ",".join(row), *[t for t in text[1:] if not t.startswith("good,")]]) + "\n")
    hand_off(course, changed)
    assert grades_of(course, "good")["test_part6_answers"][1:] == (1.0, True)
    assert grades_of(course, "stub")["reflection"] == (None, 3.0, False)


def test_unknown_students_error_rows_and_missing_rows(graded, course, tmp_path, capsys) -> None:
    header = graded[1].read_text().splitlines()[0]
    grades = tmp_path / "grades.csv"
    (course / "submitted" / "empty" / A).mkdir(parents=True)
    grades.write_text(f"{header}\nempty,0,0,0,0,0,0,0,100,error,no notebook or .py file found\n"
                      f"ghost,5,0,0,0,0,0,5,100,graded,\n"
                      f"stub,0,0,0,0,0,0,0,100,error,timeout\n")
    assert main(["--course", str(course), "--grades", str(grades)]) == 1
    out, err = capsys.readouterr()
    assert "ghost: SKIPPED, unknown student" in err
    assert "good: not in grades.csv" in err
    assert "stub: not autograded (timeout)" in out

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        with pytest.raises(MissingEntry):
            gb.find_student("ghost")
        with pytest.raises(MissingEntry):
            gb.find_submission(A, "good")  # no row: left alone, nothing created
    stub = grades_of(course, "stub")
    assert all(v == (None, None, True) for k, v in stub.items() if k.startswith("test_"))
    assert stub["reflection"] == (None, None, True)
    nb = json.loads((course / "autograded" / "stub" / A / f"{A}.ipynb").read_text())
    assert any("could not grade this submission (timeout)" in "".join(o["text"])
               for c in nb["cells"] for o in c.get("outputs", []))

    assert set(grades_of(course, "empty").values()) == {(0.0, None, False)}  # nothing sent

    grade_by_hand(course, "reflection", "stub", 4.0)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        assert gb.find_submission(A, "stub").score == pytest.approx(4.0)  # tests count 0


def test_bad_grades_file_or_course_is_a_usage_error(tmp_path, capsys) -> None:
    grades = tmp_path / "grades.csv"
    grades.write_text("student_id,score\nalice,3\n")
    with pytest.raises(SystemExit) as exit_:
        main(["--course", str(tmp_path), "--grades", str(grades)])
    assert exit_.value.code == 2 and "grades.csv is not valid" in capsys.readouterr().err
    grades.write_text(",".join(GRADES_COLUMNS) + "\n")
    with pytest.raises(SystemExit) as exit_:
        main(["--course", str(tmp_path), "--grades", str(grades)])
    assert exit_.value.code == 2 and "generate_assignment" in capsys.readouterr().err


@pytest.mark.parametrize("score", [0, 13.33, 20.5, 25])
def test_shares_are_proportional_and_add_up(score: float) -> None:
    cells = [("a", 3.0), ("b", 4.0), ("c", 8.0), ("d", 6.0), ("e", 4.0)]
    shares = cell_shares(score, cells)
    assert sum(shares.values()) == pytest.approx(score, abs=1e-9)
    for name, mx in cells:
        assert 0 <= shares[name] <= mx
        assert shares[name] == pytest.approx(score * mx / 25, abs=1e-3)
