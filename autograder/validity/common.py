"""What the validity tools share: which tests are timing tests, and which suite was measured."""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TIMING_ID = re.compile(r"linear|duplicat|timing|complexity|quadratic", re.IGNORECASE)
# The code a measurement depends on: the hidden suite, the oracle and the sandbox.
MEASURED = ("autograder/suite", "autograder/sandbox", "autograder/extract", "solutions")


def is_timing_test(test_id: str) -> bool:
    """True for the hidden suite's timing tests (ids like ``part2::…linear…``)."""
    return bool(TIMING_ID.search(test_id))


def suite_version() -> str:
    """The commit, plus a note if the suite, oracle or sandbox has uncommitted changes."""
    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=REPO, text=True, capture_output=True)

    try:
        head = git("rev-parse", "--short", "HEAD").stdout.strip() or "unknown"
        dirty = git("status", "--porcelain", "--", *MEASURED).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head} + uncommitted changes to the suite" if dirty else head
