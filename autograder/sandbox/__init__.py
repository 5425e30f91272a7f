"""Step 2 of grading: run one part of a submission in its own sandboxed worker process."""

from .client import MissingName, Remote, StudentError, Worker, WorkerFailure

__all__ = ["MissingName", "Remote", "StudentError", "Worker", "WorkerFailure"]
