"""``python -m autograder.handoff --course DIR --grades CSV``; see ``autograder/handoff``."""

import argparse
import sys
from pathlib import Path

from ..assignment import known, load
from ..report.format import one_line
from ..report.schema import SchemaError
from . import HandoffError, Outcome, graded_assignment, hand_off


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder.handoff",
        description="Put the scores of `python -m autograder grade` into a course's nbgrader "
                    "gradebook, without running student code, so formgrader and "
                    "`nbgrader export` see them.")
    parser.add_argument("--course", type=Path, required=True, metavar="DIR",
                        help="the nbgrader course folder (with gradebook.db and submitted/)")
    parser.add_argument("--grades", type=Path, required=True, metavar="CSV",
                        help="grades.csv written by `python -m autograder grade`")
    parser.add_argument("--assignment", choices=known(),
                        help="the nbgrader assignment the grades are for (default: the one "
                             "the results.json files beside grades.csv name)")
    args = parser.parse_args(argv)
    try:
        outcome = hand_off(args.course, args.grades, args.assignment)
    except (HandoffError, SchemaError, OSError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    for student, what in outcome.handed_off.items():
        print(f"{one_line(student, 40)}: {what}")
    for student, what in outcome.missing.items():
        print(f"{one_line(student, 40)}: missing, {what}")
    for student, why in outcome.skipped.items():
        print(f"{one_line(student, 40)}: SKIPPED, {why}", file=sys.stderr)
    for student in outcome.not_in_grades:
        print(f"{one_line(student, 40)}: not in grades.csv; left as it is", file=sys.stderr)
    total = len(outcome.handed_off) + len(outcome.skipped) + len(outcome.missing)
    missing = f" ({len(outcome.missing)} submitted nothing)" if outcome.missing else ""
    assignment = args.assignment or graded_assignment(args.grades)
    print(f"Handed off {len(outcome.handed_off)} of {total} students{missing} to "
          f"{args.course}; next: {next_step(outcome, assignment)}")
    return 1 if outcome.skipped else 0


# Words of the hand-off's per-student lines that mean a cell waits for a person.
FLAGS = ("manual grad", "review", "NOT FOUND")


def next_step(outcome: Outcome, assignment: str | None) -> str:
    """What the TA does after the hand-off: formgrader only where something waits for a
    person (the assignment's written reflection, or a cell the hand-off flagged)."""
    if assignment is not None and load(assignment).reflection:
        return ("grade the reflections and every flagged cell in formgrader, then "
                "`nbgrader export`.")
    flagged = any(flag in what for what in outcome.handed_off.values() for flag in FLAGS)
    if flagged:
        return "grade the flagged cells in formgrader, then `nbgrader export`."
    return "`nbgrader export` (nothing in this assignment is graded by hand)."


if __name__ == "__main__":
    sys.exit(main())
