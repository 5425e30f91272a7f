"""The committed student release is exactly what nbgrader makes from source/, minus solutions,
for every assignment of the course.

Regenerates the release in a temporary course directory (a copy of ``source/`` and
``nbgrader_config.py``), adds the preflight as ``make release`` does, and compares it with
``assignments/``. If this fails after an edit to
the source notebook, run ``make release`` and commit ``assignments/``.

"Exactly" means what a student and the grader depend on: the cells in order, their type,
source and nbgrader metadata. What opening and saving the notebook in JupyterLab changes
(kernel and language metadata, outputs, execution counts, widget state, cell ids and
UI metadata such as ``collapsed`` or ``execution`` timings) is not compared, so pressing
Validate or running the release does not turn the repository red; the student bundle
(``make student-bundle``) strips outputs before anything reaches students.
"""

import copy
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory

from autograder.handoff.gradebook import load_config
from tests.course import known

ROOT = Path(__file__).resolve().parents[1]
# Files beside a source notebook that stay out of the release (nbgrader_config.py).
INSTRUCTOR_ONLY = {"make_parallel.py", "make_data.py"}
# Files make release adds to each release (built from the grader: autograder/extract/ship.py).
GENERATED = {"preflight.py"}
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
STUB = re.compile(r"# YOUR CODE HERE\n\s*raise NotImplementedError\(\)")
REGION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.S)


def files(directory: Path) -> dict[str, Path]:
    """The files of a release or source folder, without what Python and JupyterLab leave
    beside them (the student bundle and nbgrader leave those out too)."""
    return {
        str(p.relative_to(directory)): p
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not {".ipynb_checkpoints", "__pycache__"} & set(p.parts)
    }


def by_grade_id(nb) -> dict:
    return {
        c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if "nbgrader" in c.metadata
    }


@pytest.fixture(scope="module", params=known())
def name(request) -> str:
    """The assignment the test is about."""
    return request.param


def source_notebook(name: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "source" / name / f"{name}.ipynb", as_version=4)


