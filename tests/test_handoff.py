"""The nbgrader hand-off end to end, in a temporary nbgrader course.

``nbgrader generate_assignment`` makes the gradebook, five students submit (the
source notebook, the release stub with a written reflection, the buggy sample, and the
sample .py with and without a ``REFLECTION`` string), the real grader grades them once
(a subprocess); each test then works on its own copy of that course (or of that course
after one hand-off, also made once, for the tests that start there): the hand-off, a
TA's manual grade as formgrader sets it, and the real
``nbgrader export`` (a subprocess). nbgrader takes seconds to import, so the rest runs
in-process: generate_assignment through nbgrader's API, the hand-off through its main().
Over 300 lines because every test shares one slow fixture (a course graded for real).
"""

import csv
import html
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

from autograder.handoff import hand_off
from autograder.handoff.__main__ import main
from autograder.handoff.gradebook import load_config
from autograder.report.format import points
from autograder.report.schema import grades_columns
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "submitted"
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


def submit(course: Path, student: str, notebook: Path, reflection: str | None = None) -> Path:
    folder = course / "submitted" / student / A
    folder.mkdir(parents=True, exist_ok=True)
    if notebook.suffix == ".py":
        text = notebook.read_text()
        if reflection is not None:
            text += f'\n\nREFLECTION = """\n{reflection}\n"""\n'
        (folder / f"{A}.py").write_text(text)
    else:
        nb = nbformat.read(notebook, as_version=4)
        if reflection is not None:
            [cell] = [c for c in nb.cells if grade_id(c) == "reflection"]
            cell.source = reflection
        nbformat.write(nb, folder / f"{A}.ipynb")
    (folder / "timestamp.txt").write_text(STAMP)
    return folder


def make_course(course: Path) -> Path:
    """A course folder with the source and a gradebook made by `generate_assignment`."""
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
    return course


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A course with five graded submissions, two of them .py files, and our grades.csv."""
    base = tmp_path_factory.mktemp("handoff")
    course = make_course(base / "course")
    submit(course, "good", course / "source" / A / f"{A}.ipynb")
    submit(course, "stub", course / "assignments" / A / f"{A}.ipynb", reflection=REFLECTION)
    submit(course, "bob", SAMPLES / "bob_buggy" / A / f"{A}.ipynb")
    submit(course, "script", SAMPLES / "dave_script" / A / f"{A}.py", reflection=REFLECTION)
    submit(course, "bare", SAMPLES / "dave_script" / A / f"{A}.py")
    out = base / "graded"
    proc = run(sys.executable, "-m", "autograder", "grade", course / "submitted", "--out", out,
               "--jobs", "2", cwd=ROOT, timeout=400)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return course, out / "grades.csv"


@pytest.fixture
def course(graded: tuple[Path, Path], tmp_path: Path) -> Path:
    return copy_course(graded[0], tmp_path / "course")


@pytest.fixture(scope="module")
def first_hand_off(graded: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The graded course after one hand-off of its grades.csv, made once."""
    course = copy_course(graded[0], tmp_path_factory.mktemp("handed") / "course")
    hand_off(course, graded[1])
    return course


@pytest.fixture
def handed(first_hand_off: Path, tmp_path: Path) -> Path:
    """A test's own copy of the course after the first hand-off."""
    return copy_course(first_hand_off, tmp_path / "course")


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


def part_cells(grades: dict[str, tuple], p: int) -> list[tuple]:
    return [v for k, v in sorted(grades.items()) if k.startswith(f"test_part{p}_")]


def max_scores(course: Path) -> dict[str, float]:
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return {c.name: c.max_score for c in gb.find_notebook(A, A).grade_cells}


def comment(course: Path, cell: str, student: str) -> str | None:
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return gb.find_comment(cell, A, A, student).auto_comment


