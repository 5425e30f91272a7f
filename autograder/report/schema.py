"""Schema checks for what the reports consume and write.

Each ``*_problems`` function returns a list of human-readable problems (empty when
the data is valid); each ``check_*`` raises ``SchemaError`` listing them. The
report writers check every file they write, and the repository's tests check
that broken files are rejected.

- ``result_problems``: a ``SubmissionResult`` is complete and its numbers add up.
- ``gradescope_problems``: a ``results.json`` follows Gradescope's autograder
  results format (https://gradescope-autograders.readthedocs.io/en/latest/specs/),
  plus our own rules: every test has ``name``, ``score``, ``max_score``,
  ``status``, ``output`` and ``visibility``, and the scores add up.
- ``grades_csv_problems``: ``grades.csv`` has the LMS columns, one row per
  student sorted by student_id, numbers in range that add up.
"""

import csv
import io
import json
import math
from pathlib import Path

from ..assignment import Assignment
from ..results import VISIBILITIES

TOLERANCE = 0.011  # scores are written with 2 decimals

FORMATS = ("text", "simple_format", "html", "md", "ansi")
STATUSES = ("passed", "failed")
# A submission's status: graded, could not be graded, or nothing submitted (``results``).
STATUSES_OF_A_ROW = ("graded", "error", "missing")

# Gradescope's keys; anything else is a typo Gradescope would silently ignore.
GS_TOP_KEYS = {
    "score", "execution_time", "output", "output_format", "test_output_format",
    "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
    "leaderboard",
}
GS_TEST_KEYS = {
    "score", "max_score", "status", "name", "name_format", "number", "output",
    "output_format", "tags", "visibility", "extra_data",
}
GS_TEST_REQUIRED = ("name", "score", "max_score", "status", "output", "visibility")

RESULT_KEYS = {
    "assignment", "student_id", "source", "status", "error", "warnings", "tests", "parts", "score",
    "max_score", "seconds",
}
TEST_KEYS = {"id", "name", "part", "score", "max_score", "status", "output", "visibility"}


