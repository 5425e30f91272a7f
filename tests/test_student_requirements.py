"""What a student installs is enough to run what a student gets, for every assignment.

The requirements are the bundle's ``requirements.txt`` (``make student-bundle``, from the
assignment's declaration ``source/NAME/requirements.txt``; see
``autograder/student_bundle.py``). Two checks:

- statically, every module a notebook (source or release) or a released ``.py`` file
  imports is in the standard library, a file beside it, or a distribution that
  requirements.txt names;
- for real, a fresh venv built from that requirements.txt alone (from the package index,
  the way a student's ``pip install -r`` does) runs the released notebook's locked setup
  cell, the whole reference notebook (the source, with its solutions) and ``preflight.py``.
  One venv per distinct requirements file, kept in ``~/.cache/tokenization-course/``
  (``$XDG_CACHE_HOME``) under the hash of the file and the Python version, so only a
  changed file pays for the install. nbclient, which executes the notebooks, is added
  after the requirements are installed, and only if they did not bring it.
"""

import ast
import hashlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from packaging.requirements import Requirement

from autograder.student_bundle import student_files
from tests.course import known

ROOT = Path(__file__).resolve().parents[1]
IPYTHON_LINE = re.compile(r"^\s*(%|!|\?)")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokenization-course"
# Runs one notebook in the venv's own kernel; "setup" runs only its first code cell.
RUNNER = """\
import sys
import nbformat
from nbclient import NotebookClient

path, what, prefix = sys.argv[1:]
nb = nbformat.read(path, as_version=4)
if what == "setup":
    nb.cells = [next(c for c in nb.cells if c.cell_type == "code")]
nb.cells.insert(0, nbformat.v4.new_code_cell(
    f"import sys\\nassert sys.prefix == {prefix!r}, sys.prefix"))
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": "."}}).execute()
print("executed", path, len(nb.cells), "cells")
"""


def requirements(name: str) -> str:
    """The bundle's requirements.txt of one assignment."""
    files = student_files(ROOT / "assignments" / name)
    return files[f"{name}/requirements.txt"].decode()


def declared(text: str) -> set[str]:
    """The distributions a requirements file names, normalised (PEP 503)."""
    return {re.sub(r"[-_.]+", "-", Requirement(line).name).lower()
            for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}


def imported(code: str) -> set[str]:
    """The top-level modules ``code`` imports, anywhere in it (IPython lines left out)."""
    tree = ast.parse("\n".join("" if IPYTHON_LINE.match(ln) else ln
                               for ln in code.splitlines()))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def codes(name: str) -> dict[str, str]:
    """Every notebook's code cells of the assignment (source and release) and every
    released ``.py`` file, by a label for messages."""
    found = {}
    for folder in ("source", "assignments"):
        nb = nbformat.read(ROOT / folder / name / f"{name}.ipynb", as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                found[f"{folder}/{name}/{name}.ipynb cell {i}"] = cell.source
    for path in sorted((ROOT / "assignments" / name).rglob("*.py")):
        found[str(path.relative_to(ROOT))] = path.read_text()
    return found


@pytest.mark.parametrize("name", known())
def test_every_import_is_stdlib_local_or_required(name: str) -> None:
    wanted = declared(requirements(name))
    distributions = importlib.metadata.packages_distributions()
    local = {p.stem for p in (ROOT / "assignments" / name).glob("*.py")}
    missing = {}
    for where, code in codes(name).items():
        for module in imported(code) - set(sys.stdlib_module_names) - local:
            owners = {re.sub(r"[-_.]+", "-", d).lower() for d in distributions.get(module, [])}
            if not owners & wanted:
                missing.setdefault(module, where)
    assert not missing, (f"{name}: imported but not in requirements.txt (module: first place): "
                         f"{missing}; declare them in source/{name}/requirements.txt")


def test_the_import_check_sees_what_a_notebook_imports() -> None:
    code = "%matplotlib inline\nimport regex as re, os.path\nfrom numpy.linalg import norm\n" \
           "from . import x\ndef f():\n    import tiktoken\n"
    assert imported(code) == {"regex", "os", "numpy", "tiktoken"}
    assert declared("# x\njupyterlab>=4\nPyYAML==6\nzope.interface\n") == {
        "jupyterlab", "pyyaml", "zope-interface"}


def student_venv(text: str) -> Path:
    """A venv with ``text`` installed as requirements.txt, built once per file and Python."""
    key = hashlib.sha256(f"{sys.version}\n{text}".encode()).hexdigest()[:16]
    venv = CACHE / f"student-venv-{key}"
    python = venv / "bin" / "python"
    if (venv / ".complete").is_file():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True, timeout=300)
    (venv / "requirements.txt").write_text(text)
    done = subprocess.run([python, "-m", "pip", "install", "--quiet", "-r",
                           venv / "requirements.txt"], capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    has_nbclient = subprocess.run([python, "-c", "import nbclient"], capture_output=True)
    if has_nbclient.returncode:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "nbclient"], check=True,
                       timeout=600)
    (venv / ".complete").write_text(text)
    return venv


@pytest.mark.slow
@pytest.mark.timeout(1800)  # the first run installs the venv (minutes); later ones reuse it
@pytest.mark.parametrize("name", known())
def test_a_fresh_venv_from_the_bundles_requirements_runs_the_notebook(name: str,
                                                                      tmp_path: Path) -> None:
    venv = student_venv(requirements(name))
    python = venv / "bin" / "python"
    folder = tmp_path / name
    for bundled, data in student_files(ROOT / "assignments" / name).items():
        (tmp_path / bundled).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / bundled).write_bytes(data)
    shutil.copy(ROOT / "source" / name / f"{name}.ipynb", folder / "reference.ipynb")
    (tmp_path / "runner.py").write_text(RUNNER)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"JUPYTER_DATA_DIR": str(tmp_path / "jupyter-data"), "JUPYTER_PLATFORM_DIRS": "1",
            "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}"}

    def run(*args: object) -> subprocess.CompletedProcess:
        return subprocess.run([python, *map(str, args)], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=900)

    for notebook, what in ((f"{name}.ipynb", "setup"), ("reference.ipynb", "all")):
        done = run(tmp_path / "runner.py", notebook, what, venv)
        assert done.returncode == 0, f"{notebook} ({what}):\n{done.stderr[-4000:]}"
    for notebook, status in (("reference.ipynb", 0), (f"{name}.ipynb", 1)):
        done = run("preflight.py", notebook)
        assert (done.returncode, "Traceback" in done.stdout + done.stderr) == (status, False), \
            f"preflight {notebook}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
