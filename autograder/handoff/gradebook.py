"""The hand-off itself: one grades.csv into one course's nbgrader gradebook.

See the package docstring for what it sets and why; nothing here runs student code.
"""

import csv
import glob
import re
import shutil
import warnings
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat
from jupyter_core.paths import jupyter_config_path
from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    OverwriteCells,
    OverwriteKernelspec,
)
from sqlalchemy.exc import SAWarning
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from ..collect import pick_file
from ..parts import PARTS, POINTS
from ..report.format import one_line, points
from ..report.schema import check_grades_file

TEST_CELL = re.compile(r"test_part(\d+)_")
SANITIZE = (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata)
DECIMALS = 4  # a cell's share of its part's score


class HandoffError(Exception):
    """The course or the grades cannot be handed off at all."""


@dataclass(frozen=True)
class Row:
    student_id: str
    parts: dict[int, float]
    status: str
    error: str


@dataclass
class Outcome:
    handed_off: dict[str, str] = field(default_factory=dict)  # student -> what was set
    skipped: dict[str, str] = field(default_factory=dict)  # student -> why not
    not_in_grades: list[str] = field(default_factory=list)  # submissions left alone


def read_grades(path: Path) -> list[Row]:
    """The rows of a ``grades.csv`` written by ``python -m autograder grade``."""
    check_grades_file(path)
    with open(path, newline="", encoding="utf-8") as fh:
        return [Row(r["student_id"], {p: float(r[f"part{p}"]) for p in PARTS},
                    r["status"], r["error"]) for r in csv.DictReader(fh)]


def load_config(course: Path) -> Config:
    """nbgrader's configuration as ``nbgrader`` would load it in ``course``."""
    config = Config()
    for folder in [*reversed(jupyter_config_path()), str(course)]:
        if (Path(folder) / "nbgrader_config.py").is_file():
            config.merge(PyFileConfigLoader("nbgrader_config.py", folder).load_config())
    config.CourseDirectory.root = str(course)
    return config


def cell_shares(score: float, cells: list[tuple[str, float]]) -> dict[str, float]:
    """``score`` split over ``(cell, max points)`` pairs in proportion to their points."""
    whole = sum(mx for _, mx in cells)
    shares = {name: round(score * mx / whole, DECIMALS) for name, mx in cells[:-1]}
    shares[cells[-1][0]] = round(score - sum(shares.values()), DECIMALS)
    return shares


def test_cells(gb: Gradebook, assignment: str) -> tuple[str, dict[int, list[tuple[str, float]]]]:
    """The assignment's notebook and its test cells by part; checks them against POINTS."""
    try:
        notebooks = gb.find_assignment(assignment).notebooks
    except MissingEntry:
        raise HandoffError(f"no assignment {assignment!r} in the gradebook: "
                           f"run `nbgrader generate_assignment {assignment}` first") from None
    if len(notebooks) != 1:
        raise HandoffError(f"{assignment!r} has {len(notebooks)} notebooks; expected one")
    by_part: dict[int, list[tuple[str, float]]] = {p: [] for p in PARTS}
    for cell in sorted(notebooks[0].grade_cells, key=lambda c: c.name):
        if cell.cell_type != "code":
            continue
        match = TEST_CELL.match(cell.name)
        if not match or int(match.group(1)) not in PARTS:
            raise HandoffError(f"code grade cell {cell.name!r} belongs to no part, so "
                               "our grader does not score it")
        by_part[int(match.group(1))].append((cell.name, float(cell.max_score)))
    for p, cells in by_part.items():
        if abs(sum(mx for _, mx in cells) - POINTS[p]) > 1e-9:
            raise HandoffError(f"part {p}: its test cells hold {sum(mx for _, mx in cells):g} "
                               f"points but autograder.parts.POINTS gives {POINTS[p]}")
    return notebooks[0].name, by_part


def _timestamp(path: Path) -> datetime | None:
    """The time in an nbgrader ``timestamp.txt``, if there is a readable one."""
    try:
        return utils.parse_utc(path.read_text().strip())
    except (OSError, ValueError, OverflowError):
        return None


def _note(cell: nbformat.NotebookNode, text: str) -> None:
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]


