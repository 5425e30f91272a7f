"""Say what a ``Diff`` found: the summary lines, ``regrade.csv`` and ``regrade.md``.

``regrade.csv`` has one row per student of either folder:
``student_id,old_total,new_total,delta,parts_changed,tests_changed``. ``parts_changed``
reads ``3:+2;5:-1``, ``tests_changed`` lists test IDs (``part3::test_x``), ``;``-separated.
An empty total is a side without a score (not graded, missing, or not in that folder);
delta is 0 for a student whose result did not change, empty when one side has no score.
IDs that a spreadsheet would run as a formula get a leading ``'`` as in grades.csv.

``regrade.md`` tells the same to a person: the summary, then per changed student why,
and each changed test with its old and new result and message. Student text goes
through ``report.format.md``. An existing ``regrade.csv``/``regrade.md`` that would
change is kept as ``regrade.<UTC time>.csv``/``.md`` first: nothing is overwritten
without a copy.
"""

import csv
import io
import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from ..report.format import md, one_line, points
from ..report.grades_csv import FORMULA_STARTS
from .compare import Diff, StudentChange, TestChange
from .folder import Outcome

COLUMNS = ("student_id", "old_total", "new_total", "delta", "parts_changed", "tests_changed")
LARGEST = 5  # changes listed in the terminal summary
TESTS = 10  # tests listed there
MESSAGE = 300  # characters of a test's message in regrade.md


def _signed(value: float) -> str:
    return f"{'+' if value > 0 else ''}{points(value)}"


def _total(value: float | None) -> str:
    return "" if value is None else points(value)


def _cell(text: str) -> str:
    return "'" + text if text[:1] in FORMULA_STARTS else text


def csv_row(change: StudentChange) -> list[str]:
    """The ``regrade.csv`` row of one student."""
    delta = change.delta
    return [
        _cell(change.student_id),
        _total(change.old.total if change.old else None),
        _total(change.new.total if change.new else None),
        "" if delta is None else points(delta),
        ";".join(f"{p}:{_signed(d)}" for p, d in change.parts.items()),
        ";".join(t.id for t in change.tests),
    ]


