"""Step 4 of grading: turn a batch of ``SubmissionResult``s into the reports.

In the output folder::

    grades.csv                   one row per student, for the LMS
    summary.md                   class summary for the course staff, with the plots
    score_histogram.png, part_means.png, test_pass_rates.png
    <student_id>/results.json    Gradescope's autograder results format
    <student_id>/feedback.html   the page to send the student

Each module writes one of them; ``schema`` checks them. A result whose numbers do
not add up is never reported as a score: it becomes a failure to grade that
names the problem, so a grader bug shows up in the summary instead of in the LMS.
Every result is made safe first (``safe``: no lone surrogates or control characters,
bounded warnings), and every student gets a row and a folder of their own: IDs that
coincide are made unique, and so are folder names that coincide once made safe.
A student who submitted nothing (``missing``) has a row in ``grades.csv`` and a line in
``summary.md``, but no folder: there is no feedback to send and nothing for Gradescope.
"""

import contextlib
import importlib
import threading
from dataclasses import dataclass
from pathlib import Path

from ..assignment import Assignment
from ..results import SubmissionResult, new_result
from ..safe import RENAMED, safe_result, unique_ids
from .feedback import write_feedback
from .grades_csv import write_grades_csv
from .gradescope import write_gradescope
from .schema import check_grades_file, check_gradescope_file, result_problems
from .stats import ClassStats
from .summary import console_summary, summary_markdown

# Names a student's folder never takes: the reports', and the regrade history's
# (``autograder.regrade``: DIR/history/, regrade.csv, regrade.md).
RESERVED = {"grades.csv", "summary.md", "score_histogram.png", "part_means.png",
            "test_pass_rates.png", ".cache", "history", "regrade.csv", "regrade.md"}


@dataclass
class Reports:
    """What ``write_reports`` wrote, and the class numbers it used."""

    out_dir: Path
    stats: ClassStats
    files: list[Path]


def checked(result: SubmissionResult, assignment: Assignment) -> SubmissionResult:
    """``result`` if it is consistent, else a failure to grade that says what is wrong."""
    problems = result_problems(result, assignment)
    if not problems:
        return result
    student = str(result.get("student_id", "?")) if isinstance(result, dict) else "?"
    source = str(result.get("source", "")) if isinstance(result, dict) else ""
    bad = new_result(assignment, student, source, status="error",
                     error=f"grader error: inconsistent result ({problems[0]})")
    if isinstance(result, dict) and isinstance(result.get("seconds"), (int, float)):
        bad["seconds"] = float(result["seconds"])
    return bad


def student_dir_name(student_id: str) -> str:
    """A folder name for ``student_id`` that stays inside the output folder."""
    name = "".join("_" if c in '/\\\0' or not c.isprintable() else c for c in student_id)
    if name.strip(".") == "" or name in RESERVED:
        name = "_" + name
    return name


def distinct_students(results: list[SubmissionResult]) -> list[SubmissionResult]:
    """``results`` with distinct student IDs; a renamed one says so in its warnings."""
    ids = [r["student_id"] for r in results]
    for result, new in zip(results, unique_ids(ids)):
        if new != result["student_id"]:
            note = f"{RENAMED}{result['student_id']} is reported as {new} (another has that ID)"
            result["student_id"], result["warnings"] = new, [note, *result["warnings"]]
    return results


def folder_names(results: list[SubmissionResult]) -> list[str]:
    """One report folder per result, distinct even where two IDs make the same name.

    Distinct ignoring case too: on a case-insensitive disk ``Bob/`` and ``bob/`` are one.
    """
    bases = [student_dir_name(r["student_id"]) for r in results]
    taken, seen = {b.casefold() for b in bases}, set()
    names = []
    for base in bases:
        name, count = base, 1
        while name.casefold() in seen or (name != base and name.casefold() in taken):
            count += 1
            name = f"{base}~{count}"
        seen.add(name.casefold())
        names.append(name)
    return names


def load_plots_meanwhile() -> None:
    """Start importing the plots (matplotlib: about a second of CPU) in a thread, for a
    caller that has other work first (a batch to grade): ``write_reports`` then finds them
    loaded. A failed import is left to ``write_reports``, which imports them again."""

    def load() -> None:
        with contextlib.suppress(Exception):
            importlib.import_module(f"{__name__}.plots")

    threading.Thread(target=load, name="load-plots", daemon=True).start()


def write_reports(
    results: list[SubmissionResult],
    out_dir: Path,
    assignment: Assignment,
    *,
    wall_seconds: float = 0.0,
    jobs: int = 1,
) -> Reports:
    """Write every report for ``results`` into ``out_dir`` and check them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = sorted((checked(safe_result(r), assignment) for r in results),
                     key=lambda r: r["student_id"])
    results = distinct_students(results)
    files = []
    for result, name in zip(results, folder_names(results)):
        if result["status"] == "missing":
            continue
        if name != student_dir_name(result["student_id"]):
            result["warnings"] = [f"{RENAMED}the reports of {result['student_id']} are in "
                                  f"{name}/ (another ID gives the same folder name)",
                                  *result["warnings"]]
        folder = out_dir / name
        folder.mkdir(exist_ok=True)
        files.append(write_gradescope(result, folder / "results.json", assignment))
        files.append(write_feedback(result, folder / "feedback.html", assignment))
        check_gradescope_file(files[-2])
    files.append(write_grades_csv(results, out_dir / "grades.csv", assignment))
    check_grades_file(files[-1], assignment)
    stats = ClassStats(results, assignment)
    from .plots import write_plots  # matplotlib takes a second to import: only here

    files += write_plots(stats, out_dir)
    summary = out_dir / "summary.md"
    summary.write_text(summary_markdown(stats, wall_seconds, jobs), encoding="utf-8")
    files.append(summary)
    return Reports(out_dir, stats, files)


__all__ = ["Reports", "console_summary", "load_plots_meanwhile", "write_reports"]
