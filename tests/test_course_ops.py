"""Course operations around the grader: what students receive, a course folder inside this
checkout, and the small report guarantees a TA relies on.

The student bundle is built with the real ``make student-bundle`` and opened as a student
would; the course folder check runs the real ruff and pytest on a tree shaped like a
course run in the checkout; the JupyterLab check asks the real ``jupyter labextension``.
"""

import ast
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder.report.grades_csv import grades_csv
from autograder.report.schema import grades_csv_problems
from autograder.report.stats import ClassStats
from autograder.report.summary import console_summary
from autograder.student_bundle import main as bundle_main
from autograder.suite.checks import show
from autograder.suite.evidence import render
from tests.course import TOKENIZATION, error_result, known

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
REGION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.S)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("bundle")
    done = subprocess.run(["make", "-s", "student-bundle", f"BUNDLE={out}"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [*(f"{name}.zip" for name in known()), "staff"])
    return zipfile.ZipFile(out / "tokenization.zip")


def solution_lines() -> set[str]:
    """Every substantial line of the source's solution regions that students never see."""
    nb = nbformat.read(ROOT / "source" / "tokenization" / "tokenization.ipynb", as_version=4)
    lines, given = set(), "\n".join(REGION.sub("", c.source) for c in nb.cells)
    for cell in nb.cells:
        for region in REGION.findall(cell.source):
            lines |= {ln.strip() for ln in region.splitlines() if len(ln.strip()) > 20
                      and not ln.strip().startswith("#") and ln.strip() not in given}
    return lines


def test_student_bundle_holds_the_release_and_nothing_hidden(bundle) -> None:
    names = bundle.namelist()
    release = ROOT / "assignments" / "tokenization"
    assert sorted(names) == sorted([
        *(f"tokenization/{p.relative_to(release).as_posix()}" for p in release.rglob("*")
          if p.is_file() and "__pycache__" not in p.parts),
        "tokenization/README-students.txt"])
    assert "tokenization/requirements.txt" in names  # declared beside the source notebook
    assert "tokenization/tokenization.ipynb" in names
    hidden_tests = {n.name for p in TOKENIZATION.folder.glob("test_part*.py")
                    for n in ast.walk(ast.parse(p.read_text())) if isinstance(
                        n, ast.FunctionDef) and n.name.startswith("test_")}
    solutions = solution_lines()
    assert len(solutions) > 50 and len(hidden_tests) > 40
    for name in names:
        assert not {"solutions", "autograder", "source"} & set(name.split("/")), name
        text = bundle.read(name).decode("utf-8")
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "HIDDEN TESTS"):
            assert marker not in text, (name, marker)
        assert not [line for line in solutions if line in text], name
        assert not [t for t in hidden_tests if re.search(rf"\b{t}\b", text)], name
    nb = nbformat.reads(bundle.read("tokenization/tokenization.ipynb").decode(), as_version=4)
    assert all(c.outputs == [] for c in nb.cells if c.cell_type == "code")
    readme = bundle.read("tokenization/README-students.txt").decode()
    assert "requirements.txt" in readme and 'REFLECTION = """...""".' in readme
    assert "nbgrader" not in bundle.read("tokenization/requirements.txt").decode()


def test_each_students_readme_fits_its_assignment(bundle) -> None:
    """Both assignments ship the preflight, so both READMEs say how to run it; only the
    notebook with a hand-graded written answer asks for ``REFLECTION`` in a .py file."""
    readmes = {name: zipfile.ZipFile(Path(bundle.filename).parent / f"{name}.zip").read(
        f"{name}/README-students.txt").decode() for name in known()}
    for name, text in readmes.items():
        assert f"python preflight.py {name}.ipynb" in text, name
    assert "REFLECTION" in readmes["tokenization"]
    assert "REFLECTION" not in readmes["production_tokenizers"]