@pytest.mark.slow
def test_export_is_our_autograde_plus_the_manual_reflection(graded, course, capsys) -> None:
    ours = our_rows(graded[1])
    assert {s: (r["status"], r["total"]) for s, r in ours.items()} == {
        "bare": ("graded", "100"), "bob": ("graded", ours["bob"]["total"]),
        "good": ("graded", "100"), "script": ("graded", "100"), "stub": ("graded", "0")}
    assert 50 < float(ours["bob"]["total"]) < 100

    assert main(["--course", str(course), "--grades", str(graded[1])]) == 0
    out = capsys.readouterr().out
    assert "good: 100 / 100 autograded; reflection awaits manual grading" in out

    # formgrader lists everyone as autograded, with the reflection waiting for the TA
    config = load_config(course)
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    for student in ours:
        sub = api.get_submission(A, student)
        assert sub["autograded"] and sub["needs_manual_grade"], sub
    # each part's points sit on its first test cell in the notebook, the others hold 0 of 0
    maxima = max_scores(course)
    release = nbformat.read(course / "assignments" / A / f"{A}.ipynb", as_version=4)
    order = [grade_id(c) for c in release.cells if grade_id(c).startswith("test_part")]
    for p, top in TOKENIZATION.points.items():
        cells = [name for name in order if name.startswith(f"test_part{p}_")]
        assert [maxima[name] for name in cells] == [top] + [0.0] * (len(cells) - 1), cells
        bob = grades_of(course, "bob")
        assert bob[cells[0]][0] == pytest.approx(float(ours["bob"][f"part{p}"]))
        assert all(bob[name][0] == 0.0 for name in cells[1:])
    assert grades_of(course, "good")["reflection"] == (None, None, True)

    # the formgrader copy: locked cells restored, no student outputs, a note on each test
    nb = nbformat.read(course / "autograded" / "good" / A / f"{A}.ipynb", as_version=4)
    notes = {grade_id(c): c.outputs[0]["text"] for c in nb.cells
             if grade_id(c).startswith("test_part")}
    assert len(notes) == len(order)
    assert "Scored by the hidden autograder" in notes["test_part3_untrained"]
    assert "Part 3 is scored on test_part3_untrained" in notes["test_part3_helpers"]

    grade_by_hand(course, "reflection", "good", 4.0)
    grade_by_hand(course, "reflection", "stub", 2.5)
    grade_by_hand(course, "reflection", "bob", 3.0)
    grade_by_hand(course, "reflection", "script", 5.0)
    grade_by_hand(course, "reflection", "bare", 1.0)  # the TA found it in a comment
    exported = export(course)
    assert {s: float(r["score"]) for s, r in exported.items()} == pytest.approx({
        "good": 104, "stub": 2.5, "bob": float(ours["bob"]["total"]) + 3, "script": 105,
        "bare": 101})
    assert {r["max_score"] for r in exported.values()} == {str(float(TOKENIZATION.total + 5))}
    assert exported["good"]["timestamp"] == "2030-01-15 09:30:00"


@pytest.mark.slow
def test_failed_hidden_tests_are_gradebook_comments_and_notes(graded, handed) -> None:
    course = handed  # handed off once
    ours = our_rows(graded[1])["bob"]
    points = TOKENIZATION.points
    assert float(ours["part3"]) < points[3] and float(ours["part2"]) == points[2]
    text = comment(course, "part3_bpe_tokenizer", "bob")
    assert text.startswith("Hidden tests failed in Part 3:\n- "), text
    assert "tie" in text.lower()  # bob's bug: ties go to the wrong pair
    assert comment(course, "part2_char_tokenizer", "bob") is None  # nothing failed there
    assert comment(course, "part3_bpe_tokenizer", "good") is None
    nb = nbformat.read(course / "autograded" / "bob" / A / f"{A}.ipynb", as_version=4)
    [cell] = [c for c in nb.cells if grade_id(c) == "test_part3_untrained"]
    assert "Hidden tests failed:\n- " in cell.outputs[0]["text"]


