"""Step 1 of grading: turn a notebook or ``.py`` file into statements grouped by part."""

from pathlib import Path

from .read import Chunk, SubmissionError, read_submission
from .split import Statement, StudentCode, split_code


def extract(path: Path) -> StudentCode:
    """Read ``path`` and cut it into parts; raises ``SubmissionError`` if unreadable."""
    return split_code(read_submission(Path(path)))


__all__ = ["Chunk", "Statement", "StudentCode", "SubmissionError", "extract", "split_code"]
