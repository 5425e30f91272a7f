"""Grade one Gradescope submission: ``ROOT/submission`` in, ``ROOT/results/results.json`` out.

Gradescope's autograder contract: the student's upload is unpacked into
``/autograder/submission`` and the score must be written to
``/autograder/results/results.json``. ``--root`` replaces ``/autograder`` so the
same code runs against a temporary folder in tests.

Whatever happens (no file, a broken notebook, a hanging submission) a valid
``results.json`` is written, so the student always sees why they got their score.
"""

import argparse
import sys
from pathlib import Path

from ..collect import NOTHING_FOUND, pick_file
from ..parts import PARTS, POINTS
from ..report.gradescope import write_gradescope
from ..results import SubmissionResult
from ..sandbox import limits
from ..suite.run import grade_file

ASSIGNMENT = "tokenization"


def not_graded(reason: str) -> SubmissionResult:
    """A result for a submission with nothing to grade."""
    return {
        "student_id": "submission", "source": "", "status": "error", "error": reason,
        "warnings": [], "tests": [], "score": 0.0, "max_score": float(sum(POINTS.values())),
        "parts": {str(p): {"score": 0.0, "max_score": float(POINTS[p])} for p in PARTS},
        "seconds": 0.0,
    }


def grade_submission(root: Path) -> SubmissionResult:
    """Find the student's file under ``root/submission`` and grade it."""
    submission = root / "submission"
    # Uploads sometimes arrive one folder deeper (a zipped folder).
    for folder in [submission, *sorted(d for d in submission.glob("*") if d.is_dir())]:
        path, notes = pick_file(folder, ASSIGNMENT)
        if path is not None:
            break
    else:
        return not_graded(NOTHING_FOUND)
    result = grade_file(path, "submission", source_label=str(path.relative_to(submission)))
    result["warnings"] = notes + result["warnings"]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/autograder"))
    root = parser.parse_args(argv).root
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    limits.hide(results, root / "submission")
    level = limits.isolation()[0]
    print(f"Isolation: {level} ({limits.PROMISES[level]})", file=sys.stderr)
    result = grade_submission(root)
    result["isolation"] = level
    if level == "basic":
        result["warnings"] = [limits.PROMISES["basic"], *result["warnings"]]
    if limits.exposed_secrets():
        print("warning: the worker can read", ", ".join(limits.exposed_secrets()), file=sys.stderr)
    write_gradescope(result, results / "results.json")
    print(f"score {result['score']:g} / {result['max_score']:g} ({result['status']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
