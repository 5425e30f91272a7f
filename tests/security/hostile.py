"""Helpers for red-team tests: build a submission from source, grade the reference with an
override, and find stray processes."""

import textwrap
import uuid
from pathlib import Path

from autograder.assignment import Assignment
from autograder.extract import StudentCode, extract
from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source


def submission(tmp_path: Path, source: str) -> StudentCode:
    """Write ``source`` as a student's .py file and extract it."""
    path = tmp_path / f"student_{uuid.uuid4().hex[:8]}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return extract(path)


def graded_part(tmp_path: Path, assignment: Assignment, override: str,
                part: int) -> dict[str, dict]:
    """Grade the reference with ``override`` appended (a later cell's redefinitions);
    the results of ``part``'s tests by test name."""
    path = tmp_path / "student.py"
    path.write_text(reference_source(assignment) + "\n" + override, encoding="utf-8")
    result = grade_file(path, "red-team", assignment=assignment, timeout=300)
    assert result["status"] == "graded", result["error"]
    return {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == part}


def processes_with(token: str) -> list[int]:
    """PIDs whose command line contains ``token`` (any user, any namespace)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline:
            found.append(int(entry.name))
    return found


# A quadratic method of ``CharTokenizer`` for the timing red team (a copy of the rest of
# the text at every character: 16x the batch's work on the long text), a few tenths of a
# second, so that the long run is not stopped by the wall-clock limit.
QUADRATIC_WORK = '''
    def _slow_ids(self, text, out):
        rest = text
        for ch in text:
            out.append(self.char_to_id.get(ch, self.unk_id))
            rest = rest[1:]
'''
