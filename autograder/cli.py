"""``python -m autograder grade PATH --out DIR [--assignment NAME]``: grade a class, write reports.

The pipeline: ``assignment`` says what is graded (``--assignment``, else found from
PATH: ``collect.detect_assignments``), ``collect`` finds the submissions, ``batch``
grades them in parallel (extract -> sandbox -> suite, one ``grade_file`` each),
``report`` writes grades.csv, per-student results.json and feedback.html, summary.md
and the plots. A ``submitted/`` tree that holds several assignments is graded once
per assignment, each into ``DIR/<assignment>/``; a single assignment's reports go
into DIR itself. Exit status: 0 when the batch completed, even if some submissions
could not be graded (they are listed); 2 for a usage error; 3 when the sandbox
did not start for some submission (the machine's fault: fix it and run again).

Reports already in DIR are never overwritten: they move to ``DIR/history/`` first, and
``grade`` ends with the diff against them (``autograder.regrade``). ``python -m autograder
diff OLD NEW`` compares any two report folders the same way.

The sandbox level (``autograder.sandbox.limits``) is never silent: it is printed
before grading starts and written into summary.md and every result. A level below
the best this machine should give (root as root, user namespaces otherwise) that
was not asked for with ``AUTOGRADER_ISOLATION`` is a loud warning. ``basic`` (student
code as the grader's own user) is refused unless asked for with ``--allow-basic`` or
``AUTOGRADER_ALLOW_BASIC=1``. At the drop and basic levels nothing of the students'
code may be running when the reports are written: survivors are killed first, and
the batch checks that none is left after writing.
"""

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from .assignment import Assignment, UnknownAssignment, known, load
from .batch import grade_all, same_bytes
from .cache import ResultCache
from .collect import UsageError, check_root, detect_assignments, find_submissions
from .regrade import command as regrade
from .report import console_summary, load_plots_meanwhile, write_reports
from .report.format import one_line, points
from .results import VISIBILITIES, SubmissionResult, machine_failed
from .sandbox import cleanup, limits, users
from .similarity.command import register as register_similarity

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
        description="Grade submissions with an assignment's hidden suite and write reports.",
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
    grade.add_argument("--assignment", metavar="NAME",
                       help=f"the assignment ({', '.join(known())}); default: found from PATH "
                            "(the folders submitted/<student>/<NAME>/, a file or folder named "
                            "after it, or the names the code defines)")
    grade.add_argument("--hidden-visibility", choices=VISIBILITIES, default="after_published",
                       help="Gradescope visibility of the hidden tests (default: %(default)s)")
    grade.add_argument("--show-hidden-inputs", action="store_true",
                       help="show the inputs of hidden tests in feedback (default: off; the "
                            "messages then say what broke without the input)")
    grade.add_argument("--timeout", metavar="SECONDS", type=_positive_float, default=300.0,
                       help="wall-time limit per submission (default: %(default)g)")
    grade.add_argument("--force", action="store_true",
                       help="grade every submission again, ignoring results cached in DIR/.cache")
    grade.add_argument("--allow-basic", action="store_true",
                       help="grade even if the only sandbox this machine allows is the basic "
                            "level, where student code runs as your own user (also "
                            "AUTOGRADER_ALLOW_BASIC=1); the reports say so")
    regrade.add_parser(commands)
    register_similarity(commands)
    return parser


class Progress:
    """Finished / failed-to-grade / missing (nothing submitted) / remaining, and one line
    per student.

    On a terminal, a tqdm bar under the student lines. Into a file or a pipe (a batch run
    under nohup, CI), where a redrawn bar would pile up as carriage returns, each student
    line carries the counts instead.
    """

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        from tqdm import tqdm

        self.failed = self.missing = 0
        self.stream = stream or sys.stderr
        self.bar = (tqdm(total=total, unit="sub", file=self.stream, dynamic_ncols=True)
                    if self.stream.isatty() else None)

    def __call__(self, result: SubmissionResult, done: int, total: int) -> None:
        if result["status"] == "graded":
            outcome = f"{points(result['score'])} / {points(result['max_score'])}"
        elif result["status"] == "missing":
            self.missing += 1
            outcome = "missing (nothing submitted)"
        else:
            self.failed += 1
            outcome = f"not graded: {one_line(result['error'] or 'unknown', 80)}"
        seconds = f" ({result['seconds']:.1f} s)" if result["seconds"] else ""
        line = f"{one_line(result['student_id'], 40)}: {outcome}{seconds}"
        counts = (f"finished {done - self.failed - self.missing}, failed {self.failed}, "
                  f"missing {self.missing}, remaining {total - done}")
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


