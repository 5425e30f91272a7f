"""Grade a batch of submissions in parallel, one ``grade_file`` call per student.

Each ``grade_file`` runs the suite in its own process, so a thread pool is
enough for parallelism. With a ``ResultCache``, a submission graded before (same
bytes, same grader) is not graded again, so an interrupted batch resumes.

Nothing a submission does can stop the batch: a missing file, a failure to
grade or even a bug in the grader gives that student a result with
``status="error"`` and the reason; a student who submitted nothing for the assignment
gets ``status="missing"``. Every result leaves ``grade_one`` made safe for
the reports (``safe.safe_result``).

Every result names the sandbox level its code ran at (``isolation``). At the
basic level student code runs as the grader's own user, so nothing but time keeps
two students apart: submissions are then graded one at a time, whatever ``jobs``
says, and after each one every process below the batch is killed before the next
starts (``cleanup.kill_descendants``), and the result says it was graded so.
"""

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

from .assignment import Assignment
from .cache import ResultCache
from .collect import Submission
from .provenance import stamp
from .results import SubmissionResult, new_result
from .safe import safe_result
from .sandbox import cleanup, limits


def grade_one(
    sub: Submission, assignment: Assignment, *, timeout: float, hidden_visibility: str,
    cache: ResultCache | None = None, show_hidden_inputs: bool = False,
) -> SubmissionResult:
    """Grade one submission (or take its cached result); never raises."""
    level = limits.isolation()[0]
    if sub.path is None:
        result = new_result(assignment, sub.student_id, sub.label,
                            status="missing" if sub.missing else "error",
                            error=sub.error or "nothing to grade")
        result["warnings"] = list(sub.notes)
        result["isolation"] = level
        stamp(result, assignment, None)
        return safe_result(result)
    started = time.monotonic()
    try:
        result = cache.get(sub.path) if cache else None
        if result is None:
            from .suite.run import grade_file

            result = grade_file(
                sub.path,
                sub.student_id,
                assignment=assignment,
                source_label=sub.label,
                timeout=timeout,
                hidden_visibility=hidden_visibility,
                show_hidden_inputs=show_hidden_inputs,
            )
            stamp(result, assignment, sub.path)  # before caching: it keeps its grading time
            if cache:
                cache.put(sub.path, result)
    except Exception as exc:  # a grader bug must not stop the class's batch
        result = new_result(assignment, sub.student_id, sub.label, status="error",
                            error=f"internal grader error: {type(exc).__name__}: {exc}")
        result["seconds"] = time.monotonic() - started
    if level == "basic":  # nothing of this student may run while the next one is graded
        cleanup.kill_descendants()
    # The report names the student as the batch does, whatever the suite echoed back.
    result["student_id"] = sub.student_id
    result["source"] = sub.label
    marks = [limits.PROMISES["basic"]] if level == "basic" else []
    result["warnings"] = [*marks, *sub.notes, *result.get("warnings", [])]
    result["isolation"] = level
    stamp(result, assignment, sub.path)
    return safe_result(result)


def grade_all(
    subs: list[Submission],
    assignment: Assignment,
    *,
    jobs: int,
    timeout: float = 300.0,
    hidden_visibility: str = "after_published",
    on_done: Callable[[SubmissionResult, int, int], None] | None = None,
    cache: ResultCache | None = None,
    show_hidden_inputs: bool = False,
) -> list[SubmissionResult]:
    """Grade ``subs`` with ``jobs`` in parallel (one at a time at the basic level);
    results sorted by student_id."""
    if limits.isolation()[0] == "basic":
        jobs = 1
    results: list[SubmissionResult] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [
            pool.submit(
                grade_one, s, assignment, timeout=timeout, hidden_visibility=hidden_visibility,
                cache=cache, show_hidden_inputs=show_hidden_inputs,
            )
            for s in subs
        ]
        for future in as_completed(futures):
            results.append(future.result())
            if on_done is not None:
                on_done(results[-1], len(results), len(subs))
    return sorted(results, key=lambda r: r["student_id"])
