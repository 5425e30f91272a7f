"""Keep every previous grading: ``grade --out DIR`` never overwrites reports without a copy.

Just before ``grade`` writes its reports, ``keep_previous`` moves the reports already in
DIR (grades.csv, summary.md, the plots, regrade files and every student folder that holds
a results.json or a feedback page) into ``DIR/history/<UTC time>-<suite fingerprint>/``:
the time those reports were written (grades.csv's modification time) and the first 10
digits of the suite fingerprint that graded most of them. Other files in DIR, the cache
and the history stay where they are. Grading itself comes first, so an interrupted batch
leaves the previous reports in place.

``mark_regraded`` then gives each result its ``regraded`` note (``results.Regraded``) for
the feedback page: the previous grade is the newest one in the history that is a
different grading of that student (another time, file or suite: ``same_grading``; a
result taken from the cache is the same grading, so a rerun does not hide why a grade
changed last time).
"""

import json
import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from ..report.format import points
from ..results import SubmissionResult
from .compare import SHORT, TestChange, compare_students
from .folder import NotAReport, Outcome, Report, Student, read_report, student_of

HISTORY = "history"
REPORT_FILES = {"grades.csv", "summary.md", "score_histogram.png", "part_means.png",
                "test_pass_rates.png"}


def report_entries(out: Path) -> list[Path]:
    """The reports in ``out`` that the next ``write_reports`` would replace."""
    return [path for path in sorted(Path(out).iterdir()) if _is_report(path)]


def _is_report(path: Path) -> bool:
    if path.is_symlink():
        return False
    if path.is_file():
        regrade = path.name.startswith("regrade") and path.suffix in (".csv", ".md")
        return path.name in REPORT_FILES or regrade
    return path.is_dir() and path.name not in (HISTORY, ".cache") and (
        (path / "results.json").exists() or (path / "feedback.html").exists())


def _fingerprint(out: Path) -> str:
    found = Counter()
    for path in Path(out).glob("*/results.json"):
        try:
            given = json.loads(path.read_text(encoding="utf-8"))["extra_data"]["provenance"]
            found[str(given["suite_fingerprint"])[:SHORT]] += 1
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found.most_common(1)[0][0] if found else "unknown"


def keep_previous(out: Path) -> Path | None:
    """Move the reports in ``out`` to a new history folder; returns it, None if none."""
    entries = report_entries(out)
    if not entries:
        return None
    grades = Path(out) / "grades.csv"
    when = datetime.fromtimestamp(grades.stat().st_mtime if grades.exists() else
                                  datetime.now(UTC).timestamp(), UTC)
    base = f"{when.strftime('%Y%m%dT%H%M%SZ')}-{_fingerprint(out)}"
    target, count = Path(out) / HISTORY / base, 1
    while target.exists():
        count += 1
        target = Path(out) / HISTORY / f"{base}~{count}"
    target.mkdir(parents=True)
    for entry in entries:
        os.replace(entry, target / entry.name)
    return target


def _line(test: TestChange) -> str:
    shown = test.new or test.old
    assert shown is not None
    name = f"a hidden test of Part {shown.part}" if shown.visibility == "hidden" else shown.name

    def side(outcome: Outcome | None) -> str:
        return ("not graded then" if outcome is None else
                f"{outcome.status} {points(outcome.score)} / {points(outcome.max_score)}")

    return f"{name}: {side(test.old)} → {side(test.new)}"


def regraded_lines(old: Student, new: Student) -> list[str]:
    """One line per test that changed from ``old`` to ``new`` (or the status, if it did)."""
    if old.status != new.status:
        return [f"the whole submission: {old.status} → {new.status}"]
    return [_line(test) for test in compare_students(old, new).tests]


def same_grading(old: dict, new: dict, written: str) -> bool:
    """Whether ``new`` is the grading ``old`` already showed, not a regrade.

    One file and one suite, and a grading no later than the previous report (``written``,
    its newest grading time): such a result came from the cache. The time alone cannot
    tell, because every file with the same bytes shares one cached result and its time,
    whoever it was first graded for. A grading is stamped to the second, after its
    scoring run, and a run of the grader takes longer than that before its first one.
    """
    same = all(old.get(key) == new.get(key) for key in ("submission_sha256", "suite_fingerprint"))
    return same and new.get("graded_at", "") <= written


def mark_regraded(results: list[SubmissionResult], out: Path) -> None:
    """Set ``regraded`` on each result that has a previous grade in ``out``'s history."""
    folders = sorted((p for p in (Path(out) / HISTORY).glob("*") if p.is_dir()), reverse=True)
    reports: dict[Path, Report | None] = {}
    written: dict[Path, str] = {}
    for result in results:
        new = student_of(result)
        at = new.provenance.get("graded_at", "")
        for folder in folders:
            if folder not in reports:
                try:
                    reports[folder] = read_report(folder)
                except NotAReport:
                    reports[folder] = None
                students = reports[folder].students.values() if reports[folder] else ()
                written[folder] = max((s.provenance.get("graded_at", "") for s in students),
                                      default="")
            report = reports[folder]
            old = report.students.get(new.student_id) if report else None
            if old is None or (at and same_grading(old.provenance, new.provenance,
                                                   written[folder])):
                continue
            result["regraded"] = {"at": at, "previous_at": old.provenance.get("graded_at", ""),
                                  "tests": regraded_lines(old, new)}
            break
