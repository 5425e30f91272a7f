"""What graded a result: stamped on every result once, when its suite ran.

``stamp`` fills ``result["provenance"]`` (``results.Provenance``): the grader's git
commit (or its package version where there is no git checkout, e.g. on Gradescope),
the suite fingerprint (``cache.grader_fingerprint``: every file that decides the
assignment's scores), the time the suite ran (UTC) and the SHA-256 of the graded file.
The assignment and the sandbox level are fields of the result itself; ``results.json``
lists all six together (``report.gradescope``).

It is stamped before a result is cached, so a result taken from the cache keeps the
time it was really graded: two report folders whose result for a student has the same
``graded_at`` hold one and the same grading. The commit is informative only (it says
nothing of uncommitted edits); the fingerprint is what decides whether two gradings
used the same suite.
"""

import hashlib
import subprocess
from datetime import UTC, datetime
from functools import cache
from importlib import metadata
from pathlib import Path

from .assignment import REPO, Assignment
from .cache import grader_fingerprint
from .results import SubmissionResult


@cache
def grader_version() -> str:
    """``git <commit>`` of this checkout, else ``version <x>`` of the package, else unknown."""
    if (REPO / ".git").exists():
        try:
            done = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"],
                                  capture_output=True, text=True, timeout=30)
            if done.returncode == 0 and done.stdout.strip():
                return f"git {done.stdout.strip()}"
        except (OSError, subprocess.SubprocessError):
            pass
    for dist in metadata.packages_distributions().get(__package__ or "", []):
        return f"version {metadata.version(dist)}"  # the distribution that installed us
    return "unknown"


def utc_now() -> str:
    """The current time in UTC, to the second: ``2026-11-26T20:40:00Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def file_sha256(path: Path | None) -> str | None:
    """The SHA-256 of the file's bytes; None without a file or if it cannot be read."""
    if path is None:
        return None
    try:
        with Path(path).open("rb") as file:  # in chunks: a huge file costs no memory
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return None


def stamp(result: SubmissionResult, assignment: Assignment, path: Path | None) -> None:
    """Give ``result`` its provenance, keeping any it already has (a cached result's)."""
    given = result.get("provenance")
    if isinstance(given, dict) and given.get("graded_at"):
        return
    result["provenance"] = {
        "grader": grader_version(),
        "suite_fingerprint": grader_fingerprint(assignment),
        "graded_at": utc_now(),
        "submission_sha256": file_sha256(path),
    }
