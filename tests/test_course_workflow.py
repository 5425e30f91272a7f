"""The README's course workflow, command by command, as an instructor, students and a TA run it.

One course on one server with a shared exchange folder: the instructor generates and
releases the assignment, two students fetch it and submit (one a notebook, one a ``.py``
file), a third student's file arrives from an LMS download through ``zip_collect``; the TA
collects, grades in our sandbox, hands off, grades the reflections (as formgrader saves
them), hands off again for the feedback pages, exports, and releases the feedback, which a
student fetches. Then a late resubmission: ``collect --update``, grade, hand off, export.
Every command is the real one in a subprocess, in the folder the README says.
"""

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_handoff import REFLECTION, SAMPLES, grade_by_hand, grade_id, grades_of

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
A = "tokenization"
COURSE_ID = "tokenization-course"


def sh(*cmd: object, cwd: Path, user: str = "instructor", config: Path | None = None,
       ok: bool = True) -> subprocess.CompletedProcess:
    """Run a README command as ``user`` (on a server, nbgrader names a submission after
    the login; here everyone is one login, so students pass ``--student``)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "USER": user,
           "LOGNAME": user, "HOME": str(cwd)}
    if config is not None:
        env["JUPYTER_CONFIG_DIR"] = str(config)
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=400)
    if ok:
        assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def rows(path: Path) -> dict[str, dict[str, str]]:
    return {r["student_id"]: r for r in csv.DictReader(io.StringIO(path.read_text()))}


def reflect(notebook: Path, text: str) -> None:
    nb = nbformat.read(notebook, as_version=4)
    [cell] = [c for c in nb.cells if grade_id(c) == "reflection"]
    cell.source = text
    nbformat.write(nb, notebook)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("workflow")
    exchange = base / "exchange"
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    course = base / "course"
    shutil.copytree(ROOT / "source", course / "source")
    # the README's one-server exchange: the same two lines for the course and the students
    setting = f"c.Exchange.root = {str(exchange)!r}\nc.CourseDirectory.course_id = {COURSE_ID!r}\n"
    (course / "nbgrader_config.py").write_text(
        (ROOT / "nbgrader_config.py").read_text() + "\n" + setting)
    students = base / "students-config"
    students.mkdir()
    (students / "nbgrader_config.py").write_text("c = get_config()  # noqa: F821\n" + setting)
    return {"base": base, "course": course, "students": students}


def home(world: dict[str, Path], user: str) -> Path:
    folder = world["base"] / "home" / user
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_readme_workflow_end_to_end(world) -> None:
    course, students = world["course"], world["students"]
    # instructor: make the assignment and release it to the exchange
    sh("nbgrader", "generate_assignment", A, cwd=course)
    sh("nbgrader", "release_assignment", A, cwd=course)

    # students: fetch, work, submit
    alice, bob = home(world, "alice"), home(world, "bob")
    for user, folder in (("alice", alice), ("bob", bob)):
        sh("nbgrader", "fetch_assignment", A, cwd=folder, user=user, config=students)
    shutil.copy(course / "source" / A / f"{A}.ipynb", alice / A / f"{A}.ipynb")
    (bob / A / f"{A}.ipynb").unlink()  # bob works in a .py file and says where Q3 is
    (bob / A / f"{A}.py").write_text((SAMPLES / "dave_script" / A / f"{A}.py").read_text()
                                     + f'\nREFLECTION = """{REFLECTION}"""\n')
    for user, folder in (("alice", alice), ("bob", bob)):
        sh("nbgrader", "submit", A, "--student", user, cwd=folder, user=user, config=students)

    # TA: collect from the exchange, and a download from the LMS with zip_collect
    sh("nbgrader", "collect", A, cwd=course)
    archive = course / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    stub = course / "assignments" / A / f"{A}.ipynb"
    shutil.copy(stub, archive / f"carol_LATE_1234_5678_{A}.ipynb")
    collected = sh("nbgrader", "zip_collect", A, cwd=course)
    assert "1 files collected" in collected.stdout + collected.stderr
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["alice", "bob", "carol"]

    # TA: grade in the sandbox, hand off, grade the reflections, hand off again, export
    sh(sys.executable, "-m", "autograder", "grade", "submitted", "--out", "graded",
       "--jobs", "2", cwd=course)
    handed = sh(sys.executable, "-m", "autograder.handoff", "--course", ".", "--grades",
                "graded/grades.csv", cwd=course)
    assert "bob: 100 / 100 autograded; reflection awaits manual grading" in handed.stdout
    assert "carol: 0 / 100 autograded; reflection: no response, 0" in handed.stdout
    grade_by_hand(course, "reflection", "alice", 4.5)
    grade_by_hand(course, "reflection", "bob", 3.0)
    sh(sys.executable, "-m", "autograder.handoff", "--course", ".", "--grades",
       "graded/grades.csv", cwd=course)
    sh("nbgrader", "export", "--to", "final.csv", cwd=course)
    final = rows(course / "final.csv")
    assert {s: (r["raw_score"], r["score"], r["max_score"]) for s, r in final.items()} == {
        "alice": ("104.5", "104.5", "105.0"), "bob": ("103.0", "103.0", "105.0"),
        "carol": ("0.0", "0.0", "105.0")}

    # feedback: one page per student, through the exchange
    page = course / "feedback" / "alice" / A / f"{A}.html"
    assert "104.5 <small>/ 105</small>" in page.read_text()
    sh("nbgrader", "release_feedback", A, cwd=course)
    sh("nbgrader", "fetch_feedback", A, "--student", "alice", cwd=alice, user="alice",
       config=students)
    [fetched] = list((alice / A / "feedback").rglob(f"{A}.html"))
    assert fetched.read_text() == page.read_text()

    # a late resubmission: collect --update, grade (the others come from the cache), hand off
    reflect(alice / A / f"{A}.ipynb", "A better reflection, written after the deadline.")
    sh("nbgrader", "submit", A, "--student", "alice", cwd=alice, user="alice", config=students)
    sh("nbgrader", "collect", "--update", A, cwd=course)
    regraded = sh(sys.executable, "-m", "autograder", "grade", "submitted", "--out", "graded",
                  "--jobs", "2", cwd=course)
    assert "2 results reused from graded/.cache" in regraded.stdout
    handed = sh(sys.executable, "-m", "autograder.handoff", "--course", ".", "--grades",
                "graded/grades.csv", cwd=course)
    assert "alice: 100 / 100 autograded; reflection CHANGED since it was graded" in handed.stdout
    assert grades_of(course, "alice")["reflection"] == (None, 4.5, True)