@pytest.mark.slow
def test_a_py_submission_has_its_reflection_read_or_flagged(graded, course, capsys) -> None:
    assert main(["--course", str(course), "--grades", str(graded[1])]) == 0
    out = capsys.readouterr().out
    assert "script: 100 / 100 autograded; reflection awaits manual grading" in out
    assert "bare: 100 / 100 autograded; reflection NOT FOUND in the .py file" in out
    assert grades_of(course, "script")["reflection"] == (None, None, True)
    assert grades_of(course, "bare")["reflection"] == (None, None, True)  # never a silent 0

    # formgrader shows the .py file and the reflection where the TA grades it
    for student, expected in [("script", REFLECTION), ("bare", "No reflection found")]:
        nb = nbformat.read(course / "autograded" / student / A / f"{A}.ipynb", as_version=4)
        assert nb.cells[1].source == (course / "submitted" / student / A / f"{A}.py").read_text()
        [cell] = [c for c in nb.cells if grade_id(c) == "reflection"]
        assert expected in cell.source
    # and the grader's summary.md already told the TA which reflection is missing
    summary = (graded[1].parent / "summary.md").read_text()
    section = summary.split("## Written reflections to find by hand")[1].split("##")[0]
    assert "bare" in section and "script" not in section and "good" not in section


@pytest.mark.slow
def test_a_jupytext_py_is_read_as_its_notebook(graded, course, tmp_path) -> None:
    import jupytext

    nb = nbformat.read(course / "assignments" / A / f"{A}.ipynb", as_version=4)
    [cell] = [c for c in nb.cells if grade_id(c) == "reflection"]
    cell.source = REFLECTION
    folder = submit(course, "lighty", SAMPLES / "dave_script" / A / f"{A}.py")
    (folder / f"{A}.py").write_text(jupytext.writes(nb, "py:light"))
    grades = tmp_path / "grades.csv"
    header, *rows = graded[1].read_text().splitlines()
    script = next(r for r in rows if r.startswith("script,"))
    grades.write_text("\n".join([header, "lighty" + script[len("script"):]]) + "\n")
    outcome = hand_off(course, grades, "tokenization")
    assert "reflection awaits manual grading" in outcome.handed_off["lighty"]
    copy = nbformat.read(course / "autograded" / "lighty" / A / f"{A}.ipynb", as_version=4)
    [cell] = [c for c in copy.cells if grade_id(c) == "reflection"]
    assert cell.source == REFLECTION


@pytest.mark.slow
def test_a_changed_reflection_flags_its_kept_manual_grade(graded, handed) -> None:
    course = handed  # handed off once
    grade_by_hand(course, "reflection", "stub", 3.0)
    grade_by_hand(course, "reflection", "script", 4.0)
    outcome = hand_off(course, graded[1])  # same files: nothing to review
    assert "reflection graded by hand: 3" in outcome.handed_off["stub"]
    assert grades_of(course, "stub")["reflection"] == (None, 3.0, False)

    submit(course, "stub", course / "assignments" / A / f"{A}.ipynb", reflection="Rewritten.")
    script = course / "submitted" / "script" / A / f"{A}.py"
    script.write_text(script.read_text().replace(REFLECTION, "Also rewritten."))
    outcome = hand_off(course, graded[1])
    for student in ("stub", "script"):
        assert "reflection CHANGED since it was graded by hand" in outcome.handed_off[student]
        assert grades_of(course, student)["reflection"][2] is True  # flagged for review
    assert grades_of(course, "good")["reflection"] == (None, None, True)


@pytest.mark.slow
def test_one_feedback_page_with_the_reflection_and_the_total(graded, handed) -> None:
    course = handed  # handed off once
    page = course / "feedback" / "bob" / A / f"{A}.html"
    before = page.read_text()
    assert "not graded yet" in before and "Total so far" in before
    ours = our_rows(graded[1])["bob"]
    assert f"{ours['total']} <small>/ 105</small>" in before
    hidden = json.loads((graded[1].parent / "bob" / "results.json").read_text())
    failed = [t["output"] for t in hidden["tests"] if t["status"] == "failed"]
    assert failed and all(html.escape(m) in before for m in failed)

    grade_by_hand(course, "reflection", "bob", 4.0)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.find_comment("reflection", A, A, "bob").manual_comment = "Good numbers & slopes."
        gb.db.commit()
    hand_off(course, graded[1])
    after = page.read_text()
    assert "not graded yet" not in after
    assert "Total over everything: autograded and graded by hand" in after
    assert f"{points(float(ours['total']) + 4)} <small>/ 105</small>" in after
    assert "Good numbers &amp; slopes." in after
    assert (page.parent / "timestamp.txt").read_text() == STAMP


