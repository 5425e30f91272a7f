"""``python -m autograder similarity PATH --assignment NAME --out DIR [--against FOLDER]...``

Reads what ``grade`` reads, fingerprints it (``sides.py``), scores every pair of students
and every student with every known source (``score.py``), and writes the report
(``report.py``) and a top 10. The released stub is ``assignments/<NAME>/<NAME>.ipynb`` of
the course folder unless ``--stub`` names another file; without one, nothing is treated
as boilerplate and the command says so. Exit status: 0 when the report is written, 2 for
a usage error (``cli.main``).
"""

import argparse
import os
import sys
import time
from pathlib import Path

from ..assignment import REPO, UnknownAssignment, load
from ..collect import UsageError, check_root
from ..extract import SubmissionError

DEFAULT_FLOOR = 0.5


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return value


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``similarity`` subcommand to the CLI's subcommands."""
    parser = commands.add_parser(
        "similarity",
        help="list the submissions that share code, part by part (after grading)",
        description="Compare the code the grader keeps of every pair of students, and of "
                    "every student with known sources, part by part. Writes "
                    "similarity.csv, similarity.html and a side-by-side page per pair into "
                    "DIR. Similar is not a verdict: read the pairs.",
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="a submitted/ tree")
    parser.add_argument("--assignment", metavar="NAME", required=True,
                        help="the assignment (or its folder)")
    parser.add_argument("--out", metavar="DIR", type=Path, required=True,
                        help="folder for the report (an earlier report is kept in "
                             "DIR/previous-N/)")
    parser.add_argument("--against", metavar="FOLDER", type=Path, action="append",
                        default=[], help="known sources: each file or folder in FOLDER is "
                                         "one (repeatable)")
    parser.add_argument("--stub", metavar="FILE", type=Path,
                        help="the released notebook whose code is boilerplate (default: "
                             "assignments/NAME/NAME.ipynb)")
    parser.add_argument("--floor", metavar="X", type=_fraction, default=DEFAULT_FLOOR,
                        help="list pairs whose similarity is at least X (default: "
                             "%(default)s)")
    parser.add_argument("--jobs", metavar="N", type=int, default=os.cpu_count() or 1,
                        help="processes reading submissions (default: %(default)s)")
    parser.set_defaults(run=similarity_command)


def similarity_command(args: argparse.Namespace) -> int:
    # Here, not at the top: copydetect loads matplotlib, which ``grade`` need not wait for.
    from .report import top_lines, write_report
    from .score import rank
    from .sides import read_sides

    try:
        assignment = load(args.assignment)
    except UnknownAssignment as exc:
        raise UsageError(f"--assignment: {exc}") from None
    check_root(args.path)
    for folder in args.against:
        if not folder.exists():
            raise UsageError(f"--against {folder}: no such file or folder")
    stub = args.stub or REPO / "assignments" / assignment.name / f"{assignment.name}.ipynb"
    if not stub.is_file():
        if args.stub:
            raise UsageError(f"--stub {stub}: no such file")
        print(f"warning: no released stub at {stub}: the given code counts as shared; "
              "pass --stub", file=sys.stderr)
        stub = None
    started = time.monotonic()
    try:
        students, sources, problems = read_sides(args.path, assignment, args.against, stub,
                                                 max(1, args.jobs))
    except SubmissionError as exc:
        raise UsageError(str(exc)) from None
    read = time.monotonic()
    pairs = rank(students, sources, args.floor)
    ranked = time.monotonic()
    write_report(args.out, pairs, {s.label: s for s in [*students, *sources]}, assignment,
                 args.floor, problems)
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if len(students) < 2 and not sources:
        print(f"{len(students)} submission to compare: no pairs.", file=sys.stderr)
    print("\n".join(top_lines(pairs)))
    print(f"{len(students)} students, {len(sources)} known sources compared in "
          f"{time.monotonic() - started:.1f} s (read {read - started:.1f} s, scored "
          f"{ranked - read:.1f} s, written {time.monotonic() - ranked:.1f} s); report: "
          f"{args.out / 'similarity.html'}")
    return 0