class SchemaError(ValueError):
    """A report file (or a result) does not follow its schema."""

    def __init__(self, what: str, problems: list[str]) -> None:
        shown = "\n  ".join(problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{what} is not valid:\n  {shown}{more}")
        self.problems = problems


def grades_columns(assignment: Assignment) -> tuple[str, ...]:
    """The header of ``grades.csv``: a column per part of ``assignment``."""
    return ("student_id", *(f"part{p}" for p in assignment.parts), "total", "max_total",
            "status", "error")


def _is_number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _close(a: float, b: float, tolerance: float = TOLERANCE) -> bool:
    return abs(a - b) <= tolerance


# --- SubmissionResult ----------------------------------------------------------------


def result_problems(result: object, assignment: Assignment) -> list[str]:
    """Problems with one ``SubmissionResult`` of ``assignment`` (types, ranges, sums)."""
    if not isinstance(result, dict):
        return ["a result must be an object"]
    problems = []
    missing = RESULT_KEYS - result.keys()
    if missing:
        return [f"missing keys: {', '.join(sorted(missing))}"]
    if result["assignment"] != assignment.name:
        problems.append(f"graded for {result['assignment']!r}, reported as {assignment.name!r}")
    if result["status"] not in STATUSES_OF_A_ROW:
        problems.append(f"status {result['status']!r} is not one of {', '.join(STATUSES_OF_A_ROW)}")
    if result["status"] != "graded" and not result["error"]:
        problems.append(f"status is {result['status']!r} but no error says why")
    if result["status"] == "graded" and result["error"]:
        problems.append("status is 'graded' but error is set")
    parts = result["parts"]
    points = assignment.points
    if not isinstance(parts, dict) or set(parts) != {str(p) for p in points}:
        return [*problems, f"parts must have the keys {sorted(str(p) for p in points)}"]
    for key, part in parts.items():
        score, top = part.get("score"), part.get("max_score")
        if not (_is_number(score) and _is_number(top)):
            problems.append(f"part {key}: score and max_score must be numbers")
        elif not (-TOLERANCE <= score <= top + TOLERANCE):
            problems.append(f"part {key}: score {score} outside [0, {top}]")
        elif not _close(top, points[int(key)]):
            problems.append(f"part {key}: max_score {top} but the part is worth {points[int(key)]}")
    if not all(_is_number(result[k]) for k in ("score", "max_score", "seconds")):
        return [*problems, "score, max_score and seconds must be numbers"]
    if problems:
        return problems
    if not _close(result["score"], sum(p["score"] for p in parts.values())):
        problems.append(f"score {result['score']} is not the sum of the part scores")
    if not _close(result["max_score"], assignment.total):
        problems.append(f"max_score {result['max_score']} is not {assignment.total}")
    if not isinstance(result["tests"], list) or not isinstance(result["warnings"], list):
        return [*problems, "tests and warnings must be lists"]
    by_part: dict[str, float] = {}
    for i, test in enumerate(result["tests"]):
        if not isinstance(test, dict) or TEST_KEYS - test.keys():
            problems.append(f"test {i}: must have the keys {sorted(TEST_KEYS)}")
            continue
        if str(test["part"]) not in parts:
            problems.append(f"test {test['id']}: unknown part {test['part']!r}")
            continue
        if not (_is_number(test["score"]) and _is_number(test["max_score"])):
            problems.append(f"test {test['id']}: score and max_score must be numbers")
            continue
        if test["status"] not in STATUSES or test["visibility"] not in VISIBILITIES:
            problems.append(f"test {test['id']}: bad status or visibility")
        by_part[str(test["part"])] = by_part.get(str(test["part"]), 0.0) + test["score"]
    if result["status"] == "graded":
        for key, part in parts.items():
            if not _close(part["score"], by_part.get(key, 0.0), 0.05):
                problems.append(
                    f"part {key}: score {part['score']} is not the sum of its tests "
                    f"({by_part.get(key, 0.0):g})"
                )
    return problems


# --- results.json (Gradescope) -------------------------------------------------------


def gradescope_problems(data: object) -> list[str]:
    """Problems with a parsed ``results.json``."""
    if not isinstance(data, dict):
        return ["results.json must be a JSON object"]
    problems = [f"unknown top-level key {k!r}" for k in sorted(data.keys() - GS_TOP_KEYS)]
    if "score" not in data and "tests" not in data:
        problems.append("needs a top-level score or tests")
    if "score" in data and not _is_number(data["score"]):
        problems.append("score must be a number")
    if "execution_time" in data and not _is_number(data["execution_time"]):
        problems.append("execution_time must be a number (seconds)")
    for key in ("output",):
        if key in data and not isinstance(data[key], str):
            problems.append(f"{key} must be a string")
    for key in ("output_format", "test_output_format", "test_name_format"):
        if key in data and data[key] not in FORMATS:
            problems.append(f"{key} must be one of {', '.join(FORMATS)}")
    for key in ("visibility", "stdout_visibility"):
        if key in data and data[key] not in VISIBILITIES:
            problems.append(f"{key} must be one of {', '.join(VISIBILITIES)}")
    if "extra_data" in data and not isinstance(data["extra_data"], dict):
        problems.append("extra_data must be an object")
    tests = data.get("tests", [])
    if not isinstance(tests, list):
        return [*problems, "tests must be a list"]
    total = 0.0
    for i, test in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(test, dict):
            problems.append(f"{where} must be an object")
            continue
        problems += [f"{where}: unknown key {k!r}" for k in sorted(test.keys() - GS_TEST_KEYS)]
        problems += [f"{where}: missing {k!r}" for k in GS_TEST_REQUIRED if k not in test]
        for key in ("score", "max_score"):
            if key in test and not _is_number(test[key]):
                problems.append(f"{where}: {key} must be a number")
        if _is_number(test.get("score")) and _is_number(test.get("max_score")):
            if not -TOLERANCE <= test["score"] <= test["max_score"] + TOLERANCE:
                problems.append(f"{where}: score outside [0, max_score]")
            total += test["score"]
        if "status" in test and test["status"] not in STATUSES:
            problems.append(f"{where}: status must be 'passed' or 'failed'")
        for key in ("name", "output", "number"):
            if key in test and not isinstance(test[key], str):
                problems.append(f"{where}: {key} must be a string")
        for key in ("name_format", "output_format"):
            if key in test and test[key] not in FORMATS:
                problems.append(f"{where}: {key} must be one of {', '.join(FORMATS)}")
        if "visibility" in test and test["visibility"] not in VISIBILITIES:
            problems.append(f"{where}: visibility must be one of {', '.join(VISIBILITIES)}")
        tags = test.get("tags", [])
        if not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
            problems.append(f"{where}: tags must be a list of strings")
        if "extra_data" in test and not isinstance(test["extra_data"], dict):
            problems.append(f"{where}: extra_data must be an object")
    if _is_number(data.get("score")) and tests and not _close(data["score"], total, 0.05):
        problems.append(f"score {data['score']} is not the sum of the test scores ({total:g})")
    return problems


def check_gradescope_file(path: Path) -> dict:
    """Parse and check a ``results.json``; returns the data."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaError(str(path), [f"not readable JSON: {exc}"]) from exc
    problems = gradescope_problems(data)
    if problems:
        raise SchemaError(str(path), problems)
    return data


# --- grades.csv ----------------------------------------------------------------------


def grades_csv_problems(text: str, assignment: Assignment) -> list[str]:
    """Problems with the text of ``assignment``'s ``grades.csv``."""
    columns, points = grades_columns(assignment), assignment.points
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or tuple(rows[0]) != columns:
        return [f"the header must be {','.join(columns)}"]
    problems = []
    ids = []
    for line, row in enumerate(rows[1:], start=2):
        where = f"line {line}"
        if len(row) != len(columns):
            problems.append(f"{where}: {len(row)} columns, expected {len(columns)}")
            continue
        record = dict(zip(columns, row))
        if not record["student_id"]:
            problems.append(f"{where}: empty student_id")
        ids.append(record["student_id"])
        numbers = {}
        for column in columns[1:-2]:
            if record["status"] != "graded" and column != "max_total":
                if record[column]:  # not graded: no score, not a 0
                    problems.append(f"{where}: {column} must be empty when status is "
                                    f"{record['status']!r}")
                numbers[column] = 0.0
                continue
            try:
                numbers[column] = float(record[column])
            except ValueError:
                problems.append(f"{where}: {column} {record[column]!r} is not a number")
                continue
            if not math.isfinite(numbers[column]):
                problems.append(f"{where}: {column} is not finite")
        if len(numbers) != len(columns) - 3:
            continue
        for p, worth in points.items():
            value = numbers[f"part{p}"]
            if not -TOLERANCE <= value <= worth + TOLERANCE:
                problems.append(f"{where}: part{p} {value:g} outside [0, {worth}]")
        if not _close(numbers["total"], sum(numbers[f"part{p}"] for p in points), 0.05):
            problems.append(f"{where}: total is not the sum of the parts")
        if not _close(numbers["max_total"], assignment.total):
            problems.append(f"{where}: max_total must be {assignment.total}")
        if record["status"] not in STATUSES_OF_A_ROW:
            problems.append(f"{where}: status must be one of {', '.join(STATUSES_OF_A_ROW)}")
        elif (record["status"] != "graded") != bool(record["error"]):
            problems.append(f"{where}: error must be set exactly when status is not 'graded'")
    if len(set(ids)) != len(ids):
        problems.append("a student_id appears twice")
    if ids != sorted(ids):
        problems.append("rows are not sorted by student_id")
    return problems


def check_grades_file(path: Path, assignment: Assignment) -> None:
    """Raise ``SchemaError`` unless ``path`` is a valid ``grades.csv``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(str(path), [f"not readable: {exc}"]) from exc
    problems = grades_csv_problems(text, assignment)
    if problems:
        raise SchemaError(str(path), problems)