@pytest.mark.slow
def test_second_hand_off_changes_nothing_and_keeps_manual_grades(graded, handed) -> None:
    course = handed  # handed off once
    first = snapshot(course)
    hand_off(course, graded[1])
    assert snapshot(course) == first

    grade_by_hand(course, "reflection", "stub", 3.0)
    grade_by_hand(course, "test_part6_embedding_memory", "good", 19.0)  # a TA's override
    graded_by_hand = snapshot(course)
    outcome = hand_off(course, graded[1])
    assert snapshot(course) == graded_by_hand
    assert "reflection graded by hand: 3" in outcome.handed_off["stub"]

    # a regrade that changes the overridden cell flags the override for review
    text = graded[1].read_text().splitlines()
    changed = graded[1].parent / "changed.csv"
    good = our_rows(graded[1])["good"]
    row = [f"{float(good[k]) - 1:g}" if k in ("part6", "total") else good[k] for k in good]
    changed.write_text("\n".join(
        ",".join(row) if t.startswith("good,") else t for t in text) + "\n")
    hand_off(course, changed)
    assert grades_of(course, "good")["test_part6_embedding_memory"] == (19.0, 19.0, True)
    assert grades_of(course, "stub")["reflection"] == (None, 3.0, False)


@pytest.mark.slow
def test_unknown_students_error_rows_and_missing_rows(graded, course, tmp_path, capsys) -> None:
    header = graded[1].read_text().splitlines()[0]
    grades = tmp_path / "grades.csv"
    (course / "submitted" / "empty" / A).mkdir(parents=True)
    grades.write_text(f"{header}\nempty,,,,,,,,100,error,no notebook or .py file found\n"
                      f"ghost,5,0,0,0,0,0,5,100,graded,\n"
                      f"stub,,,,,,,,100,error,timeout\n")
    args = ["--course", str(course), "--grades", str(grades), "--assignment", "tokenization"]
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert "ghost: SKIPPED, unknown student" in err
    assert "good: not in grades.csv" in err
    assert "stub: not autograded (timeout)" in out

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        with pytest.raises(MissingEntry):
            gb.find_student("ghost")
        with pytest.raises(MissingEntry):
            gb.find_submission(A, "good")  # no row: left alone, nothing created
    stub, maxima = grades_of(course, "stub"), max_scores(course)
    assert all(v == ((None, None, True) if maxima[k] else (0.0, None, False))
               for k, v in stub.items() if k.startswith("test_"))
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
        main(["--course", str(tmp_path), "--grades", str(grades), "--assignment", "tokenization"])
    assert exit_.value.code == 2 and "grades.csv is not valid" in capsys.readouterr().err
    grades.write_text(",".join(grades_columns(TOKENIZATION)) + "\n")
    with pytest.raises(SystemExit) as exit_:
        main(["--course", str(tmp_path), "--grades", str(grades), "--assignment", "tokenization"])
    assert exit_.value.code == 2 and "generate_assignment" in capsys.readouterr().err


def test_a_missing_grades_file_is_named(tmp_path, capsys) -> None:
    """Not "pass --assignment": the file is what is missing (graded/NAME/grades.csv after
    grading several assignments at once, graded/grades.csv after one)."""
    missing = tmp_path / "graded" / "grades.csv"
    with pytest.raises(SystemExit) as exit_:
        main(["--course", str(tmp_path), "--grades", str(missing)])
    error = capsys.readouterr().err
    assert exit_.value.code == 2 and f"{missing}: no such file" in error, error
    assert "--assignment" not in error
