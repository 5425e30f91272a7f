"""Find the submissions in a batch: which file to grade for which student.

PATH given to ``python -m autograder grade`` is one of:

- an nbgrader ``submitted/`` tree: ``submitted/<student_id>/<assignment>/<file>``;
  each student folder is one submission;
- a single notebook or ``.py`` file: one submission, student_id = the file's stem.

Loose ``.ipynb``/``.py`` files directly inside a tree (a folder of downloaded
notebooks) are graded too, each under its stem.

In a student's assignment folder the notebook wins: ``<assignment>.ipynb``, else
the only ``.ipynb``, else the first in name order (noted); then ``.py`` files by
the same rule. A student folder with nothing gradable is still a ``Submission``,
with ``error`` set, so the batch grades everyone else and reports it. A ``.py`` file
whose written reflection cannot be found gets a note (``handoff.reflection``) that the
reports pass on to the student and the TA.
"""

from dataclasses import dataclass, field
from pathlib import Path

from .handoff.reflection import missing_warning

NOTHING_FOUND = "no notebook or .py file found"
GRADABLE = (".ipynb", ".py")


class UsageError(Exception):
    """PATH cannot be graded at all (missing, or not a notebook/.py/folder)."""


@dataclass(frozen=True)
class Submission:
    """One student's file to grade, or the reason there is none."""

    student_id: str
    path: Path | None  # None when nothing gradable was found
    label: str  # path shown in reports, relative to the batch root
    error: str | None = None
    notes: list[str] = field(default_factory=list)  # e.g. "2 notebooks found, graded a.ipynb"


def _is_ignored(path: Path) -> bool:
    return path.name.startswith(".") or path.name == "__pycache__"


def pick_file(folder: Path, assignment: str) -> tuple[Path | None, list[str]]:
    """The file to grade in ``folder`` and notes on the choice; ``None`` if none fits."""
    if not folder.is_dir():
        return None, []
    files = sorted(p for p in folder.iterdir() if p.is_file() and not _is_ignored(p))
    for suffix in GRADABLE:
        candidates = [p for p in files if p.suffix == suffix]
        if not candidates:
            continue
        preferred = folder / f"{assignment}{suffix}"
        chosen = preferred if preferred in candidates else candidates[0]
        notes = []
        if len(candidates) > 1:
            others = ", ".join(p.name for p in candidates if p != chosen)
            notes.append(f"graded {chosen.name}; also found {others}")
        if suffix == ".py" and (missing := missing_warning(chosen)):
            notes.append(missing)
        return chosen, notes
    return None, []


def _student_submission(root: Path, student: Path, assignment: str) -> Submission:
    folder = student / assignment
    path, notes = pick_file(folder, assignment)
    if path is None:
        where = folder if folder.is_dir() else student
        return Submission(
            student.name,
            None,
            where.relative_to(root).as_posix() + "/",
            error=f"{NOTHING_FOUND} in {where.relative_to(root).as_posix()}/",
        )
    return Submission(student.name, path, path.relative_to(root).as_posix(), notes=notes)


def find_submissions(root: Path, assignment: str) -> list[Submission]:
    """Every submission under ``root``, sorted by student_id; raises ``UsageError``."""
    root = Path(root)
    if not root.exists():
        raise UsageError(f"{root}: no such file or folder")
    if root.is_file():
        if root.suffix not in GRADABLE:
            raise UsageError(f"{root}: expected a .ipynb notebook, a .py file or a folder")
        missing = missing_warning(root) if root.suffix == ".py" else None
        return [Submission(root.stem, root, root.name, notes=[missing] if missing else [])]
    if not root.is_dir():
        raise UsageError(f"{root}: not a file or folder")
    found: dict[str, Submission] = {}
    for entry in sorted(root.iterdir()):
        if _is_ignored(entry):
            continue
        if entry.is_dir():
            sub = _student_submission(root, entry, assignment)
        elif entry.is_file() and entry.suffix in GRADABLE:
            missing = missing_warning(entry) if entry.suffix == ".py" else None
            sub = Submission(entry.stem, entry, entry.name, notes=[missing] if missing else [])
        else:
            continue
        if sub.student_id in found:  # a folder "bob" and a file "bob.py"
            first = found[sub.student_id]
            sub = Submission(
                sub.student_id,
                None,
                sub.label,
                error=f"two submissions for one student: {first.label} and {sub.label}",
            )
        found[sub.student_id] = sub
    return [found[k] for k in sorted(found)]