def test_bundled_files_are_dated_when_their_release_last_changed(bundle) -> None:
    """Not a made-up date: the commit date of the assignment's release folder (UTC)."""
    for name in known():
        done = subprocess.run(["git", "log", "-1", "--format=%ct", "--", f"assignments/{name}"],
                              cwd=ROOT, capture_output=True, text=True, check=True)
        stamp = time.gmtime(int(done.stdout) // 2 * 2)[:6]  # zip keeps even seconds
        archive = zipfile.ZipFile(Path(bundle.filename).parent / f"{name}.zip")
        assert {info.date_time for info in archive.infolist()} == {stamp}, name


def test_bundled_text_cites_no_path_of_the_repository(bundle) -> None:
    """Students have the release only: a pointer into tests/ or the grader leads nowhere.
    What students read is checked (notebooks, READMEs, code), not data: parallel.json
    names the course tool that generated it, as provenance for the staff."""
    repository = re.compile(r"(?<![\w./-])(tests|autograder|solutions|source|samples)/\w")
    for name in known():
        archive = zipfile.ZipFile(Path(bundle.filename).parent / f"{name}.zip")
        for entry in archive.namelist():
            if Path(entry).suffix not in (".ipynb", ".md", ".py", ".txt"):
                continue
            found = repository.findall(archive.read(entry).decode("utf-8", "replace"))
            assert not found, (entry, found)


def test_student_bundle_refuses_a_release_that_leaks(tmp_path, capsys) -> None:
    release = tmp_path / "assignments" / "tokenization"
    release.mkdir(parents=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n")])
    nbformat.write(nb, release / "tokenization.ipynb")
    out = tmp_path / "out"
    assert bundle_main(["--release", str(release.parent), "--out", str(out)]) == 1
    assert "BEGIN SOLUTION" in capsys.readouterr().err
    assert not list(out.glob("*.zip"))
    (release / "tokenization.ipynb").unlink()
    (release / "solutions").mkdir()
    (release / "solutions" / "part1.py").write_text("x = 1\n")
    assert bundle_main(["--release", str(release.parent), "--out", str(out)]) == 1


def test_student_bundle_refuses_a_release_without_requirements(tmp_path, capsys) -> None:
    release = tmp_path / "assignments" / "tokenization"
    release.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(), release / "tokenization.ipynb")
    assert bundle_main(["--release", str(release.parent), "--out", str(tmp_path / "out")]) == 1
    assert "source/tokenization/requirements.txt" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_student_jupyter_config_hides_the_instructor_menus(bundle, tmp_path) -> None:
    """The staff's zip, not the students': they never see it in their file browser."""
    assert not [n for n in bundle.namelist() if "jupyter" in n.split("/")[:-1]]
    staff = zipfile.ZipFile(Path(bundle.filename).parent / "staff" / "jupyter-config.zip")
    assert sorted(staff.namelist()) == ["jupyter/jupyter_server_config.json",
                                        "jupyter/labconfig/page_config.json"]
    staff.extractall(tmp_path)
    env = {**ENV, "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter")}
    done = subprocess.run([BIN / "jupyter", "labextension", "list"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    disabled = (done.stdout + done.stderr).split("Disabled extensions:")[1].split()
    assert sorted(disabled) == ["@jupyter/nbgrader:course-list",
                                "@jupyter/nbgrader:create-assignment",
                                "@jupyter/nbgrader:formgrader"]


def test_a_course_folder_in_the_checkout_is_ignored_unlinted_and_uncollected(tmp_path) -> None:
    tree = tmp_path / "checkout"
    (tree / "tests").mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    (tree / "tests" / "test_ours.py").write_text("def test_ours() -> None:\n    assert True\n")
    bad = "import os, sys\nx=1;y = x ==None\ndef test_student():\n    assert False\n"
    for folder in ("submitted/alice/tokenization", "autograded/alice/tokenization",
                   "graded/alice", "feedback/alice/tokenization", "downloaded/tokenization/x",
                   "release/tokenization", "exchange/course/inbound"):
        (tree / folder).mkdir(parents=True)
        (tree / folder / "test_tokenization.py").write_text(bad)
        (tree / folder / "conftest.py").write_text("raise SystemExit('collected!')\n")
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=tree, env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert lint.returncode == 0, lint.stdout[-2000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                           cwd=tree, env=ENV, capture_output=True, text=True, timeout=120)
    assert tests.returncode == 0 and "1 passed" in tests.stdout, tests.stdout[-2000:]
    # and git never sees student data in this checkout
    paths = ["submitted/a/tokenization/tokenization.py", "autograded/a/x.ipynb",
             "graded/grades.csv",
             "feedback/a/tokenization/tokenization.html", "downloaded/tokenization/archive/a.zip",
             "release/tokenization/tokenization.ipynb", "exchange/x", "final.csv", "gradebook.db",
             "dist/student/tokenization.zip"]
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert sorted(ignored.stdout.split()) == sorted(paths)


def shown(value: object) -> str:
    """``show(value)`` as a student reads it when the inputs are revealed."""
    return render(show(value), reveal=True, limit=10_000)


def test_show_drops_elements_never_characters() -> None:
    assert shown(list(range(100))).endswith(", ... (82 more)]")
    assert shown(tuple(range(100))).startswith("(0, 1, ") and shown(tuple(range(100)))[-1] == ")"
    assert shown(set(range(10**6))).endswith(", ... (999983 more)}")
    nested = {f"k{i}": [list(range(30))] * 3 for i in range(20)}
    for value in (list(range(1000)), nested, ["x" * 500] * 3, "y" * 400, {1, 2, *range(99)}):
        text = shown(value)
        assert len(text) <= 120, text
        # what is shown still parses as Python once the "... (N more)" markers are dropped
        ast.parse(re.sub(r"(, )?\.\.\. \(\d+ more\)|\.\.\. \(\+\d+ characters\)", "", text))
    assert shown([1, 2, 3]) == "[1, 2, 3]"


def test_grades_csv_leaves_the_scores_of_an_ungraded_row_empty() -> None:
    text = grades_csv([error_result("eve", "eve.py", "timeout")], TOKENIZATION)
    assert grades_csv_problems(text, TOKENIZATION) == []
    [row] = csv.DictReader(io.StringIO(text))
    assert [row[f"part{p}"] for p in range(1, 7)] + [row["total"]] == [""] * 7
    assert (row["max_total"], row["status"], row["error"]) == ("100", "error", "timeout")
    zero = text.replace("eve,,", "eve,0,")
    assert grades_csv_problems(zero, TOKENIZATION), "a 0 in an error row is wrong"


def test_the_summary_line_says_which_results_came_from_the_cache() -> None:
    result = error_result("a", "a.py", "x") | {"status": "graded", "error": None, "seconds": 1.5}
    stats = ClassStats([result, {**result, "student_id": "b"}], TOKENIZATION)
    fresh = console_summary(stats, "graded", 3.1, 2)[0]
    assert fresh.endswith("Took 3.1 s with 2 jobs (1.5 s per graded submission).")
    cached = console_summary(stats, "graded", 0.1, 2, cached=2)[0]
    assert "2 results reused from graded/.cache" in cached and "0 graded now" in cached
    assert "1.5 s per submission when it ran" in cached
