"""``python -m autograder grade PATH --out DIR``: grade a class and write the reports.

The pipeline: ``collect`` finds the submissions, ``batch`` grades them in
parallel (extract -> sandbox -> suite, one ``grade_file`` each), ``report``
writes grades.csv, per-student results.json and feedback.html, summary.md and
the plots. Exit status: 0 when the batch completed, even if some submissions
could not be graded (they are listed); 2 for a usage error; 3 when the sandbox
did not start for some submission (the machine's fault: fix it and run again).
"""

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from .batch import grade_all
from .cache import ResultCache
from .collect import UsageError, find_submissions
from .report import console_summary, write_reports
from .report.format import one_line, points
from .results import SubmissionResult
from .sandbox import limits

VISIBILITIES = ("after_published", "hidden", "visible", "after_due_date")
# Exit code when the sandbox did not start for some submission (the reports are written).
ENVIRONMENT_FAILED = 3
CACHE_DIR = ".cache"  # results by submission content, so a rerun resumes


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m autograder",
        description="Grade tokenization submissions with the hidden suite and write reports.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    grade = commands.add_parser(
        "grade",
        help="grade a submitted/ tree, one notebook or one .py file",
        description=(
            "Grade PATH: an nbgrader submitted/ tree (submitted/<student_id>/<assignment>/...), "
            "a single .ipynb notebook or a single .py file (student_id = the file name). "
            "Writes grades.csv, summary.md, plots and <student_id>/{results.json,feedback.html} "
            "into DIR."
        ),
    )
    grade.add_argument("path", metavar="PATH", type=Path, help="what to grade")
    grade.add_argument("--out", metavar="DIR", type=Path, required=True,
                       help="folder for the reports (created if missing)")
    grade.add_argument("--jobs", metavar="N", type=_positive_int, default=os.cpu_count() or 1,
                       help="submissions graded at once (default: number of cores, %(default)s)")
    grade.add_argument("--assignment", default="tokenization",
                       help="assignment folder name inside each student folder "
                            "(default: %(default)s)")
    grade.add_argument("--hidden-visibility", choices=VISIBILITIES, default="after_published",
                       help="Gradescope visibility of the hidden tests (default: %(default)s)")
    grade.add_argument("--show-hidden-inputs", action="store_true",
                       help="show the inputs of hidden tests in feedback (default: off; the "
                            "messages then say what broke without the input)")
    grade.add_argument("--timeout", metavar="SECONDS", type=_positive_float, default=300.0,
                       help="wall-time limit per submission (default: %(default)g)")
    grade.add_argument("--force", action="store_true",
                       help="grade every submission again, ignoring results cached in DIR/.cache")
    return parser


class Progress:
    """Finished / failed-to-grade / remaining, and one line per student.

    On a terminal, a tqdm bar under the student lines. Into a file or a pipe (a batch run
    under nohup, CI), where a redrawn bar would pile up as carriage returns, each student
    line carries the counts instead.
    """

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        from tqdm import tqdm

        self.failed = 0
        self.stream = stream or sys.stderr
        self.bar = (tqdm(total=total, unit="sub", file=self.stream, dynamic_ncols=True)
                    if self.stream.isatty() else None)

    def __call__(self, result: SubmissionResult, done: int, total: int) -> None:
        if result["status"] == "graded":
            outcome = f"{points(result['score'])} / {points(result['max_score'])}"
        else:
            self.failed += 1
            outcome = f"not graded: {one_line(result['error'] or 'unknown', 80)}"
        seconds = f" ({result['seconds']:.1f} s)" if result["seconds"] else ""
        line = f"{one_line(result['student_id'], 40)}: {outcome}{seconds}"
        counts = f"finished {done - self.failed}, failed {self.failed}, remaining {total - done}"
        if self.bar is None:
            print(f"{line}  [{counts}]", file=self.stream, flush=True)
            return
        self.bar.write(line, file=self.stream)
        self.bar.set_postfix_str(counts)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _cached_count(cache: ResultCache, subs: list) -> int:
    """How many of ``subs`` have a result in the cache, so the summary can say so."""
    count = 0
    for sub in subs:
        try:
            count += sub.path is not None and cache.get(sub.path) is not None
        except OSError:  # unreadable: grading will report it
            continue
    return count


def grade_command(args: argparse.Namespace) -> int:
    if (args.path / "submitted").is_dir():
        raise UsageError(
            f"{args.path} looks like an nbgrader course folder; "
            f"pass its submissions: {args.path / 'submitted'}"
        )
    subs = find_submissions(args.path, args.assignment)
    if not subs:
        raise UsageError(f"{args.path}: no student folders, notebooks or .py files in it")
    try:  # fail before grading, not after, if the reports cannot be written
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot create the folder ({exc.strerror})") from exc
    if all(s.path is None for s in subs) and len(subs) > 1:
        print(f"warning: no student has a gradable file under <student>/{args.assignment}/; "
              "is --assignment right?", file=sys.stderr)
    jobs = min(args.jobs, len(subs))
    print(f"Grading {len(subs)} submission{'s' * (len(subs) != 1)} from {args.path} "
          f"with {jobs} job{'s' * (jobs != 1)}...", file=sys.stderr, flush=True)
    # Workers must not see other students' files or the reports.
    limits.hide(args.path if args.path.is_dir() else args.path.parent, args.out)
    options = (f"visibility={args.hidden_visibility};timeout={args.timeout:g};"
               f"inputs={'shown' if args.show_hidden_inputs else 'hidden'}")
    cache = ResultCache(args.out / CACHE_DIR, options, read=not args.force)
    cached = _cached_count(cache, subs)
    started = time.monotonic()
    progress = Progress(len(subs))
    try:
        results = grade_all(subs, jobs=jobs, timeout=args.timeout, cache=cache,
                            hidden_visibility=args.hidden_visibility, on_done=progress,
                            show_hidden_inputs=args.show_hidden_inputs)
    finally:
        progress.close()
    wall = time.monotonic() - started
    reports = write_reports(results, args.out, assignment=args.assignment,
                            wall_seconds=wall, jobs=jobs)
    print("\n".join(console_summary(reports.stats, str(args.out), wall, jobs, cached)))
    broken = sum(str(r["error"]).startswith("environment:") for r in results)
    if broken:
        print(f"warning: the sandbox did not start for {broken} submission"
              f"{'s' * (broken != 1)}: this machine's fault, not the students'. Fix it and "
              "run again; those are not cached and will be graded then.", file=sys.stderr)
        return ENVIRONMENT_FAILED
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "grade":
            return grade_command(args)
    except UsageError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    return 2