def assignments_of(args: argparse.Namespace) -> list[Assignment]:
    """The assignments to grade: ``--assignment``, else those PATH shows (module doc)."""
    if args.assignment:
        try:
            return [load(args.assignment)]
        except UnknownAssignment as exc:
            raise UsageError(f"--assignment: {exc}") from None
    found = detect_assignments(args.path)
    if not found:
        raise UsageError(f"{args.path}: cannot tell which assignment this is; pass "
                         f"--assignment NAME (known: {', '.join(known())})")
    return found


def grade_command(args: argparse.Namespace) -> int:
    if (args.path / "submitted").is_dir():
        raise UsageError(
            f"{args.path} looks like an nbgrader course folder; "
            f"pass its submissions: {args.path / 'submitted'}"
        )
    check_root(args.path)
    assignments = assignments_of(args)
    batches = [(a, find_submissions(args.path, a.name),
                args.out / a.name if len(assignments) > 1 else args.out) for a in assignments]
    if not any(subs for _, subs, _ in batches):
        raise UsageError(f"{args.path}: no student folders, notebooks or .py files in it")
    try:  # fail before grading, not after, if the reports cannot be written
        for _, _, out in batches:
            out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot create the folder ({exc.strerror})") from exc
    tree = args.path if args.path.is_dir() else args.path.parent
    level = choose_level(args, tree)
    # Workers must not see other students' files or the reports.
    limits.hide(tree, args.out)
    broken = 0
    for assignment, subs, out in batches:
        status = grade_batch(args, assignment, subs, out, level)
        if status == ENVIRONMENT_FAILED and level in ("drop", "basic"):
            return status  # student code may have outlived the batch: stop here
        broken += status == ENVIRONMENT_FAILED
    return ENVIRONMENT_FAILED if broken else 0


def grade_batch(args: argparse.Namespace, assignment: Assignment, subs: list, out: Path,
                level: str) -> int:
    """Grade one assignment's submissions and write its reports into ``out``."""
    if all(s.path is None for s in subs) and len(subs) > 1:
        print(f"warning: no student has a gradable file under <student>/{assignment.name}/; "
              "is --assignment right?", file=sys.stderr)
    jobs = 1 if level == "basic" else min(args.jobs, len(subs))
    print(f"Grading {len(subs)} submission{'s' * (len(subs) != 1)} of {assignment.name} from "
          f"{args.path} with {jobs} job{'s' * (jobs != 1)}...", file=sys.stderr, flush=True)
    # A result graded at another level is graded again, not taken from the cache.
    options = (f"visibility={args.hidden_visibility};timeout={args.timeout:g};"
               f"inputs={'shown' if args.show_hidden_inputs else 'hidden'};isolation={level}")
    cache = ResultCache(out / CACHE_DIR, assignment, options, read=not args.force)
    cached = _cached_count(cache, subs)
    started = time.monotonic()
    load_plots_meanwhile()  # matplotlib loads while the first submissions are graded
    progress = Progress(len(subs))
    groups = same_bytes(subs)
    try:
        results = grade_all(subs, assignment, jobs=jobs, timeout=args.timeout, cache=cache,
                            groups=groups,
                            hidden_visibility=args.hidden_visibility, on_done=progress,
                            show_hidden_inputs=args.show_hidden_inputs)
    finally:
        progress.close()
    wall = time.monotonic() - started
    finish_students(level)
    previous = regrade.before_reports(results, out)  # nothing is overwritten without a copy
    reports = write_reports(results, out, assignment, wall_seconds=wall, jobs=jobs)
    if level in ("drop", "basic") and limits.survivors():
        print("WARNING: student code was still running after the reports were written; "
              f"they may have been changed: {', '.join(map(str, limits.survivors()))}",
              file=sys.stderr)
        return ENVIRONMENT_FAILED
    print("\n".join(console_summary(reports.stats, str(out), wall, jobs, cached)))
    for group in groups.values():
        if len(group) > 1:
            names = ", ".join(one_line(subs[i].student_id, 40) for i in group)
            print(f"Same file handed in by: {names} (one grading unless it failed)")
    for line in regrade.after_reports(previous, out):
        print(line)
    broken = sum(machine_failed(r) for r in results)
    if broken:
        print(f"warning: the sandbox did not start for {broken} submission"
              f"{'s' * (broken != 1)}: this machine's fault, not the students'. Fix it and "
              "run again; those are not cached and will be graded then.", file=sys.stderr)
        return ENVIRONMENT_FAILED
    return 0


