"""Grade a batch of submissions in parallel, one ``grade_file`` call per student.

Each ``grade_file`` runs the suite in its own process, so a thread pool is
enough for parallelism. With a ``ResultCache``, a submission graded before (same
bytes, same grader) is not graded again, so an interrupted batch resumes.

Nothing a submission does can stop the batch: a missing file, a failure to
grade or even a bug in the grader gives that student a result with
``status="error"`` and the reason. Every result leaves ``grade_one`` made safe for
the reports (``report.safe.safe_result``).
"""

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

from .cache import ResultCache
from .collect import Submission
from .parts import POINTS
from .report.safe import safe_result
from .results import SubmissionResult


def error_result(student_id: str, source: str, error: str) -> SubmissionResult:
    """The result of a submission that could not be graded: every part 0."""
    return {
        "student_id": student_id,
        "source": source,
        "status": "error",
        "error": error,
        "warnings": [],
        "tests": [],
        "parts": {str(p): {"score": 0.0, "max_score": float(m)} for p, m in POINTS.items()},
        "score": 0.0,
        "max_score": float(sum(POINTS.values())),
        "seconds": 0.0,
    }


def grade_one(
    sub: Submission, *, timeout: float, hidden_visibility: str, cache: ResultCache | None = None,
    show_hidden_inputs: bool = False,
) -> SubmissionResult:
    """Grade one submission (or take its cached result); never raises."""
    if sub.path is None:
        result = error_result(sub.student_id, sub.label, sub.error or "nothing to grade")
        result["warnings"] = list(sub.notes)
        return safe_result(result)
    started = time.monotonic()
    try:
        result = cache.get(sub.path) if cache else None
        if result is None:
            from .suite.run import grade_file

            result = grade_file(
                sub.path,
                sub.student_id,
                source_label=sub.label,
                timeout=timeout,
                hidden_visibility=hidden_visibility,
                show_hidden_inputs=show_hidden_inputs,
            )
            if cache:
                cache.put(sub.path, result)
    except Exception as exc:  # a grader bug must not stop the class's batch
        result = error_result(
            sub.student_id, sub.label, f"internal grader error: {type(exc).__name__}: {exc}"
        )
        result["seconds"] = time.monotonic() - started
    # The report names the student as the batch does, whatever the suite echoed back.
    result["student_id"] = sub.student_id
    result["source"] = sub.label
    result["warnings"] = [*sub.notes, *result.get("warnings", [])]
    return safe_result(result)


def grade_all(
    subs: list[Submission],
    *,
    jobs: int,
    timeout: float = 300.0,
    hidden_visibility: str = "after_published",
    on_done: Callable[[SubmissionResult, int, int], None] | None = None,
    cache: ResultCache | None = None,
    show_hidden_inputs: bool = False,
) -> list[SubmissionResult]:
    """Grade ``subs`` with ``jobs`` in parallel; results sorted by student_id."""
    results: list[SubmissionResult] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [
            pool.submit(
                grade_one, s, timeout=timeout, hidden_visibility=hidden_visibility, cache=cache,
                show_hidden_inputs=show_hidden_inputs,
            )
            for s in subs
        ]
        for future in as_completed(futures):
            results.append(future.result())
            if on_done is not None:
                on_done(results[-1], len(results), len(subs))
    return sorted(results, key=lambda r: r["student_id"])
