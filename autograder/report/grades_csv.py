"""``grades.csv``: one row per student for the LMS, sorted by student_id.

Columns: ``student_id, part1..part6, total, max_total, status, error``. Scores
are plain numbers (2 decimals at most); ``status`` is ``graded``, ``error`` (could not be
graded) or ``missing`` (nothing submitted for this assignment), and ``error`` says why there
is no score. Such a row leaves the part cells and the total empty: it has no score, and
an LMS import must not take it for a zero (whether a missing assignment counts 0 is the
course's rule, not the grader's).

Free text (the student ID, the error) that a spreadsheet would read as a formula, a
cell starting with ``= + - @``, a tab or a carriage return, gets a leading ``'``
(OWASP's advice for CSV injection); rows are sorted by the ID as written.
"""

import csv
import io
from pathlib import Path

from ..assignment import Assignment
from ..results import SubmissionResult
from .format import one_line, points
from .schema import SchemaError, grades_columns, grades_csv_problems

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def grade_row(result: SubmissionResult, assignment: Assignment) -> list[str]:
    """The CSV row of one result; the total is the sum of the rounded parts."""
    parts = [round(float(result["parts"][str(p)]["score"]), 2) for p in assignment.parts]
    graded = result["status"] == "graded"
    return [
        _cell(result["student_id"]),
        *(points(s) if graded else "" for s in parts),
        points(sum(parts)) if graded else "",
        points(result["max_score"]),
        result["status"],
        "" if graded else _cell(one_line(result["error"] or "", 300)),
    ]


def _cell(text: str) -> str:
    """Free text that a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in FORMULA_STARTS else text


def grades_csv(results: list[SubmissionResult], assignment: Assignment) -> str:
    """The text of ``assignment``'s ``grades.csv``."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(grades_columns(assignment))
    for row in sorted(grade_row(result, assignment) for result in results):
        writer.writerow(row)
    return buffer.getvalue()


def write_grades_csv(results: list[SubmissionResult], path: Path,
                     assignment: Assignment) -> Path:
    """Write ``grades.csv`` after checking it against the schema."""
    text = grades_csv(results, assignment)
    problems = grades_csv_problems(text, assignment)
    if problems:
        raise SchemaError("grades.csv", problems)
    Path(path).write_text(text, encoding="utf-8")
    return Path(path)
