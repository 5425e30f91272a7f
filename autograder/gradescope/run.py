"""Grade one Gradescope submission: ``ROOT/submission`` in, ``ROOT/results/results.json`` out.

Gradescope's autograder contract: the student's upload is unpacked into
``/autograder/submission`` and the score must be written to
``/autograder/results/results.json``. ``--root`` replaces ``/autograder`` so the
same code runs against a temporary folder in tests.

Whatever happens (no file, a broken notebook, a hanging submission, strings no UTF-8
file can hold, a bug in the grader) a valid ``results.json`` is written, so the student
always sees why they got their score: the result is made safe (``autograder.safe``), any
exception becomes a result that says the submission could not be graded, and if even
that cannot be written a minimal file is. Only regular files are graded (links are
never followed, see ``collect``). ``--show-hidden-inputs`` keeps the inputs of hidden
tests in their messages (off by default; see ``suite/plugin.py``).
"""

import argparse
import json
import sys
import traceback
from pathlib import Path

from ..assignment import Assignment, load
from ..collect import NOTHING_FOUND, entry_kind, pick_file
from ..provenance import stamp
from ..report.gradescope import write_gradescope
from ..results import SubmissionResult, new_result
from ..safe import safe_result, safe_text
from ..sandbox import limits
from ..suite.run import grade_file

# The bundle names its assignment here (``bundle.py``).
NAME_FILE = Path(__file__).resolve().parent / "ASSIGNMENT"


def not_graded(assignment: Assignment, reason: str) -> SubmissionResult:
    """A result for a submission with nothing to grade."""
    return new_result(assignment, "submission", "", status="error", error=reason)


def grade_submission(root: Path, assignment: Assignment,
                     show_hidden_inputs: bool = False) -> SubmissionResult:
    """Find the student's file under ``root/submission`` and grade it."""
    submission = root / "submission"
    # Uploads sometimes arrive one folder deeper (a zipped folder); never through a link.
    folders = [submission, *sorted(d for d in submission.glob("*") if entry_kind(d) == "dir")]
    all_notes: list[str] = []
    for folder in folders:
        path, notes = pick_file(folder, assignment.name)
        all_notes += notes
        if path is not None:
            break
    else:
        found = f"{NOTHING_FOUND} ({'; '.join(all_notes)})" if all_notes else NOTHING_FOUND
        return not_graded(assignment, found)
    result = grade_file(path, "submission", assignment=assignment,
                        source_label=str(path.relative_to(submission)),
                        show_hidden_inputs=show_hidden_inputs)
    result["warnings"] = all_notes + result["warnings"]
    stamp(result, assignment, path)
    return result


def write_results(result: SubmissionResult, target: Path, assignment: Assignment) -> None:
    """Write ``result`` as ``results.json``; if that fails, a minimal valid file."""
    try:
        write_gradescope(safe_result(result), target, assignment)
        return
    except Exception as exc:  # a grader bug: the student still gets a file that says so
        traceback.print_exc()
        reason = f"internal grader error while writing the results ({type(exc).__name__})"
    fallback = {"score": 0.0, "output": f"This submission could not be graded: {reason}.",
                "output_format": "text", "tests": []}
    target.write_text(json.dumps(fallback, ensure_ascii=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/autograder"))
    parser.add_argument("--show-hidden-inputs", action="store_true",
                        help="keep the inputs of hidden tests in their messages")
    parser.add_argument("--assignment", help="default: the one the bundle names")
    args = parser.parse_args(argv)
    if not args.assignment and not NAME_FILE.is_file():
        parser.error("no --assignment, and this is not a bundle that names one "
                     f"({NAME_FILE.name} is written by `make gradescope`)")
    assignment = load(args.assignment or NAME_FILE.read_text(encoding="utf-8").strip())
    root = args.root
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    level = "unknown"
    try:
        limits.hide(results, root / "submission")
        level = limits.isolation()[0]
        print(f"Isolation: {level} ({limits.PROMISES[level]})", file=sys.stderr)
        if level == "drop":  # setup.sh closed them already; a grader moved since may not be
            limits.close_secrets()
        result = grade_submission(root, assignment, args.show_hidden_inputs)
        stamp(result, assignment, None)  # one found nothing to grade; a graded one keeps its
        if level == "basic":
            result["warnings"] = [limits.PROMISES["basic"], *result["warnings"]]
        if limits.exposed_secrets():
            print("warning: the worker can read", ", ".join(limits.exposed_secrets()),
                  file=sys.stderr)
    except Exception as exc:  # the student must still get a results.json that says why
        traceback.print_exc()
        detail = safe_text(f"{type(exc).__name__}: {exc}", 300, one_line=True)
        result = not_graded(assignment, f"internal grader error: {detail}")
    result["isolation"] = level
    write_results(result, results / "results.json", assignment)
    print(f"score {result['score']:g} / {result['max_score']:g} ({result['status']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
