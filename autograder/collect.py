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
with ``error`` set, so the batch grades everyone else and reports it. A student who did
not submit this assignment is ``missing``, not a failure to grade: their folder has no
``<assignment>/`` folder, or one holding nothing but hidden entries and tool folders (an
empty folder, e.g. one a script made for every student). Anything else in it, even a lone
``notes.txt`` or nbgrader's ``timestamp.txt`` of an empty ``nbgrader submit``, is a
submission that could not be graded: the student handed something in. A ``.py`` file
whose written reflection cannot be found gets a note (``handoff.reflection``) that the
reports pass on to the student and the TA.

Every folder in the tree gets a row, hidden ones (``.alice``) included; only the
folders tools leave behind (``TOOL_FOLDERS``) are skipped. A submission is the
student's own regular files: a symbolic link is never followed (it could point at
the reference solution or at another student's work). A link in place of a student
folder or of the assignment folder is that student's error row; a link among the
files is skipped and noted. Student IDs are made safe for the reports
(``safe.safe_text``: a folder name that is not UTF-8 shows its bytes as
``\xff``) and then distinct (``bob~2``), with a note that says so.
"""

import stat
from dataclasses import dataclass, field
from pathlib import Path

from .assignment import Assignment, infer, known, load
from .extract import SubmissionError, extract_limited
from .handoff.reflection import missing_warning
from .safe import RENAMED, safe_text, unique_ids

NOTHING_FOUND = "no notebook or .py file found"
MISSING = "nothing submitted"
GRADABLE = (".ipynb", ".py")
# Folders that Jupyter, Python and git create next to notebooks: never a student.
TOOL_FOLDERS = {".ipynb_checkpoints", "__pycache__", ".git"}
# Loose files read to tell their assignment by the names they define, at most.
MAX_PROBED = 5
LINK_IGNORED = "a symbolic link, not followed: a submission is the student's own files"


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
    missing: bool = False  # nothing submitted for this assignment (module docstring)


def _is_ignored(path: Path) -> bool:
    return path.name.startswith(".") or path.name == "__pycache__"


def _missing_reflection(path: Path, assignment: str) -> str | None:
    """The note for a ``.py`` file of an assignment with a written reflection that the file
    does not hold (``handoff.reflection``); None otherwise."""
    if path.suffix != ".py" or assignment not in known() or not load(assignment).reflection:
        return None
    return missing_warning(path)


def entry_kind(path: Path) -> str:
    """``"file"``, ``"dir"``, ``"link"`` or ``"other"``, never following a link."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return "other"
    if stat.S_ISLNK(mode):
        return "link"
    return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else "other"


def pick_file(folder: Path, assignment: str) -> tuple[Path | None, list[str]]:
    """The file to grade in ``folder`` and notes on the choice; ``None`` if none fits.

    Only regular files count; a link to a gradable file is noted as ignored.
    """
    if entry_kind(folder) != "dir":
        return None, []
    entries = sorted(p for p in folder.iterdir() if not _is_ignored(p))
    files = [p for p in entries if entry_kind(p) == "file"]
    links = [p for p in entries if entry_kind(p) == "link" and p.suffix in GRADABLE]
    notes = [f"ignored {p.name}: {LINK_IGNORED}" for p in links]
    for suffix in GRADABLE:
        candidates = [p for p in files if p.suffix == suffix]
        if not candidates:
            continue
        preferred = folder / f"{assignment}{suffix}"
        chosen = preferred if preferred in candidates else candidates[0]
        if len(candidates) > 1:
            others = ", ".join(p.name for p in candidates if p != chosen)
            notes.append(f"graded {chosen.name}; also found {others}")
        if suffix == ".py" and (missing := _missing_reflection(chosen, assignment)):
            notes.append(missing)
        return chosen, notes
    return None, notes


def nothing_submitted(folder: Path) -> bool:
    """True when ``folder`` does not exist, or is a folder of hidden entries only."""
    kind = entry_kind(folder)
    if kind == "other":  # not there at all
        return not folder.exists() and not folder.is_symlink()
    return kind == "dir" and all(_is_ignored(p) for p in folder.iterdir())