def choose_level(args: argparse.Namespace, tree: Path) -> str:
    """Probe the sandbox level, say it, and refuse or warn where it is weak (module doc)."""
    try:
        level, _ = limits.isolation()
    except (ValueError, RuntimeError) as exc:
        raise UsageError(str(exc)) from None
    print(f"Isolation: {level} ({limits.PROMISES[level]})", file=sys.stderr, flush=True)
    forced = os.environ.get("AUTOGRADER_ISOLATION")
    if level != limits.best_level() and not forced:
        print(f"WARNING: the sandbox fell back to the {level} level; this machine should give "
              f"{limits.best_level()} (are namespaces forbidden here?). "
              "Set AUTOGRADER_ISOLATION to choose a level explicitly.", file=sys.stderr)
    allowed = args.allow_basic or os.environ.get("AUTOGRADER_ALLOW_BASIC") == "1"
    if level == "basic" and not allowed:
        raise UsageError(
            "only the basic sandbox works on this machine: student code would run as your own "
            "user and could read other submissions and change the reports. Grade as root (or "
            "where user namespaces work), or pass --allow-basic (AUTOGRADER_ALLOW_BASIC=1) to "
            "accept that; every report will say so")
    if level == "drop":
        closed = limits.close_secrets()
        if closed:
            print(f"closed to other users (chmod o-rwx), so that student code cannot read the "
                  f"reference: {', '.join(closed)} in {limits.REPO}", file=sys.stderr)
        secrets = limits.exposed_secrets()
        if secrets:
            raise UsageError(
                f"at the drop level student code runs as other users, who can read the "
                f"reference or the hidden tests in {limits.REPO} ({', '.join(secrets)}): "
                "close them first")
        readable = limits.readable_by_workers([tree])
        if readable:
            raise UsageError(
                f"at the drop level student code runs as other users, who can read "
                f"{', '.join(readable)}: close it first (chmod o-rwx {readable[0]})")
        args.out.chmod(0o700)  # the reports and the cache: the grader's alone
        shared = users.shared_writable()
        if shared:
            print("warning: world-writable folders let workers that run at once exchange file "
                  f"names at the drop level: {', '.join(shared)} (chmod o-w them in a "
                  "disposable container, as the Gradescope setup does)", file=sys.stderr)
    if level == "basic":
        cleanup.adopt_orphans()  # students' orphans become ours: killed after each student
        print("WARNING: basic level: students are graded one at a time; student code can read "
              "anything your user can.", file=sys.stderr)
    return level


def finish_students(level: str) -> None:
    """Before the reports are written: nothing of the students' code may still run."""
    if level in ("drop", "basic"):
        cleanup.kill_descendants()
    if level == "drop":
        users.sweep()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "grade":
            return grade_command(args)
        if hasattr(args, "run"):  # subcommands that register their own handler
            return args.run(args)
    except UsageError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    return 2
