"""What the validity tools share: which tests are timing tests, and which suite was measured."""

import hashlib
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TIMING_ID = re.compile(r"linear|duplicat|timing|complexity|quadratic", re.IGNORECASE)
# The code a measurement depends on: the hidden suite, the oracle, the sandbox, extraction.
MEASURED = ("autograder/suite", "autograder/sandbox", "autograder/extract", "solutions")


def is_timing_test(test_id: str) -> bool:
    """True for the hidden suite's timing tests (ids like ``part2::…linear…``)."""
    return bool(TIMING_ID.search(test_id))


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO, text=True, capture_output=True).stdout
    except OSError:
        return ""


def suite_version() -> str:
    """``HEAD`` and a fingerprint of the measured code (committed trees + uncommitted diff).

    Two reports with the same fingerprint measured the same suite, whatever else was
    committed in between.
    """
    trees = _git("rev-parse", *(f"HEAD:{p}" for p in MEASURED))
    diff = _git("diff", "HEAD", "--", *MEASURED) + _git(
        "ls-files", "--others", "--exclude-standard", "--", *MEASURED)
    fingerprint = hashlib.sha1((trees + diff).encode()).hexdigest()[:10]
    head = _git("rev-parse", "--short", "HEAD").strip() or "unknown"
    dirty = " + uncommitted changes" if diff.strip() else ""
    return f"{head}{dirty}, suite fingerprint {fingerprint}"


def same_suite(before: str, after: str) -> bool:
    """True when two ``suite_version`` strings have the same fingerprint."""
    return before.rsplit(" ", 1)[-1] == after.rsplit(" ", 1)[-1]
