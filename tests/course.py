"""The course's assignments as the repository's tests use them.

Engine tests that need a real assignment use the tokenization one (``TOKENIZATION``);
tests that apply to every assignment are parametrised over ``known()``.
"""

import os
from pathlib import Path

import pytest

from autograder.assignment import known, load
from autograder.results import SubmissionResult, new_result
from autograder.sandbox import limits

TOKENIZATION = load("tokenization")
PRODUCTION = load("production_tokenizers")
# The engine's own two-part toy assignment, and a submission of it that implements nothing.
TOY = load(Path(__file__).resolve().parent / "toy")
TOY_STUB = """
SEPARATOR = " "

def count_words(text):
    raise NotImplementedError

class Shouter:
    def __init__(self, marks=1):
        raise NotImplementedError

def loudest(text):
    raise NotImplementedError
"""


def error_result(student_id: str, source: str, error: str) -> SubmissionResult:
    """A tokenization result that could not be graded."""
    return new_result(TOKENIZATION, student_id, source, status="error", error=error)


# Every isolation level the CLI may choose: root and drop need root, basic the opt-in.
LEVELS = ("root", "drop", "basic")


def isolation_env(level: str) -> dict[str, str]:
    """This process's environment with ``level`` chosen (skips a level this machine lacks);
    for a subprocess that grades or starts workers."""
    if level in ("root", "drop") and os.geteuid() != 0:
        pytest.skip(f"the {level} level needs root")
    env = {**os.environ, "AUTOGRADER_ISOLATION": level, "AUTOGRADER_ALLOW_BASIC": "1"}
    env.pop(limits.PROBED_ENV, None)
    return env


__all__ = ["LEVELS", "PRODUCTION", "TOKENIZATION", "TOY", "TOY_STUB", "error_result",
           "isolation_env", "known", "load"]
