"""Read a report folder that ``grade`` wrote: one ``Student`` per student, by ID.

Totals and part scores come from ``grades.csv`` (what goes to the LMS); tests and
provenance from ``<student>/results.json``. Where the two disagree (``grades.csv`` edited
by hand, a row deleted) ``grades.csv`` wins and ``Report.notes`` says so. A folder without
``grades.csv``, with a ``grades.csv`` that lacks the grader's columns or whose scores are
not numbers, or whose results name no assignment or several, is ``NotAReport``.

An ID that a spreadsheet would run as a formula is written with a leading ``'``
(``report.grades_csv``); the row is matched to its ``results.json`` by the ID as written.
Any status is read as written (``graded``, ``error``, ``missing``, ...): an empty total
means no score.
"""

import csv
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..report.grades_csv import FORMULA_STARTS
from ..results import SubmissionResult

NEEDED = ("student_id", "total", "max_total", "status", "error")


class NotAReport(ValueError):
    """A folder (or a pair of folders) the diff cannot compare; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """One test of one student."""

    id: str
    name: str
    part: str
    status: str
    score: float
    max_score: float
    output: str
    visibility: str = "visible"


@dataclass
class Student:
    """One student's grade in one report folder."""

    student_id: str
    status: str
    total: float | None  # None: no score (not graded, missing)
    parts: dict[str, float | None] = field(default_factory=dict)
    error: str = ""
    tests: dict[str, Outcome] = field(default_factory=dict)
    provenance: dict = field(default_factory=dict)
    folder: str = ""  # the student's report folder, "" if there is none


@dataclass
class Report:
    """A report folder: its assignment, its students by ID, and what did not add up."""

    folder: Path
    assignment: str
    students: dict[str, Student]
    notes: list[str] = field(default_factory=list)


def csv_id(cell: str) -> str:
    """The ID a ``grades.csv`` cell holds (without the ``'`` that disarms a formula)."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in FORMULA_STARTS else cell


def _number(text: str, where: str) -> float | None:
    if text.strip() == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise NotAReport(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise NotAReport(f"{where}: {text!r} is not a finite number")
    return value


def read_grades(path: Path) -> dict[str, Student]:
    """The students of a ``grades.csv``, by ID; ``NotAReport`` if it is not the grader's."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NotAReport(f"{path.parent}: no grades.csv, so not a report folder that "
                         "`grade` wrote") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise NotAReport(f"{path}: cannot be read ({exc})") from None
    rows = list(csv.reader(text.splitlines()))
    header = rows[0] if rows else []
    lacking = [c for c in NEEDED if c not in header]
    if lacking:
        raise NotAReport(f"{path}: not the grader's grades.csv (no column "
                         f"{', '.join(lacking)})")
    parts = [c for c in header if re.fullmatch(r"part\d+", c)]
    students: dict[str, Student] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise NotAReport(f"{path} line {line}: {len(row)} cells, the header has "
                             f"{len(header)}")
        cells = dict(zip(header, row))
        sid = csv_id(cells["student_id"])
        if sid in students:
            raise NotAReport(f"{path} line {line}: student {sid!r} has a row already")
        where = f"{path} line {line}"
        students[sid] = Student(
            sid, cells["status"], _number(cells["total"], f"{where}, total"),
            {c.removeprefix("part"): _number(cells[c], f"{where}, {c}") for c in parts},
            cells["error"])
    return students


def _outcomes(data: dict) -> dict[str, Outcome]:
    tests = {}
    for test in data.get("tests") or []:
        extra = test.get("extra_data") or {}
        tid = str(extra.get("id") or test.get("name", "?"))
        tests[tid] = Outcome(tid, str(test.get("name", tid)),
                             str(test.get("number", "?")).split(".")[0],
                             str(test.get("status", "?")), float(test.get("score", 0.0)),
                             float(test.get("max_score", 0.0)), str(test.get("output", "")),
                             str(test.get("visibility", "visible")))
    return tests


def read_results(folder: Path, notes: list[str]) -> dict[str, tuple[str, dict]]:
    """Every ``<student>/results.json`` of ``folder`` by student ID: (folder name, data)."""
    found: dict[str, tuple[str, dict]] = {}
    for path in sorted(folder.glob("*/results.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            extra = data["extra_data"]
            sid = str(extra["student_id"])
        except (OSError, ValueError, KeyError, TypeError):
            notes.append(f"{path.parent.name}/results.json cannot be read: its tests are "
                         "not compared")
            continue
        found[sid] = (path.parent.name, data)
    return found


def _assignment(folder: Path, results: dict[str, tuple[str, dict]]) -> str:
    names = {str(d["extra_data"].get("assignment")) for _, d in results.values()}
    if len(names) > 1:
        raise NotAReport(f"{folder}: its results name several assignments "
                         f"({', '.join(sorted(names))})")
    if names:
        return names.pop()
    try:  # nobody has a results.json: summary.md's title names the assignment
        first = (folder / "summary.md").read_text(encoding="utf-8").splitlines()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        first = ""
    match = re.search(r"\(`([^`]+)`\)", first)
    if not match:
        raise NotAReport(f"{folder}: neither a results.json nor summary.md says which "
                         "assignment it grades")
    return match.group(1)


def read_report(folder: Path) -> Report:
    """The report folder ``folder``; ``NotAReport`` when it is not one (module doc)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NotAReport(f"{folder}: no such folder")
    students = read_grades(folder / "grades.csv")
    notes: list[str] = []
    results = read_results(folder, notes)
    report = Report(folder, _assignment(folder, results), students, notes)
    for sid, (name, data) in results.items():
        extra = data["extra_data"]
        student = students.get(sid)
        if student is None:
            notes.append(f"{sid} has a results.json ({name}/) but no row in grades.csv "
                         "(edited by hand?): its score is read from results.json")
            graded = extra.get("status") == "graded"
            student = students[sid] = Student(
                sid, str(extra.get("status", "?")), float(data["score"]) if graded else None,
                {k: float(v["score"]) if graded else None
                 for k, v in (extra.get("parts") or {}).items()}, str(extra.get("error") or ""))
        elif student.total is not None and extra.get("status") == "graded" and \
                abs(student.total - float(data.get("score", 0.0))) > 0.011:
            notes.append(f"{sid}: grades.csv says {student.total:g} but results.json says "
                         f"{float(data['score']):g} (grades.csv edited by hand?); the diff "
                         "uses grades.csv")
        student.folder = name
        student.provenance = extra.get("provenance") or {}
        if extra.get("status") == "graded":
            student.tests = _outcomes(data)
    return report


def student_of(result: SubmissionResult) -> Student:
    """A result in memory as the diff sees it (test names as results.json writes them)."""
    graded = result["status"] == "graded"
    tests = {t["id"]: Outcome(t["id"], f"Part {t['part']}: {t['name']}", str(t["part"]),
                              t["status"], float(t["score"]), float(t["max_score"]),
                              t["output"], t["visibility"])
             for t in result["tests"]} if graded else {}
    return Student(result["student_id"], result["status"],
                   float(result["score"]) if graded else None,
                   {k: float(v["score"]) if graded else None for k, v in result["parts"].items()},
                   result["error"] or "", tests, dict(result.get("provenance") or {}))
