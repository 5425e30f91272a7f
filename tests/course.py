"""The course's assignments as the repository's tests use them.

Engine tests that need a real assignment use the tokenization one (``TOKENIZATION``);
tests that apply to every assignment are parametrised over ``known()``.
"""

from autograder.assignment import known, load

TOKENIZATION = load("tokenization")
PRODUCTION = load("production_tokenizers")

__all__ = ["PRODUCTION", "TOKENIZATION", "known", "load"]