def regrade_csv(result: Diff) -> str:
    """The text of ``regrade.csv``."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(csv_row(change) for change in result.students)
    return buffer.getvalue()


def _movement(change: StudentChange) -> str:
    """``7 → 10 (+3)``; "no score" for a side without one."""
    old = _total(change.old.total if change.old else None) or "no score"
    new = _total(change.new.total if change.new else None) or "no score"
    delta = change.delta
    return f"{old} → {new}" + (f" ({_signed(delta)})" if delta else "")


def _ranked(result: Diff) -> list[StudentChange]:
    """Changed students whose total moved, largest first (a score on one side only first)."""
    moved = [c for c in result.changed if c.delta != 0]
    return sorted(moved, key=lambda c: (c.delta is not None, -abs(c.delta or 0), c.student_id))


def _tests_ranked(result: Diff) -> list[tuple[str, tuple[int, int, int]]]:
    return sorted(result.flips().items(), key=lambda item: (-item[1][2], item[0]))


def _counts(result: Diff) -> str:
    both, changed = result.both, result.changed
    deltas = [c.delta for c in changed if c.delta]
    up, down = sum(d > 0 for d in deltas), sum(d < 0 for d in deltas)
    return (f"{len(both)} students compared: {len(changed)} changed ({up} up, {down} down, "
            f"{len(changed) - up - down} with the same total), "
            f"{len(both) - len(changed)} unchanged.")


def summary_lines(result: Diff) -> list[str]:
    """What the diff found, for the terminal (``regrade.md`` says all of it)."""
    lines = [f"Regrade of {result.new.assignment}: {result.old.folder} → {result.new.folder}",
             _counts(result)]
    reasons = Counter(c.reason for c in result.changed)
    lines += [f"  why: {why}: {n} student{'s' * (n != 1)}" for why, n in reasons.most_common()]
    ranked = _ranked(result)
    if ranked:
        lines.append("Largest changes:")
        lines += [f"  {one_line(c.student_id, 40)}: {_movement(c)}" for c in ranked[:LARGEST]]
    tests = _tests_ranked(result)
    if tests:
        lines.append("Tests that changed for changed students:")
        lines += [f"  {tid}: {a} pass → fail, {b} fail → pass, {n - a - b} score only"
                  for tid, (a, b, n) in tests[:TESTS]]
        if len(tests) > TESTS:
            lines.append(f"  ... and {len(tests) - TESTS} more tests (regrade.md lists them)")
    for side, folder in (("new", result.old.folder), ("old", result.new.folder)):
        only = result.only_in(side)
        if only:
            lines.append(f"Only in {folder} ({len(only)}): "
                         f"{', '.join(one_line(s, 40) for s in only)}")
    for report in (result.old, result.new):
        lines += [f"note ({report.folder}): {one_line(n, 300)}" for n in report.notes]
    return lines


def _overview_md(result: Diff) -> list[str]:
    lines = [f"- Old: {md(str(result.old.folder), 300)}",
             f"- New: {md(str(result.new.folder), 300)}", f"- {_counts(result)}"]
    reasons = Counter(c.reason for c in result.changed)
    lines += [f"- Why: {md(why)}: {n} student{'s' * (n != 1)}"
              for why, n in reasons.most_common()]
    for side, folder in (("new", result.old.folder), ("old", result.new.folder)):
        only = result.only_in(side)
        if only:
            lines.append(f"- Only in {md(str(folder), 300)}: {', '.join(md(s) for s in only)}")
    for report in (result.old, result.new):
        lines += [f"- Note ({md(str(report.folder), 300)}): {md(n, 300)}" for n in report.notes]
    ranked = _ranked(result)
    if ranked:
        lines += ["", "## Largest changes", "", "| student | old | new | change |",
                  "|---|---:|---:|---:|"]
        lines += [f"| {md(c.student_id)} | {_total(c.old.total if c.old else None)} | "
                  f"{_total(c.new.total if c.new else None)} | "
                  f"{'' if c.delta is None else _signed(c.delta)} |" for c in ranked]
    tests = _tests_ranked(result)
    if tests:
        lines += ["", "## Tests that changed", "",
                  "| test | pass → fail | fail → pass | score only |", "|---|---:|---:|---:|"]
        lines += [f"| {md(tid)} | {a} | {b} | {n - a - b} |" for tid, (a, b, n) in tests]
    return lines


def _outcome(outcome: Outcome | None) -> str:
    if outcome is None:
        return "not in this grading"
    return f"{outcome.status} {points(outcome.score)} / {points(outcome.max_score)}"


def _test_md(test: TestChange) -> list[str]:
    lines = [f"- {md(test.name)} ({md(test.id)}): {_outcome(test.old)} → {_outcome(test.new)}"]
    for side, outcome in (("old", test.old), ("new", test.new)):
        if outcome is not None:
            lines.append(f"  - {side}: {md(outcome.output, MESSAGE) or '(no message)'}")
    return lines


def regrade_markdown(result: Diff) -> str:
    """The text of ``regrade.md``."""
    lines = [f"# Regrade: {md(result.new.assignment)}", "", *_overview_md(result)]
    if result.changed:
        lines += ["", "## Changed students"]
    for change in result.changed:
        lines += ["", f"### {md(change.student_id)}: {_movement(change)}", "",
                  f"Why: {change.reason}."]
        if change.old and change.new and change.old.status != change.new.status:
            lines.append(f"Status: {md(change.old.status)} → {md(change.new.status)}"
                         f"{': ' + md(change.new.error) if change.new.error else ''}.")
        if change.parts:
            lines.append("Parts: " + ", ".join(f"part {p} {_signed(d)}"
                                               for p, d in change.parts.items()) + ".")
        if change.tests:
            lines.append("")
            for test in change.tests:
                lines += _test_md(test)
    return "\n".join(lines) + "\n"


def _keep_copy(path: Path, text: str) -> None:
    """Move ``path`` aside (``name.<UTC time>.ext``) if it holds something else than ``text``."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except FileNotFoundError:
        return
    except (OSError, UnicodeDecodeError):
        pass
    stamp = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y%m%dT%H%M%SZ")
    target, count = path.with_name(f"{path.stem}.{stamp}{path.suffix}"), 1
    while target.exists():
        count += 1
        target = path.with_name(f"{path.stem}.{stamp}~{count}{path.suffix}")
    os.replace(path, target)


def write_diff(result: Diff) -> list[Path]:
    """Write ``regrade.csv`` and ``regrade.md`` into the new folder; returns their paths."""
    written = []
    for name, text in (("regrade.csv", regrade_csv(result)),
                       ("regrade.md", regrade_markdown(result))):
        path = result.new.folder / name
        _keep_copy(path, text)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
