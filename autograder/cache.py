"""Results cached by what determines them, so an interrupted batch resumes where it stopped.

A result is stored under the SHA-256 of the submission's bytes and suffix together with a
fingerprint of what decides it: the engine (extraction, sandbox, suite, the course's
hidden suites), the assignment's reference (``Assignment.decisive_paths``), the
assignment's name and the grading options. Change any of them and every
submission is graded again; change nothing and a rerun only grades what is new.

Only ``graded`` results are kept. A timeout or a crash may be the machine's
fault (a loaded batch, an out-of-memory kill), so it is retried on the next run.
A cached result is never poison: it is made safe (``autograder.safe``) when stored and
again when read, so a file written by an older grader cannot break the reports.
"""

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path

from .assignment import REPO, Assignment
from .results import SubmissionResult
from .safe import safe_result


@cache
def grader_fingerprint(assignment: Assignment) -> str:
    """A digest of every file that decides ``assignment``'s scores, data included."""
    digest = hashlib.sha256(assignment.name.encode() + b"\0")
    for path in assignment.decisive_files():
        digest.update(str(path.relative_to(REPO if path.is_relative_to(REPO) else path.anchor))
                      .encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class ResultCache:
    """Graded results in ``folder``, one JSON file per (submission, grader, options)."""

    def __init__(self, folder: Path, assignment: Assignment, options: str,
                 read: bool = True) -> None:
        self.folder = Path(folder)
        self.assignment, self.options = assignment, options
        self.read = read  # False: regrade everything (--force) but still store the results

    def key(self, path: Path) -> str:
        """The entry of ``path``: its bytes and its suffix (a ``.py`` and an ``.ipynb`` of
        the same bytes are read differently), the grader and the options."""
        path = Path(path)
        with path.open("rb") as file:
            digest = hashlib.file_digest(file, "sha256")
        digest.update(f"\0{path.suffix}\0{grader_fingerprint(self.assignment)}\0"
                      f"{self.options}".encode())
        return digest.hexdigest()

    def get(self, path: Path) -> SubmissionResult | None:
        """The stored result for this exact file, or None."""
        if not self.read:
            return None
        try:
            data = json.loads((self.folder / f"{self.key(path)}.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("status") != "graded":
            return None
        return safe_result(data)

    def put(self, path: Path, result: SubmissionResult) -> None:
        """Store ``result`` if it is worth keeping (graded); written atomically.

        Each writer has a temporary file of its own: two jobs that graded the same bytes
        store the same key at once, and with one shared name the second found its file
        moved away by the first (an ``OSError`` that once cost a student the grade)."""
        if result["status"] != "graded":
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / f"{self.key(path)}.json"
        handle, partial = tempfile.mkstemp(dir=self.folder, prefix=target.stem, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(json.dumps(safe_result(result)))
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
