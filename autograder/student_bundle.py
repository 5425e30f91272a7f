"""``make student-bundle``: what students receive, one zip per assignment of the release.

``<out>/<assignment>.zip`` holds ``<assignment>/`` with the release's files (the notebook
with outputs, execution counts and widget state cleared, as a save in JupyterLab may have
left them; the data) and ``README-students.txt`` (what to install and how to work, short).

Each assignment declares what its notebook needs in ``source/<assignment>/requirements.txt``,
beside the notebook it describes: it is what the instructor edits with the notebook, nbgrader
copies it into the release (so students who fetch through an exchange get it too), and this
bundle reads nothing but the release. The bundle ships it as is and refuses to build without
one. Its pins of what graded code imports (numpy, regex) are the grader's
(``autograder/gradescope/requirements.txt``, the one source of the pins; a test keeps them in
step).

``<out>/staff/jupyter-config.zip`` holds ``jupyter/``, a JupyterLab configuration that hides
nbgrader's instructor menus, for the staff to install on a course server where nbgrader is
installed for everyone. It is one file for the course, not a folder in each student's zip:
students never install it themselves, and a folder in their zip (even a dotted one) would
only sit in their assignment folder, where a server that shows hidden files lists it.

Zip entries are dated when the release last changed: the commit date of ``assignments/``'s
folder (``SOURCE_DATE_EPOCH`` overrides it, as in reproducible builds; outside a git checkout,
the newest file's time), so the same release gives the same bytes and an honest date.

Only ``assignments/<assignment>/`` is read, never ``source/``, ``solutions/`` or
``autograder/``, and every file is checked before it is written: a marker of a solution
or hidden-test region, or a file under a folder of those names, stops the build with an
error instead of giving it to students. One file is the exception: ``preflight.py`` is a
fresh build from the grader's extraction code (``autograder/extract/ship.py``), never a
stale copy. Hidden files, ``__pycache__`` and
``.ipynb_checkpoints`` are left out.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat

from autograder.extract.ship import preflight_source

ROOT = Path(__file__).resolve().parents[1]
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
FORBIDDEN_FOLDERS = {"solutions", "autograder", "source", "submitted", "autograded",
                     "feedback", "graded"}
INSTRUCTOR_EXTENSIONS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                         "@jupyter/nbgrader:course-list")
README = """\
{assignment}: what you need
{underline}

1. Python 3.11 or newer, then, in this folder:
       python -m venv .venv
       .venv/bin/pip install -r requirements.txt      (Windows: .venv\\Scripts\\pip)
       .venv/bin/jupyter lab
2. Open {assignment}.ipynb (keep the data files next to it; everything works offline).
3. Replace every "# YOUR CODE HERE" / "raise NotImplementedError()"; keep every name,
   signature and docstring. Run "Restart Kernel and Run All Cells" before you submit.
{preflight}4. Submit {assignment}.ipynb as your course tells you (upload it, or the Assignments tab
   of a course server).{reflection}

Nothing here needs nbgrader.
"""
STAFF_ZIP = "staff/jupyter-config.zip"  # under <out>: not one to hand out


class BundleError(Exception):
    """The release cannot be bundled as it is; the message says why."""


class LeakError(BundleError):
    """A file that must not reach students is about to be bundled."""


def _clean_notebook(path: Path) -> bytes:
    """The notebook without outputs, execution counts or saved widget state."""
    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("execution", None)
    return nbformat.writes(nb).encode("utf-8") + b"\n"


# Lines of README-students.txt that only some assignments need.
PREFLIGHT = """\
   Then save it and run its last cell (or: python preflight.py {assignment}.ipynb):
   it shows what the grader keeps of your code and runs the visible tests on that alone.
"""
REFLECTION = """ Submitting a .py file instead? Put your written
   answers (graded by hand) in a module-level string: REFLECTION = \"\"\"...\"\"\"."""


def _hand_graded(notebook: Path) -> bool:
    """True when the notebook has a written answer graded by hand (an nbgrader markdown
    cell that is both a solution and graded)."""
    nb = nbformat.read(notebook, as_version=4)
    return any(cell.cell_type == "markdown" and cell.metadata.get("nbgrader", {}).get("grade")
               and cell.metadata["nbgrader"].get("solution") for cell in nb.cells)


def readme(release: Path) -> str:
    """``README-students.txt`` for one released assignment: a preflight step when one
    ships beside the notebook, the reflection note when the notebook has a written answer."""
    assignment = release.name
    notebook = release / f"{assignment}.ipynb"
    return README.format(
        assignment=assignment, underline="=" * (len(assignment) + 19),
        preflight=PREFLIGHT.format(assignment=assignment)
        if (release / "preflight.py").is_file() else "",
        reflection=REFLECTION if notebook.is_file() and _hand_graded(notebook) else "")


