"""The course workflow of docs/instructors.md, command by command, as an instructor, students
and a TA run it.

One course on one server with a shared exchange folder: the instructor generates and
releases the assignment, two students fetch it and submit (one a notebook, one a ``.py``
file), a third student's file arrives from an LMS download through ``zip_collect``; the TA
collects, grades in our sandbox, hands off, grades the reflections (as formgrader saves
them), hands off again for the feedback pages, exports, and releases the feedback, which a
student fetches. Then a late resubmission: ``collect --update``, grade, hand off, export.
Every command is the real one in a subprocess, in the folder the guide says; the staff's
commands are the steps of ``course.sh``, which the guide names (``sh course.sh STEP NAME``)
and these tests run, so the two cannot drift apart.

The second test is the guide as a TA lives it in this checkout, for every assignment: a
scratch copy holding the committed release and no gradebook, two LMS downloads collected
with the documented ``zip_collect`` pattern, graded, handed off and exported.
"""

import csv
import filecmp
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_handoff import REFLECTION, SAMPLES, grade_by_hand, grade_id, grades_of

from tests.course import known, load

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "autograder" / "handoff" / "course.sh"
GUIDE = ROOT / "docs" / "instructors.md"  # names the steps, in order
BIN = Path(sys.executable).parent
A = "tokenization"
COURSE_ID = "tokenization-course"


def sh(*cmd: object, cwd: Path, user: str = "instructor", config: Path | None = None,
       ok: bool = True) -> subprocess.CompletedProcess:
    """Run a command of the guide as ``user`` (on a server, nbgrader names a submission after
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


def step(name: str, assignment: str, cwd: Path) -> subprocess.CompletedProcess:
    """One step of ``course.sh``, as the guide says to run it (in the course folder)."""
    return sh("sh", cwd / "course.sh", name, assignment, cwd=cwd)


def guide_steps() -> list[str]:
    """The ``course.sh`` steps the guide names, in its order, each once."""
    found = re.findall(r"sh course\.sh ([a-z_]+) ", GUIDE.read_text(encoding="utf-8"))
    return list(dict.fromkeys(found))


def script_steps() -> set[str]:
    return set(re.findall(r"^\s+(\w+)\) run ", SCRIPT.read_text(), re.M))


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
    shutil.copy(SCRIPT, course / "course.sh")  # what `sh course.sh` runs below
    # the guide's one-server exchange: the same two lines for the course and the students
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


@pytest.mark.slow
@pytest.mark.timeout(900)  # some twenty nbgrader commands: 5 min at load average 10
def test_the_course_workflow_end_to_end(world) -> None:
    course, students = world["course"], world["students"]
    # instructor: make the assignment and release it to the exchange
    step("generate", A, course)
    step("release", A, course)

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
    step("collect", A, course)
    archive = course / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    stub = course / "assignments" / A / f"{A}.ipynb"
    shutil.copy(stub, archive / f"carol_LATE_1234_5678_{A}.ipynb")
    collected = step("zip_collect", A, course)
    assert "1 files collected" in collected.stdout + collected.stderr
    assert sorted(p.name for p in (course / "submitted").iterdir()) == ["alice", "bob", "carol"]

    # TA: grade in the sandbox, hand off, grade the reflections, hand off again, export
    step("grade", A, course)
    handed = step("handoff", A, course)
    assert "bob: 100 / 100 autograded; reflection awaits manual grading" in handed.stdout
    assert "carol: 0 / 100 autograded; reflection: no response, 0" in handed.stdout
    grade_by_hand(course, "reflection", "alice", 4.5)
    grade_by_hand(course, "reflection", "bob", 3.0)
    step("handoff", A, course)
    step("export", A, course)
    final = rows(course / "final.csv")
    assert {s: (r["raw_score"], r["score"], r["max_score"]) for s, r in final.items()} == {
        "alice": ("104.5", "104.5", "105.0"), "bob": ("103.0", "103.0", "105.0"),
        "carol": ("0.0", "0.0", "105.0")}

    # feedback: one page per student, through the exchange
    page = course / "feedback" / "alice" / A / f"{A}.html"
    assert "104.5 <small>/ 105</small>" in page.read_text()
    step("release_feedback", A, course)
    sh("nbgrader", "fetch_feedback", A, "--student", "alice", cwd=alice, user="alice",
       config=students)
    [fetched] = list((alice / A / "feedback").rglob(f"{A}.html"))
    assert fetched.read_text() == page.read_text()

    # a late resubmission: collect --update, grade (the others come from the cache), hand off
    reflect(alice / A / f"{A}.ipynb", "A better reflection, written after the deadline.")
    sh("nbgrader", "submit", A, "--student", "alice", cwd=alice, user="alice", config=students)
    step("collect", A, course)
    regraded = step("grade", A, course)
    assert f"2 results reused from graded/{A}/.cache" in regraded.stdout
    handed = step("handoff", A, course)
    assert "alice: 100 / 100 autograded; reflection CHANGED since it was graded" in handed.stdout
    assert grades_of(course, "alice")["reflection"] == (None, 4.5, True)


def test_the_guide_names_every_step_of_the_script_and_no_other() -> None:
    assert set(guide_steps()) == script_steps()
    assert {"generate", "zip_collect", "grade", "handoff", "export"} <= script_steps()


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", known())
def test_the_course_workflow_in_a_checkout_for_every_assignment(name: str, tmp_path) -> None:
    course = tmp_path / "checkout"
    for folder in ("source", "assignments"):
        shutil.copytree(ROOT / folder, course / folder)
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    shutil.copy(SCRIPT, course / "course.sh")
    archive = course / "downloaded" / name / "archive"
    archive.mkdir(parents=True)
    shutil.copy(ROOT / "source" / name / f"{name}.ipynb", archive / f"ref_11_12_{name}.ipynb")
    shutil.copy(ROOT / "assignments" / name / f"{name}.ipynb",
                archive / f"stub_LATE_21_22_{name}.ipynb")
    wanted = ["generate", "zip_collect", "grade", "handoff", "export"]
    for name_of_step in [s for s in guide_steps() if s in wanted]:
        done = step(name_of_step, name, course)
        assert done.stdout.startswith("+ "), done.stdout  # it shows the command it runs
        if name_of_step == "generate":  # the committed release, and now its gradebook
            assert (course / "gradebook.db").is_file()
            compared = filecmp.dircmp(ROOT / "assignments" / name, course / "assignments" / name)
            assert not compared.left_only + compared.right_only, compared.report()
        if name_of_step == "zip_collect":
            assert "2 files collected" in done.stdout + done.stderr
    graded = rows(course / "graded" / name / "grades.csv")
    full = load(name).total
    assert {s: r["total"] for s, r in graded.items()} == {"ref": str(full), "stub": "0"}
    final = rows(course / "final.csv")
    assert {s: r["raw_score"] for s, r in final.items()} == {"ref": f"{full}.0", "stub": "0.0"}
