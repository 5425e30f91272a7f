"""A scratch copy of this checkout, for tests that change a checkout as a user would
(add an assignment, make a release) without touching this one.

The copy holds the checkout's files as they are in the working tree (tracked ones, and
new ones that are not ignored; not ``.git``) and a ``.venv`` that is this one's packages
under a setup stamp of its own: ``make`` in the copy finds the venv set up and never runs
``pip install -e .`` there, which would point this venv's editable install at the copy.
Run from the copy's top folder, ``python -m autograder`` imports the copy's engine.
"""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"


def checkout_files() -> list[str]:
    """The checkout's files a copy needs, relative to its top folder."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode("utf-8").split("\0")
    return sorted(name for name in set(listed) if name and (ROOT / name).is_file())


def copy_checkout(destination: Path) -> Path:
    """A copy of this checkout at ``destination`` (made), with the venv described above."""
    for name in checkout_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    venv = destination / ".venv"
    venv.mkdir()
    for entry in VENV.iterdir():
        if entry.name == "pyvenv.cfg":
            shutil.copy2(entry, venv / entry.name)
        elif entry.name != ".installed":
            os.symlink(entry.resolve(), venv / entry.name)
    (venv / ".installed").touch()  # newer than the copy's pyproject.toml: set up
    return destination


def run(command: str, checkout: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``command`` (a block of shell lines) run by bash in ``checkout``, stopping at the
    first line that fails."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=timeout)
