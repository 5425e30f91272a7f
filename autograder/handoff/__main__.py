"""``python -m autograder.handoff --course DIR --grades CSV``; see ``autograder/handoff``."""

import argparse
import sys
from pathlib import Path

from ..assignment import known
from ..report.format import one_line
from ..report.schema import SchemaError
from . import HandoffError, hand_off


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
    for student, why in outcome.skipped.items():
        print(f"{one_line(student, 40)}: SKIPPED, {why}", file=sys.stderr)
    for student in outcome.not_in_grades:
        print(f"{one_line(student, 40)}: not in grades.csv; left as it is", file=sys.stderr)
    total = len(outcome.handed_off) + len(outcome.skipped)
    print(f"Handed off {len(outcome.handed_off)} of {total} students to {args.course}; next: "
          "grade the rest in formgrader, then `nbgrader export`.")
    return 1 if outcome.skipped else 0


if __name__ == "__main__":
    sys.exit(main())
