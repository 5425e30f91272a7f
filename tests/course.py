"""The course's assignments as the repository's tests use them.

Engine tests that need a real assignment use the tokenization one (``TOKENIZATION``);
tests that apply to every assignment are parametrised over ``known()``.
"""

from autograder.assignment import known, load
from autograder.results import SubmissionResult, new_result

TOKENIZATION = load("tokenization")
PRODUCTION = load("production_tokenizers")


def error_result(student_id: str, source: str, error: str) -> SubmissionResult:
    """A tokenization result that could not be graded."""
    return new_result(TOKENIZATION, student_id, source, status="error", error=error)


__all__ = ["PRODUCTION", "TOKENIZATION", "error_result", "known", "load"]