def _student_submission(root: Path, student: Path, assignment: str) -> Submission:
    folder = student / assignment
    if nothing_submitted(folder):
        label = folder.relative_to(root).as_posix() + "/"
        why = "is empty" if folder.is_dir() else "does not exist"
        return Submission(student.name, None, label, missing=True,
                          error=f"{MISSING}: {label} {why}")
    if entry_kind(folder) == "link":
        label = folder.relative_to(root).as_posix()
        return Submission(student.name, None, label, error=f"{label} is {LINK_IGNORED}")
    path, notes = pick_file(folder, assignment)
    if path is None:
        where = folder if entry_kind(folder) == "dir" else student
        label = where.relative_to(root).as_posix()
        found = f"{NOTHING_FOUND} in {label}/"
        if notes:  # links were there
            found += f" ({'; '.join(notes)})"
        return Submission(student.name, None, label + "/", error=found)
    return Submission(student.name, path, path.relative_to(root).as_posix(), notes=notes)


def check_root(root: Path) -> None:
    """Raise ``UsageError`` unless ``root`` can be graded: a notebook, a .py file or a folder."""
    if not root.exists():
        raise UsageError(f"{root}: no such file or folder")
    if root.is_file() and root.suffix not in GRADABLE:
        raise UsageError(f"{root}: expected a .ipynb notebook, a .py file or a folder")
    if not root.is_file() and not root.is_dir():
        raise UsageError(f"{root}: not a file or folder")


def find_submissions(root: Path, assignment: str) -> list[Submission]:
    """Every submission under ``root``, sorted by student_id; raises ``UsageError``."""
    root = Path(root)
    check_root(root)
    if root.is_file():
        missing = _missing_reflection(root, assignment)
        return _distinct([Submission(root.stem, root, root.name,
                                     notes=[missing] if missing else [])])
    found: dict[str, Submission] = {}
    for entry in sorted(root.iterdir()):
        kind = entry_kind(entry)
        if entry.name in TOOL_FOLDERS:
            continue
        if kind == "link" and (entry.is_dir() or entry.suffix in GRADABLE):
            name = entry.name if entry.is_dir() else entry.stem
            sub = Submission(name, None, entry.name, error=f"{entry.name} is {LINK_IGNORED}")
        elif kind == "dir":
            sub = _student_submission(root, entry, assignment)
        elif kind == "file" and entry.suffix in GRADABLE and not _is_ignored(entry):
            missing = _missing_reflection(entry, assignment)
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
    return _distinct(list(found.values()))


def detect_assignments(root: Path) -> list[Assignment]:
    """The assignments found under ``root`` when ``--assignment`` is not given.

    In a ``submitted/`` tree, every known assignment that some student has a folder
    for (a real folder: a file or link of that name tells nothing); else the one
    ``root``'s own name tells (``<name>.ipynb``, a folder named after it); else the one
    the graded names of its first gradable files belong to
    (read by the limited extraction, nothing of it runs), if they all agree. Empty when
    nothing tells, or when those files disagree (the CLI then asks for ``--assignment``).
    """
    root = Path(root)
    if root.is_dir():
        names = set(known())
        found = {child.name for student in sorted(root.iterdir())
                 if entry_kind(student) == "dir" and not student.name.startswith(".")
                 for child in student.iterdir()
                 if child.name in names and entry_kind(child) == "dir"}
        if found:
            return [load(name) for name in sorted(found)]
    by_place = infer(root)
    if by_place is not None:
        return [by_place]
    files = [root] if root.is_file() else sorted(
        p for p in root.iterdir() if entry_kind(p) == "file" and p.suffix in GRADABLE)
    told = set()
    for path in files[:MAX_PROBED]:
        try:
            by_names = infer(path, extract_limited(path).defined())
        except SubmissionError:
            continue  # a broken file tells nothing; the next one may
        if by_names is not None:
            told.add(by_names)
    # Files that disagree tell nothing: one student must not choose everyone's assignment.
    return list(told) if len(told) == 1 else []


def _distinct(subs: list[Submission]) -> list[Submission]:
    """Submissions with safe, distinct IDs, sorted; a changed ID is noted."""
    safe = [safe_text(s.student_id, one_line=True) or "_" for s in subs]
    out = []
    for sub, clean, final in zip(subs, safe, unique_ids(safe)):
        notes = list(sub.notes)
        if final != sub.student_id:
            why = "two folders give the same ID" if final != clean else "not printable as is"
            shown = safe_text(repr(sub.student_id), one_line=True)
            notes.insert(0, f"{RENAMED}{sub.label}: the folder name {shown} is reported as "
                            f"{final} ({why})")
        out.append(Submission(final, sub.path, sub.label, sub.error, notes, sub.missing))
    return sorted(out, key=lambda s: s.student_id)
