"""Step 2 of grading: run one part of a submission in its own sandboxed worker process."""

from .client import MissingName, Remote, StudentError, Worker, WorkerFailure
from .seeded import Seeded

__all__ = ["MissingName", "Remote", "Seeded", "StudentError", "Worker", "WorkerFailure"]
