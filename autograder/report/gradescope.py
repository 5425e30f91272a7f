"""``<student_id>/results.json`` in Gradescope's autograder results format.

Follows https://gradescope-autograders.readthedocs.io/en/latest/specs/: a
top-level ``score``, ``execution_time`` and ``output``, and one entry in ``tests``
per hidden test with ``name``, ``number`` (part.test), ``score``, ``max_score``,
``status``, ``output``, ``tags`` and ``visibility``. Every string is declared
``text`` format, so nothing a student wrote is ever rendered as HTML or Markdown.
A submission that could not be graded gets one failed test per part that says why.

``extra_data.provenance`` says what graded the result: ``assignment``, ``isolation``,
``grader`` (git commit or version), ``suite_fingerprint``, ``graded_at`` (UTC) and
``submission_sha256`` (``autograder.provenance``); ``regrade diff`` reads it to say why a
grade changed. ``extra_data.regraded``, when present, lists the tests that changed since
the student's previous grade (``results.Regraded``).
"""

import json
from pathlib import Path

from ..assignment import Assignment
from ..results import SubmissionResult
from .schema import SchemaError, gradescope_problems

PROVENANCE = ("grader", "suite_fingerprint", "graded_at", "submission_sha256")


def overall_output(result: SubmissionResult) -> str:
    """The text shown above the tests: what was graded and anything that went wrong."""
    lines = [f"Graded file: {result['source']}"]
    if result["status"] != "graded":
        lines.append(f"This submission could not be graded: {result['error']}")
    if result["warnings"]:
        lines.append("Warnings while loading your code:")
        lines += [f"- {w}" for w in result["warnings"]]
    return "\n".join(lines)


def _tests(result: SubmissionResult, assignment: Assignment) -> list[dict]:
    if result["status"] != "graded":
        return [
            {
                "name": f"Part {p}: {title} (not graded)",
                "number": f"{p}",
                "score": 0.0,
                "max_score": float(assignment.points[p]),
                "status": "failed",
                "output": f"Not graded: {result['error']}",
                "output_format": "text",
                "tags": [f"part{p}"],
                "visibility": "visible",
            }
            for p, title in assignment.parts.items()
        ]
    tests, count = [], dict.fromkeys(assignment.parts, 0)
    for test in sorted(result["tests"], key=lambda t: int(t["part"])):  # stable within a part
        part = int(test["part"])
        count[part] += 1
        tests.append(
            {
                "name": f"Part {part}: {test['name']}",
                "number": f"{part}.{count[part]}",
                "score": float(test["score"]),
                "max_score": float(test["max_score"]),
                "status": test["status"],
                "output": test["output"],
                "output_format": "text",
                "tags": [f"part{part}"],
                "visibility": test["visibility"],
                "extra_data": {"id": test["id"]},
            }
        )
    return tests


def gradescope_results(result: SubmissionResult, assignment: Assignment) -> dict:
    """The ``results.json`` object of one result of ``assignment``."""
    data = {
        "score": round(float(result["score"]), 4),
        "execution_time": round(float(result["seconds"]), 2),
        "output": overall_output(result),
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "stdout_visibility": "hidden",
        "extra_data": {
            "assignment": assignment.name,
            "student_id": result["student_id"],
            "isolation": result.get("isolation", "unknown"),
            "status": result["status"],
            "error": result["error"],
            "parts": {
                k: {"score": float(v["score"]), "max_score": float(v["max_score"])}
                for k, v in result["parts"].items()
            },
        },
        "tests": _tests(result, assignment),
    }
    given = result.get("provenance") or {}
    data["extra_data"]["provenance"] = {
        "assignment": assignment.name, "isolation": result.get("isolation", "unknown"),
        **{key: given.get(key) for key in PROVENANCE},
    }
    if result.get("regraded"):
        data["extra_data"]["regraded"] = result["regraded"]
    return data


def write_gradescope(result: SubmissionResult, path: Path, assignment: Assignment) -> Path:
    """Write ``results.json`` after checking it against the schema."""
    data = gradescope_results(result, assignment)
    problems = gradescope_problems(data)
    if problems:
        raise SchemaError(f"results.json of {result['student_id']}", problems)
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return Path(path)
