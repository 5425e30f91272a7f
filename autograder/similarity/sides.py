"""Read and fingerprint every submission and known source, in parallel.

A student's submission is the file the grader would grade (``collect.find_submissions``).
A known source (``--against FOLDER``) is each entry of FOLDER: a ``.ipynb`` or ``.py``
file, or a folder whose ``.ipynb`` and ``.py`` files together are one source (a
downloaded repository, one student of last year's ``submitted/``). The released stub's
fingerprints are boilerplate, removed from everyone's (``fingerprint.py``).

A submission that cannot be read, or keeps no code, is not compared; it is listed with
the reason, never a crash. Work is spread over ``jobs`` forked processes; each file is
still read by ``extract_limited``, under its limits.
"""

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from ..assignment import Assignment
from ..collect import find_submissions
from ..extract import SubmissionError
from .documents import read_document
from .fingerprint import fingerprint
from .score import Side

CODE_FILES = (".ipynb", ".py")
SOURCE_PREFIX = "source:"
_SHARED: dict = {}  # the assignment and the boilerplate, for the forked workers


def _read(label: str, paths: list[Path], source: bool) -> Side | str:
    """The fingerprinted side, or why it is not compared."""
    assignment, boilerplate = _SHARED["assignment"], _SHARED["boilerplate"]
    try:
        doc = read_document(label, paths, assignment)
    except SubmissionError as exc:
        return f"{label}: not compared, unreadable ({exc})"
    if not doc.parts:
        return f"{label}: not compared, no code kept"
    fps = {part: fingerprint(text, boilerplate) for part, text in doc.parts.items()}
    return Side.of(doc, fps, source)


def source_entries(folder: Path) -> list[tuple[str, list[Path]]]:
    """``(label, files)`` of each known source in ``folder`` (module docstring)."""
    if folder.is_file():
        return [(SOURCE_PREFIX + folder.stem, [folder])]
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.is_symlink() or entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix in CODE_FILES:
            found.append((SOURCE_PREFIX + entry.stem, [entry]))
        elif entry.is_dir():
            files = sorted(p for p in entry.rglob("*") if p.suffix in CODE_FILES
                           and p.is_file() and ".ipynb_checkpoints" not in p.parts)
            if files:
                found.append((SOURCE_PREFIX + entry.name, files))
    return found


def read_sides(path: Path, assignment: Assignment, against: list[Path], stub: Path | None,
               jobs: int) -> tuple[list[Side], list[Side], list[str]]:
    """``(students, sources, problems)``: every side fingerprinted, and what was not."""
    problems: list[str] = []
    _SHARED["assignment"] = assignment
    _SHARED["boilerplate"] = np.array([], dtype=np.int64)
    if stub is not None:
        try:
            parts = read_document("stub", [stub], assignment).parts.values()
        except SubmissionError as exc:
            raise SubmissionError(f"the released stub {stub}: {exc}") from None
        hashes = set().union(*(fingerprint(text).hashes for text in parts))
        _SHARED["boilerplate"] = np.array(sorted(hashes), dtype=np.int64)
    tasks = []
    for sub in find_submissions(path, assignment.name):
        if sub.path is None:
            problems.append(f"{sub.student_id}: not compared ({sub.error or 'no file'})")
        else:
            tasks.append((sub.student_id, [sub.path], False))
    labels = [label for label, _, _ in tasks]
    for folder in against:
        for label, files in source_entries(folder):
            while label in labels:
                label += "~2"
            labels.append(label)
            tasks.append((label, files, True))
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max(1, jobs), mp_context=context) as pool:
        done = list(pool.map(_read, *zip(*tasks), chunksize=4)) if tasks else []
    students, sources = [], []
    for side in done:
        if isinstance(side, str):
            problems.append(side)
            continue
        problems += [f"{side.label}: {note}" for note in side.notes]
        (sources if side.source else students).append(side)
    return students, sources, problems