class Handoff:
    """One hand-off of grades.csv into one course's gradebook."""

    def __init__(self, course: Path, assignment: str) -> None:
        self.config = load_config(course)
        self.coursedir = CourseDirectory(config=self.config)
        self.assignment = assignment
        db = self.coursedir.db_url
        if db.startswith("sqlite:///") and not Path(db[len("sqlite:///"):]).is_file():
            raise HandoffError(f"no gradebook at {db[len('sqlite:///'):]}: run "
                               f"`nbgrader generate_assignment {assignment}` in {course} first")
        self.gb = Gradebook(db, self.coursedir.course_id)
        self.notebook, self.by_part = test_cells(self.gb, assignment)

    def folder(self, kind: str, student: str) -> Path:
        return Path(self.coursedir.format_path(kind, student, self.assignment))

    def sanitized(self, student: str, path: Path) -> nbformat.NotebookNode:
        """The submitted notebook after nbgrader's non-executing autograde steps."""
        nb = nbformat.read(path, as_version=4)
        resources = {"nbgrader": self.resources(student)}
        for preprocessor in SANITIZE:
            nb, resources = preprocessor(config=self.config).preprocess(nb, resources)
        return nb

    def resources(self, student: str) -> dict[str, str]:
        return {"notebook": self.notebook, "assignment": self.assignment, "student": student,
                "db_url": self.coursedir.db_url}

    def row(self, row: Row) -> str:
        """Hand off one student; returns what was set, or raises LookupError to skip."""
        student = row.student_id
        if student in ("", ".", "..") or student.startswith(".") or re.search(r"[/\\]", student):
            raise LookupError("not a usable student id")
        submitted = self.folder(self.coursedir.submitted_directory, student)
        if not submitted.is_dir():
            raise LookupError(f"unknown student: no {submitted.relative_to(self.coursedir.root)}/")
        chosen, _ = pick_file(submitted, self.assignment)
        nb, unreadable = None, ""
        if chosen is not None and chosen.suffix == ".ipynb":
            try:
                nb = self.sanitized(student, chosen)
            except Exception as exc:  # a broken notebook still gets our scores
                unreadable = f"{chosen.name} not shown in formgrader: {one_line(exc, 120)}"
        cells = {c.metadata.nbgrader["grade_id"]: c for c in nb.cells
                 if "grade_id" in c.metadata.get("nbgrader", {})} if nb else {}

        self.gb.update_or_create_student(student)
        timestamp = _timestamp(submitted / "timestamp.txt")
        with warnings.catch_warnings():  # nbgrader 0.9.6 on SQLAlchemy 2: harmless noise
            warnings.filterwarnings("ignore", "Object of type .* not in session", SAWarning)
            self.gb.update_or_create_submission(
                self.assignment, student, **({"timestamp": timestamp} if timestamp else {}))
        shares: dict[str, float | None] = {}
        for p, part_cells in self.by_part.items():
            if row.status == "graded":
                shares.update(cell_shares(row.parts[p], part_cells))
            else:  # nothing to grade is 0; a failed grading is for the TA to score
                shares.update((name, None if chosen else 0.0) for name, _ in part_cells)
        notes = self.set_grades(student, shares, cells, bool(unreadable))

        autograded = self.folder(self.coursedir.autograded_directory, student)
        autograded.mkdir(parents=True, exist_ok=True)
        target = autograded / f"{self.notebook}.ipynb"
        if nb is not None:
            self.annotate(row, shares, cells)
            nbformat.write(nb, target)
        else:
            target.unlink(missing_ok=True)
        timestamp_file = submitted / "timestamp.txt"
        if timestamp_file.is_file():
            shutil.copyfile(timestamp_file, autograded / "timestamp.txt")
        else:
            (autograded / "timestamp.txt").unlink(missing_ok=True)
        AssignLatePenalties(config=self.config).preprocess(
            nb or nbformat.v4.new_notebook(), {"nbgrader": self.resources(student)})

        if row.status == "graded":
            done = f"{points(sum(row.parts.values()))} / {sum(POINTS.values())} autograded"
        elif chosen is None:
            done = f"nothing gradable submitted ({one_line(row.error, 80)}): 0 autograded"
        else:
            done = f"not autograded ({one_line(row.error, 80)}): test cells need a manual grade"
        return "; ".join([done, *notes, *([unreadable] if unreadable else [])])

    def set_grades(self, student: str, shares: dict[str, float | None],
                   cells: dict[str, nbformat.NotebookNode], unreadable: bool) -> list[str]:
        notes = []
        submission = self.gb.find_submission_notebook(self.notebook, self.assignment, student)
        for grade in submission.grades:
            name = grade.cell.name
            if name in shares:
                new = shares[name]
                if grade.manual_score is None:
                    grade.needs_manual_grade = new is None
                elif grade.auto_score != new:
                    grade.needs_manual_grade = True  # the TA's override should be reviewed
                grade.auto_score = new
                continue
            if grade.manual_score is not None:
                notes.append(f"{name} graded by hand: {points(grade.manual_score)}")
                continue
            if name in cells:
                grade.auto_score, _ = utils.determine_grade(cells[name])
            else:  # no notebook, or the cell was deleted: no response, unless unreadable
                grade.auto_score = None if unreadable else 0.0
            grade.needs_manual_grade = grade.auto_score is None
            notes.append(f"{name} awaits manual grading" if grade.needs_manual_grade
                         else f"{name}: no response, 0")
        for comment in submission.comments:
            cell = cells.get(comment.cell.name)
            answered = unreadable or (cell is not None and cell.metadata.nbgrader.get(
                "checksum") != utils.compute_checksum(cell))
            comment.auto_comment = None if answered else "No response."
        self.gb.db.commit()
        return notes

    def annotate(self, row: Row, shares: dict[str, float | None],
                 cells: dict[str, nbformat.NotebookNode]) -> None:
        """Put a note on each test cell of the formgrader copy in place of an output."""
        for p, part_cells in self.by_part.items():
            for name, mx in part_cells:
                if name not in cells:
                    continue
                share = shares[name]
                if share is None:
                    _note(cells[name], "Not scored: the hidden autograder could not grade this "
                          f"submission ({one_line(row.error, 120)}). Grade this cell by hand.")
                else:
                    _note(cells[name], "Scored by the hidden autograder, not by running this "
                          f"cell: Part {p} ({PARTS[p]}) earned {points(row.parts[p])} / "
                          f"{POINTS[p]}; this cell's share is {share:g} / {mx:g}.")

    def unlisted(self, rows: list[Row]) -> list[str]:
        """Students with a submission (folder or gradebook) but no row in grades.csv."""
        step = self.coursedir.submitted_directory
        pattern = self.coursedir.format_path(step, "(?P<student>[^/]+)", re.escape(
            self.assignment), escape=True)
        found = {m["student"] for path in glob.glob(self.coursedir.format_path(
            step, "*", glob.escape(self.assignment))) if (m := re.fullmatch(pattern, path))}
        found |= {s.student.id for s in self.gb.assignment_submissions(self.assignment)}
        return sorted(found - {r.student_id for r in rows})


