"""``python -m autograder diff OLD NEW`` and what ``grade`` does around its reports.

``diff`` compares two report folders of one assignment, prints the summary and writes
``NEW/regrade.csv`` and ``NEW/regrade.md``. Exit status 0 whenever the diff was made,
whatever it found; 2 (``UsageError``) when a folder is not a report folder, the two grade
different assignments, or NEW cannot be written.

``before_reports`` and ``after_reports`` are ``grade``'s: keep the previous reports in
the history and mark each regraded result, then diff against them and say where they went.
"""

import argparse
from pathlib import Path

from ..collect import UsageError
from ..results import SubmissionResult
from .compare import diff
from .folder import NotAReport, read_report
from .history import keep_previous, mark_regraded
from .write import summary_lines, write_diff


def add_parser(commands: argparse._SubParsersAction) -> None:
    """The ``diff`` subcommand of the CLI."""
    parser = commands.add_parser(
        "diff", help="what changed between two report folders, for whom, and why",
        description="Compare two report folders that `grade` wrote (OLD, NEW) of one "
                    "assignment; print a summary and write NEW/regrade.csv and "
                    "NEW/regrade.md.")
    parser.add_argument("old", metavar="OLD", type=Path, help="the earlier report folder")
    parser.add_argument("new", metavar="NEW", type=Path, help="the later report folder")
    parser.set_defaults(run=diff_command)


def run_diff(old: Path, new: Path) -> list[str]:
    """Diff ``old`` with ``new`` and write the files; the lines to print."""
    try:
        found = diff(read_report(old), read_report(new))
        written = write_diff(found)
    except NotAReport as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{new}: cannot write the regrade files ({exc})") from None
    return [*summary_lines(found), f"Wrote {', '.join(str(p) for p in written)}"]


def diff_command(args: argparse.Namespace) -> int:
    print("\n".join(run_diff(args.old, args.new)))
    return 0


def before_reports(results: list[SubmissionResult], out: Path) -> Path | None:
    """Move the previous reports to the history and mark regraded results (``history``)."""
    previous = keep_previous(out)
    mark_regraded(results, out)
    return previous


def after_reports(previous: Path | None, out: Path) -> list[str]:
    """The diff against ``previous`` and the line naming it; [] on a first grading."""
    if previous is None:
        return []
    try:
        lines = run_diff(previous, out)
    except UsageError as exc:  # e.g. another assignment graded into the same folder before
        lines = [f"no diff with the previous reports: {exc}"]
    return [*lines, f"Previous reports kept in {previous}/"]
