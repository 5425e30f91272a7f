"""The hand-off itself: one grades.csv into one course's nbgrader gradebook.

See the package docstring for what it sets and why; nothing here runs student code.
``copies`` makes the formgrader notebooks, ``feedback_page`` the students' pages.
A little over 300 lines: the gradebook rules (scores, flags, comments) stay in one class.
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
from nbgrader.preprocessors import AssignLatePenalties
from sqlalchemy.exc import SAWarning
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from ..assignment import Assignment, load
from ..collect import nothing_submitted, pick_file
from ..report.format import one_line, points
from ..report.schema import check_grades_file
from .copies import Copy, formgrader_copy, note, reflection_text
from .feedback_page import failed_tests, load_result, write_page
from .reflection import GRADE_ID

TEST_CELL = re.compile(r"test_part(\d+)_")
SOLUTION_CELL = re.compile(r"part(\d+)_")


class HandoffError(Exception):
    """The course or the grades cannot be handed off at all."""


@dataclass(frozen=True)
class Row:
    student_id: str
    parts: dict[int, float]  # 0 for a row that was not graded (its cells are empty)
    status: str
    error: str


@dataclass
class Outcome:
    handed_off: dict[str, str] = field(default_factory=dict)  # student -> what was set
    skipped: dict[str, str] = field(default_factory=dict)  # student -> why not
    missing: dict[str, str] = field(default_factory=dict)  # nothing submitted -> what was done
    not_in_grades: list[str] = field(default_factory=list)  # submissions left alone


def read_grades(path: Path, assignment: Assignment) -> list[Row]:
    """The rows of ``assignment``'s ``grades.csv`` written by ``python -m autograder grade``."""
    check_grades_file(path, assignment)
    with open(path, newline="", encoding="utf-8") as fh:
        return [Row(r["student_id"], {p: float(r[f"part{p}"] or 0) for p in assignment.parts},
                    r["status"], r["error"]) for r in csv.DictReader(fh)]


def load_config(course: Path) -> Config:
    """nbgrader's configuration as ``nbgrader`` would load it in ``course``."""
    config = Config()
    for folder in [*reversed(jupyter_config_path()), str(course)]:
        if (Path(folder) / "nbgrader_config.py").is_file():
            config.merge(PyFileConfigLoader("nbgrader_config.py", folder).load_config())
    config.CourseDirectory.root = str(course)
    return config


def _timestamp(path: Path) -> datetime | None:
    """The time in an nbgrader ``timestamp.txt``, if there is a readable one."""
    try:
        return utils.parse_utc(path.read_text().strip())
    except (OSError, ValueError, OverflowError):
        return None