def _check(name: str, data: bytes) -> None:
    """Raise ``LeakError`` if ``data`` (bundled as ``name``) looks like hidden material."""
    if FORBIDDEN_FOLDERS & set(Path(name).parts[:-1]):
        raise LeakError(f"{name}: a file from a folder students must not get")
    text = data.decode("utf-8", errors="replace")
    for marker in MARKERS:
        if marker in text:
            raise LeakError(f"{name}: contains {marker!r}; run `make release` from source/")


def student_files(release: Path) -> dict[str, bytes]:
    """Every file of one assignment's bundle, by its name in the zip."""
    assignment = release.name
    files: dict[str, bytes] = {}
    for path in sorted(release.rglob("*")):
        rel = path.relative_to(release)
        if not path.is_file() or any(p.startswith(".") or p in (
                "__pycache__", ".ipynb_checkpoints") for p in rel.parts):
            continue
        data = _clean_notebook(path) if path.suffix == ".ipynb" else path.read_bytes()
        if rel.as_posix() == "preflight.py":  # built fresh from the grader's extraction code
            data = preflight_source().encode("utf-8")
        files[f"{assignment}/{rel.as_posix()}"] = data
    files[f"{assignment}/README-students.txt"] = readme(release).encode()
    for name, data in files.items():
        _check(name, data)
    if f"{assignment}/requirements.txt" not in files:
        raise BundleError(f"{release}: no requirements.txt; declare what the notebook needs in "
                          f"source/{assignment}/requirements.txt and run `make release`")
    return files


def staff_files() -> dict[str, bytes]:
    """``jupyter/``: the JupyterLab configuration that hides nbgrader's instructor menus."""
    page_config = {"disabledExtensions": dict.fromkeys(INSTRUCTOR_EXTENSIONS, True)}
    server = {"ServerApp": {"jpserver_extensions": {
        "nbgrader.server_extensions.formgrader": False}}}
    return {"jupyter/labconfig/page_config.json":
            json.dumps(page_config, indent=2).encode() + b"\n",
            "jupyter/jupyter_server_config.json": json.dumps(server, indent=2).encode() + b"\n"}


def release_date(folder: Path) -> tuple[int, int, int, int, int, int]:
    """When ``folder`` last changed, in UTC (see the module docstring)."""
    stamp = os.environ.get("SOURCE_DATE_EPOCH", "")
    if not stamp:
        try:
            stamp = subprocess.run(["git", "log", "-1", "--format=%ct", "--", "."], cwd=folder,
                                   capture_output=True, text=True, timeout=60).stdout.strip()
        except OSError:  # no git here
            stamp = ""
    if not stamp:
        stamp = str(max((p.stat().st_mtime for p in folder.rglob("*") if p.is_file()),
                        default=0))
    # zip cannot store a date before 1980
    return max(time.gmtime(int(float(stamp)))[:6], (1980, 1, 1, 0, 0, 0))


def write_zip(target: Path, files: dict[str, bytes], date: tuple[int, ...]) -> None:
    """``files`` zipped into ``target`` in their order, every entry dated ``date`` and
    readable by all: the same files give the same bytes."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=date)
            info.external_attr = 0o644 << 16  # rw-r--r-- when unzipped
            zf.writestr(info, data, zipfile.ZIP_DEFLATED)


def build(releases: Path, out: Path) -> list[Path]:
    """Write ``<out>/<assignment>.zip`` for each assignment folder in ``releases``, and the
    staff's ``<out>/staff/jupyter-config.zip``."""
    folders = sorted(p for p in releases.iterdir() if p.is_dir() and not p.name.startswith("."))
    bundles = [(f, student_files(f)) for f in folders]  # all checked before anything is written
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for release, files in bundles:
        written.append(out / f"{release.name}.zip")
        write_zip(written[-1], files, release_date(release))
    written.append(out / STAFF_ZIP)
    written[-1].parent.mkdir(exist_ok=True)
    write_zip(written[-1], staff_files(), release_date(releases))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.student_bundle",
                                     description="Zip each assignment of the release for "
                                                 "students, with a requirements note.")
    parser.add_argument("--release", type=Path, default=ROOT / "assignments",
                        help="folder of released assignments (default: assignments/)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "student",
                        help="where the zips go (default: dist/student/)")
    args = parser.parse_args(argv)
    try:
        for path in build(args.release, args.out):
            print(f"wrote {path}")
    except BundleError as exc:
        print(f"student-bundle: refusing to build: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