def release_notebook(name: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "assignments" / name / f"{name}.ipynb", as_version=4)


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory, name) -> Path:
    course = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "source", course / "source")
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    # make release's first step, `nbgrader generate_assignment NAME --force`, through
    # nbgrader's API in this process as formgrader runs it (the same converter, the same
    # configuration; the command spends seconds importing nbgrader before it starts)
    config = load_config(course)
    with pytest.MonkeyPatch.context() as mp:  # nbgrader runs the `alembic` of its environment
        mp.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        made = NbGraderAPI(CourseDirectory(config=config), config=config).generate_assignment(
            name, force=True)
    assert made["success"], made.get("error")
    # make release's second step: the preflight, built from the grader's extraction code
    built = subprocess.run([sys.executable, "-m", "autograder.extract.ship",
                            str(course / "assignments" / name)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert built.returncode == 0, built.stderr
    return course / "assignments" / name


def differences(fresh: nbformat.NotebookNode, committed: nbformat.NotebookNode) -> list[str]:
    """How two releases of one notebook differ in what matters (see the module docstring)."""
    def key(cell: nbformat.NotebookNode) -> tuple:
        return cell.cell_type, cell.source, cell.metadata.get("nbgrader")

    if len(fresh.cells) != len(committed.cells):
        return [f"{len(fresh.cells)} cells regenerated, {len(committed.cells)} committed"]
    return [f"cell {i}: {a.source[:300]}" for i, (a, b) in enumerate(
        zip(fresh.cells, committed.cells, strict=True)) if key(a) != key(b)]


def saved_in_jupyterlab(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` as JupyterLab saves it after a student ran it and pressed Validate."""
    nb = copy.deepcopy(nb)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.9", "mimetype":
                                    "text/x-python", "file_extension": ".py"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    for count, cell in enumerate(nb.cells, start=1):
        cell.id = f"saved-{count}"
        cell.metadata["trusted"] = True
        cell.metadata["collapsed"] = False
        if cell.cell_type == "code":
            cell.execution_count = count
            cell.metadata["execution"] = {"iopub.status.idle": "2030-01-15T09:30:00.000Z"}
            cell.outputs = [nbformat.v4.new_output("error", ename="NotImplementedError",
                                                   evalue="", traceback=[])]
    return nb


def test_regenerated_release_matches_committed(regenerated, name):
    fresh, committed = files(regenerated), files(ROOT / "assignments" / name)
    shipped = sorted(set(files(ROOT / "source" / name)) - INSTRUCTOR_ONLY | GENERATED)
    assert sorted(fresh) == sorted(committed) == shipped
    assert f"{name}.ipynb" in shipped
    for name, path in fresh.items():
        if name.endswith(".ipynb"):
            new = nbformat.read(path, as_version=4)
            old = nbformat.read(committed[name], as_version=4)
            assert not differences(new, old), (
                "assignments/ is stale: run `make release` and commit it\n"
                + "\n".join(differences(new, old)[:3]))
        else:
            assert path.read_bytes() == committed[name].read_bytes(), name


def test_a_release_saved_in_jupyterlab_still_matches(regenerated, name):
    fresh = nbformat.read(regenerated / f"{name}.ipynb", as_version=4)
    saved = saved_in_jupyterlab(release_notebook(name))
    nbformat.validate(saved)
    assert differences(fresh, saved) == []
    # what matters still counts: an edited cell or lost nbgrader metadata is a difference
    edited = copy.deepcopy(saved)
    edited.cells[3].source += "\n# edited"
    assert differences(fresh, edited) == [f"cell 3: {edited.cells[3].source[:300]}"]
    unlocked = copy.deepcopy(saved)
    locked = next(c for c in unlocked.cells if c.metadata.get("nbgrader", {}).get("locked"))
    locked.metadata.nbgrader["locked"] = False
    assert len(differences(fresh, unlocked)) == 1


def test_release_copies_the_corpus(name):
    corpus = (ROOT / "assignments" / name / "tinyshakespeare.txt").read_bytes()
    assert corpus == (ROOT / "source" / name / "tinyshakespeare.txt").read_bytes()
    assert len(corpus.decode("utf-8").splitlines()) == 40_000


def test_release_has_no_markers(name):
    nb = release_notebook(name)
    for cell in nb.cells:
        for marker in MARKERS:
            assert marker not in cell.source, cell.source[:300]


def test_release_has_no_solution_code(name):
    source, release = by_grade_id(source_notebook(name)), by_grade_id(release_notebook(name))
    assert source.keys() == release.keys()
    solution_cells = [gid for gid, cell in source.items() if cell.metadata.nbgrader["solution"]]
    assert len(solution_cells) >= 9
    for gid in solution_cells:
        stub = release[gid].source
        if source[gid].cell_type == "markdown":
            assert stub == "YOUR ANSWER HERE"
            continue
        regions = REGION.findall(source[gid].source)
        assert regions, f"{gid}: solution cell without a solution region"
        assert len(STUB.findall(stub)) == len(regions), f"{gid}: one stub per solution region"
        for region in regions:
            for line in region.splitlines():
                line = line.strip()
                if len(line) > 12 and not line.startswith("#") and line not in CODE_STUB:
                    assert line not in stub, f"{gid}: solution line left in the release: {line}"


def test_release_keeps_locked_cells_and_signatures(name):
    source, release = by_grade_id(source_notebook(name)), by_grade_id(release_notebook(name))
    for gid, cell in source.items():
        meta = cell.metadata.nbgrader
        if meta["locked"]:
            assert release[gid].source == cell.source, f"{gid}: locked cell changed"
        if meta["solution"] and cell.cell_type == "code":
            stripped = REGION.sub("", cell.source)
            signatures = [ln for ln in stripped.splitlines() if ln.lstrip().startswith("def ")]
            for signature in signatures:
                assert signature in release[gid].source, f"{gid}: {signature}"