class Handoff:
    """One hand-off of grades.csv into one course's gradebook."""

    def __init__(self, course: Path, assignment: str, graded: Path) -> None:
        self.config = load_config(course)
        self.coursedir = CourseDirectory(config=self.config)
        self.assignment = assignment
        self.spec = load(assignment)  # its parts and points
        self.graded = graded  # the grader's --out folder: <student>/results.json
        db = self.coursedir.db_url
        if db.startswith("sqlite:///") and not Path(db[len("sqlite:///"):]).is_file():
            raise HandoffError(f"no gradebook at {db[len('sqlite:///'):]}: run "
                               f"`nbgrader generate_assignment {assignment}` in {course} first")
        self.gb = Gradebook(db, self.coursedir.course_id)
        self.notebook, self.by_part = self.test_cells()
        self.solution_cell = self.part_solution_cells()

    def release(self) -> Path:
        """The release notebook (a ``.py`` submission is shown in its cells)."""
        folder = self.coursedir.format_path(self.coursedir.release_directory, ".", self.assignment)
        return Path(folder) / f"{self.notebook}.ipynb"

    def test_cells(self) -> tuple[str, dict[int, list[str]]]:
        """The notebook and its test cells by part, each part's scored cell first.

        Checks the cells against the spec's points, then puts each part's points on its
        first test cell in the release notebook (name order without one) and 0 on the others.
        """
        try:
            notebooks = self.gb.find_assignment(self.assignment).notebooks
        except MissingEntry:
            raise HandoffError(f"no assignment {self.assignment!r} in the gradebook: run "
                               f"`nbgrader generate_assignment {self.assignment}` first") from None
        if len(notebooks) != 1:
            raise HandoffError(f"{self.assignment!r} has {len(notebooks)} notebooks; expected one")
        self.notebook = notebooks[0].name
        try:
            order = [c.metadata.get("nbgrader", {}).get("grade_id") for c in
                     nbformat.read(self.release(), as_version=4).cells]
        except (OSError, ValueError):
            order = []
        rank = {name: i for i, name in enumerate(order) if name}
        by_part: dict[int, list] = {p: [] for p in self.spec.parts}
        for cell in notebooks[0].grade_cells:
            if cell.cell_type != "code":
                continue
            match = TEST_CELL.match(cell.name)
            if not match or int(match.group(1)) not in self.spec.parts:
                raise HandoffError(f"code grade cell {cell.name!r} belongs to no part, so "
                                   "our grader does not score it")
            by_part[int(match.group(1))].append(cell)
        for p, cells in by_part.items():
            if abs(sum(c.max_score for c in cells) - self.spec.points[p]) > 1e-9:
                raise HandoffError(f"part {p}: its test cells hold "
                                   f"{sum(c.max_score for c in cells):g} points but "
                                   f"the assignment's spec.py gives {self.spec.points[p]}")
            cells.sort(key=lambda c: (rank.get(c.name, len(rank)), c.name))
            for i, cell in enumerate(cells):
                self.set_points(cell.name, float(self.spec.points[p]) if i == 0 else 0.0)
        self.gb.db.commit()
        return self.notebook, {p: [c.name for c in cells] for p, cells in by_part.items()}

    def set_points(self, name: str, top: float) -> None:
        """Make test cell ``name`` worth ``top``, with the checksum nbgrader then expects."""
        grade_cell = self.gb.find_grade_cell(name, self.notebook, self.assignment)
        source = self.gb.find_source_cell(name, self.notebook, self.assignment)
        if grade_cell.max_score == top:
            return
        cell = nbformat.v4.new_code_cell(source.source)
        cell.metadata.nbgrader = {"grade": True, "solution": False, "locked": source.locked,
                                  "grade_id": name, "points": top}
        grade_cell.max_score, source.checksum = top, utils.compute_checksum(cell)

    def part_solution_cells(self) -> dict[str, int]:
        """Each part's first solution cell (by name), which carries its hidden-test comment."""
        firsts: dict[int, str] = {}
        for cell in sorted(self.gb.find_notebook(self.notebook, self.assignment).solution_cells,
                           key=lambda c: c.name):
            match = SOLUTION_CELL.match(cell.name)
            if match and int(match.group(1)) in self.spec.parts:
                firsts.setdefault(int(match.group(1)), cell.name)
        return {name: p for p, name in firsts.items()}

    def folder(self, kind: str, student: str) -> Path:
        return Path(self.coursedir.format_path(kind, student, self.assignment))

    def resources(self, student: str) -> dict[str, str]:
        return {"notebook": self.notebook, "assignment": self.assignment, "student": student,
                "db_url": self.coursedir.db_url}

    def missing(self, row: Row) -> str:
        """A student who submitted nothing: nothing is written (no submission, no page),
        unless files have appeared since grading (LookupError: grade again)."""
        submitted = self.folder(self.coursedir.submitted_directory, row.student_id)
        if not nothing_submitted(submitted):
            where = submitted.relative_to(self.coursedir.root)
            raise LookupError(f"grades.csv says missing, but {where}/ holds files now: "
                              "grade again")
        try:
            self.gb.find_submission(self.assignment, row.student_id)
        except MissingEntry:
            return "nothing submitted: no submission in the gradebook"
        return "nothing submitted now; the gradebook's earlier submission is left as it is"

    def row(self, row: Row) -> str:
        """Hand off one student; returns what was set, or raises LookupError to skip."""
        student = row.student_id
        if student in ("", ".", "..") or student.startswith(".") or re.search(r"[/\\]", student):
            raise LookupError("not a usable student id")
        submitted = self.folder(self.coursedir.submitted_directory, student)
        if not submitted.is_dir():
            raise LookupError(f"unknown student: no {submitted.relative_to(self.coursedir.root)}/")
        chosen, _ = pick_file(submitted, self.assignment)
        copy = formgrader_copy(chosen, self.config, self.resources(student), self.release())
        autograded = self.folder(self.coursedir.autograded_directory, student)
        target = autograded / f"{self.notebook}.ipynb"
        before = reflection_text(target)
        cells = copy.cells()
        changed = (before is not None and GRADE_ID in cells
                   and before.strip() != cells[GRADE_ID].source.strip())
        result = load_result(self.graded, student)

        self.gb.update_or_create_student(student)
        timestamp = _timestamp(submitted / "timestamp.txt")
        with warnings.catch_warnings():  # nbgrader 0.9.6 on SQLAlchemy 2: harmless noise
            warnings.filterwarnings("ignore", "Object of type .* not in session", SAWarning)
            self.gb.update_or_create_submission(
                self.assignment, student, **({"timestamp": timestamp} if timestamp else {}))
        scores: dict[str, float | None] = {}
        for p, names in self.by_part.items():
            first = (row.parts[p] if row.status == "graded" else None if chosen else 0.0)
            scores.update({names[0]: first, **dict.fromkeys(names[1:], 0.0)})
        notes = self.set_grades(student, scores, copy, changed, result)

        autograded.mkdir(parents=True, exist_ok=True)
        if copy.nb is not None:
            self.annotate(row, cells, result)
            nbformat.write(copy.nb, target)
        else:
            target.unlink(missing_ok=True)
        for name in ("timestamp.txt",):
            if (submitted / name).is_file():
                shutil.copyfile(submitted / name, autograded / name)
            else:
                (autograded / name).unlink(missing_ok=True)
        AssignLatePenalties(config=self.config).preprocess(
            copy.nb or nbformat.v4.new_notebook(), {"nbgrader": self.resources(student)})
        if result is not None:
            sub = self.gb.find_submission_notebook(self.notebook, self.assignment, student)
            write_page(self.folder(self.coursedir.feedback_directory, student), self.notebook,
                       result, sub, submitted, self.spec)

        if row.status == "graded":
            done = f"{points(sum(row.parts.values()))} / {self.spec.total} autograded"
        elif chosen is None:
            done = f"nothing gradable submitted ({one_line(row.error, 80)}): 0 autograded"
        else:
            done = f"not autograded ({one_line(row.error, 80)}): test cells need a manual grade"
        return "; ".join([done, *notes, *([copy.problem] if copy.problem else [])])

    def set_grades(self, student: str, scores: dict[str, float | None], copy: Copy,
                   changed: bool, result: dict | None) -> list[str]:
        notes = []
        cells = copy.cells()
        unreadable = bool(copy.problem)
        submission = self.gb.find_submission_notebook(self.notebook, self.assignment, student)
        for grade in submission.grades:
            name = grade.cell.name
            if name in scores:
                new = scores[name]
                if grade.manual_score is None:
                    grade.needs_manual_grade = new is None
                elif grade.auto_score != new:
                    grade.needs_manual_grade = True  # the TA's override should be reviewed
                grade.auto_score = new
                continue
            if grade.manual_score is not None:
                if name == GRADE_ID and changed:
                    grade.needs_manual_grade = True
                    notes.append(f"{name} CHANGED since it was graded by hand "
                                 f"({points(grade.manual_score)}): flagged for review")
                else:
                    notes.append(f"{name} graded by hand: {points(grade.manual_score)}")
                continue
            if name == GRADE_ID and copy.reflection_missing:
                grade.auto_score, grade.needs_manual_grade = None, True
                notes.append(f"{name} NOT FOUND in the .py file ({copy.reflection_missing}): "
                             "read the file and grade it by hand")
                continue
            if name in cells:
                grade.auto_score, _ = utils.determine_grade(cells[name])
            else:  # no notebook, or the cell was deleted: no response, unless unreadable
                grade.auto_score = None if unreadable else 0.0
            grade.needs_manual_grade = grade.auto_score is None
            notes.append(f"{name} awaits manual grading" if grade.needs_manual_grade
                         else f"{name}: no response, 0")
        failed = failed_tests(result)
        for comment in submission.comments:
            cell = cells.get(comment.cell.name)
            answered = unreadable or (cell is not None and cell.metadata.nbgrader.get(
                "checksum") != utils.compute_checksum(cell))
            text = [] if answered else ["No response."]
            part = self.solution_cell.get(comment.cell.name)
            if part is not None and failed.get(part):
                text.append(f"Hidden tests failed in Part {part}:\n" + "\n".join(failed[part]))
            comment.auto_comment = "\n".join(text) or None
        self.gb.db.commit()
        return notes

    def annotate(self, row: Row, cells: dict[str, nbformat.NotebookNode],
                 result: dict | None) -> None:
        """Put a note on each test cell of the formgrader copy in place of an output."""
        failed = failed_tests(result)
        for p, names in self.by_part.items():
            for name in names:
                if name not in cells:
                    continue
                if name != names[0]:
                    note(cells[name], f"Part {p} is scored on {names[0]} (this cell: 0 of 0).")
                elif row.status != "graded":
                    note(cells[name], "Not scored: the hidden autograder could not grade this "
                         f"submission ({one_line(row.error, 120)}). Grade Part {p} by hand "
                         f"here (out of {self.spec.points[p]}).")
                else:
                    lines = [f"Scored by the hidden autograder, not by running this cell: "
                             f"Part {p} ({self.spec.parts[p]}) earned {points(row.parts[p])} / "
                             f"{self.spec.points[p]}, all on this cell."]
                    if failed.get(p):
                        lines += ["Hidden tests failed:", *failed[p]]
                    note(cells[name], "\n".join(lines))

    def unlisted(self, rows: list[Row]) -> list[str]:
        """Students with a submission (folder or gradebook) but no row in grades.csv."""
        step = self.coursedir.submitted_directory
        pattern = self.coursedir.format_path(step, "(?P<student>[^/]+)", re.escape(
            self.assignment), escape=True)
        found = {m["student"] for path in glob.glob(self.coursedir.format_path(
            step, "*", glob.escape(self.assignment))) if (m := re.fullmatch(pattern, path))}
        found |= {s.student.id for s in self.gb.assignment_submissions(self.assignment)}
        return sorted(found - {r.student_id for r in rows})
