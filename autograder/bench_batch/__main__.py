"""``python -m autograder.bench_batch --assignment NAME``: generate, grade, measure, report."""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from autograder import bench_batch
from autograder.assignment import load
from autograder.cache import grader_fingerprint
from autograder.validity.common import suite_version

from .make import generate, write_tree
from .measure import run_cli
from .outcomes import read_outcomes
from .summary import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.bench_batch",
                                     description=bench_batch.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", required=True, help="the assignment to grade")
    parser.add_argument("--count", type=int, default=200,
                        help="submissions in the class (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="the CLI's --jobs (default: %(default)s)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated tree and the reports")
    args = parser.parse_args(argv)
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be at least 1")
    assignment = load(args.assignment)
    subs = generate(assignment, args.count)
    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        tree = write_tree(assignment, subs, work)
        out = work / "out"
        load_start = os.getloadavg()
        print(f"bench-batch: {len(subs)} {assignment.name} submissions in {tree}, grading "
              f"with --jobs {args.jobs}; load average {load_start[0]:.1f}", flush=True)
        version = suite_version(assignment)
        before = grader_fingerprint.__wrapped__(assignment)
        run = run_cli(tree, out, args.jobs, assignment.name)
        load_end = os.getloadavg()
        same = grader_fingerprint.__wrapped__(assignment) == before  # nobody changed it meanwhile
        ok = report(assignment, read_outcomes(subs, out), run, args.jobs, (load_start, load_end),
                    (version, same))
    finally:
        if args.keep:
            print(f"kept the submissions and reports in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
