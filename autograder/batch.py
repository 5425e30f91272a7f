"""Grade a batch of submissions in parallel, one ``grade_file`` call per student.

Each ``grade_file`` runs the suite in its own process, so a thread pool is
enough for parallelism. With a ``ResultCache``, a submission graded before (same
bytes, same grader) is not graded again, so an interrupted batch resumes. Within a
batch, files with the same bytes and suffix (the untouched stub, a shared copy) are
graded once and each student gets that grade under their own name (``same_bytes``):
one grade for one code, even when a loaded machine would have timed the two gradings
apart. An error is not shared: each twin is then graded on its own.

Nothing a submission does can stop the batch: a missing file, a failure to
grade or even a bug in the grader gives that student a result with
``status="error"`` and the reason; a student who submitted nothing for the assignment
gets ``status="missing"``. A cache that cannot be written costs a rerun, not the
grade. A grading the machine failed (``environment: ...``: a worker that could not
start) is graded once more, alone, after the rest of the batch (``results.machine_failed``).
Every result leaves this module made safe for the reports (``safe.safe_result``).

Every result names the sandbox level its code ran at (``isolation``). At the
basic level student code runs as the grader's own user, so nothing but time keeps
two students apart: submissions are then graded one at a time, whatever ``jobs``
says, and after each one every process below the batch is killed before the next
starts (``cleanup.kill_descendants``), and the result says it was graded so.
"""

import contextlib
import copy
import os
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from .assignment import Assignment
from .cache import ResultCache
from .collect import Submission
from .provenance import file_sha256, stamp
from .results import SubmissionResult, machine_failed, new_result
from .safe import safe_result
from .sandbox import cleanup, limits

Groups = dict[int, list[int]]


class Cores:
    """The cores each grading of a batch runs on, all its processes together.

    A grading is a conversation: the scoring process sends a request to a worker and
    waits, the worker answers and waits, hundreds of times per grading, and thousands
    when another part stands in (each call of the reference is one more round trip).
    When the two run on different cores, every answer wakes a process on the other
    core, and on this repository's 2-core VM such a round trip costs about 60 µs of CPU
    against 12 µs on one core (two processes passing a 50-byte message back and forth over
    pipes; ``docs/performance.md``). So when a batch
    grades several submissions at once, the machine's CPUs are dealt into one group per
    job (``--jobs 2`` on two cores: a core each; on eight, four each), and each grading
    keeps to the group the fewest running gradings use when it starts.

    It also keeps students apart: the workers' system-call filter refuses
    ``sched_setaffinity`` and new namespaces (``limits.setup``, once the scoring process
    is kept by ``limits.keep_to``), so busy loops a submission starts stay on its own
    grading's cores instead of crowding a classmate's. One at a time, a grading keeps
    every core (its parts start their workers in parallel); with more jobs than cores,
    so do all (two gradings kept to one core could not move to another that fell idle).
    A grade does not depend on it: the timing tests and budgets count CPU time, and
    ``make timing-stability CPUS=0`` found no false failure and every slow variant
    caught with each grading kept to one core (``TIMING-one-core.md`` beside each
    assignment's ``TIMING.md``).
    """

    def __init__(self, groups: list[list[int]]) -> None:
        self.running = {tuple(group): 0 for group in groups}  # group -> gradings on it now
        self.lock = threading.Lock()

    @classmethod
    def for_jobs(cls, jobs: int, cpus: Collection[int] | None = None) -> "Cores | None":
        """Groups of ``cpus`` (default: this process's) for ``jobs`` at once, or None when
        every grading keeps all: one job, more jobs than CPUs, or workers that could leave
        their cores (the filter does not install here: ``limits.can_keep_to_cpus``)."""
        allowed = sorted(os.sched_getaffinity(0) if cpus is None else cpus)
        if not 1 < jobs <= len(allowed) or not limits.can_keep_to_cpus():
            return None
        return cls([allowed[i::jobs] for i in range(jobs)])

    @contextlib.contextmanager
    def take(self) -> Iterator[list[int]]:
        """The cores of one grading, while it runs: the least used group (the first on a
        tie), given back when the grading ends, however it ends."""
        with self.lock:
            group = min(self.running, key=lambda g: (self.running[g], g))
            self.running[group] += 1
        try:
            yield list(group)
        finally:
            with self.lock:
                self.running[group] -= 1


def same_bytes(subs: list[Submission]) -> Groups:
    """The submissions to grade (by their index in ``subs``), each with the indexes of
    the later ones that hand in exactly its bytes under the same suffix (a ``.py`` and an
    ``.ipynb`` are read differently). ``grade_all`` grades each group's first file and
    gives its result to the others, so identical files get one grade in a batch, however
    loaded the machine was."""
    first: dict[tuple[str, str], int] = {}
    groups: Groups = {}
    for index, sub in enumerate(subs):
        digest = file_sha256(sub.path)
        key = (sub.path.suffix, digest) if sub.path is not None and digest else None
        if key in first:
            groups[first[key]].append(index)
            continue
        if key is not None:
            first[key] = index
        groups[index] = [index]
    return groups


def _shareable(result: SubmissionResult | None, twin: Submission) -> bool:
    """May ``result`` stand for ``twin``, grouped with the file it grades? Only a grade,
    and only of the bytes ``twin`` holds now: an error is no grade (a timeout may be the
    machine's, an extraction error names the file), and a file changed since it was
    grouped (either one) would give the twin the grade of other bytes."""
    return (result is not None and result["status"] == "graded"
            and result.get("provenance", {}).get("submission_sha256")
            == file_sha256(twin.path))


def _graded(
    sub: Submission, assignment: Assignment, *, timeout: float, hidden_visibility: str,
    cache: ResultCache | None, show_hidden_inputs: bool, cores: Cores | None = None,
) -> SubmissionResult:
    """The result of ``sub``'s file as the suite gives it (or the cache); never raises."""
    started = time.monotonic()
    try:
        result = cache.get(sub.path) if cache else None
        if result is None:
            from .suite.run import grade_file

            with cores.take() if cores is not None else contextlib.nullcontext() as cpus:
                result = grade_file(
                    sub.path,
                    sub.student_id,
                    assignment=assignment,
                    source_label=sub.label,
                    timeout=timeout,
                    hidden_visibility=hidden_visibility,
                    show_hidden_inputs=show_hidden_inputs,
                    cpus=cpus,
                )
            stamp(result, assignment, sub.path)  # before caching: it keeps its grading time
            if cache:
                _store(cache, sub, result)
    except Exception as exc:  # a grader bug must not stop the class's batch
        result = new_result(assignment, sub.student_id, sub.label, status="error",
                            error=f"internal grader error: {type(exc).__name__}: {exc}")
        result["seconds"] = time.monotonic() - started
    if limits.isolation()[0] == "basic":  # nothing of this student may run meanwhile
        cleanup.kill_descendants()
    return result


def _store(cache: ResultCache, sub: Submission, result: SubmissionResult) -> None:
    """Cache ``result``; a cache that cannot be written costs a rerun, never the grade."""
    try:
        cache.put(sub.path, result)
    except OSError as exc:
        print(f"warning: {sub.label}: result not cached ({exc}); a rerun grades it again",
              file=sys.stderr, flush=True)


def _as_reported(sub: Submission, assignment: Assignment,
                 result: SubmissionResult) -> SubmissionResult:
    """``result`` named as the batch names ``sub``, with its notes, made safe."""
    level = limits.isolation()[0]
    # The report names the student as the batch does, whatever the suite echoed back.
    result["student_id"] = sub.student_id
    result["source"] = sub.label
    marks = [limits.PROMISES["basic"]] if level == "basic" else []
    result["warnings"] = [*marks, *sub.notes, *result.get("warnings", [])]
    result["isolation"] = level
    stamp(result, assignment, sub.path)
    return safe_result(result)


def _missing(sub: Submission, assignment: Assignment) -> SubmissionResult:
    """The result of a student with no file to grade."""
    result = new_result(assignment, sub.student_id, sub.label,
                        status="missing" if sub.missing else "error",
                        error=sub.error or "nothing to grade")
    result["warnings"] = list(sub.notes)
    result["isolation"] = limits.isolation()[0]
    stamp(result, assignment, None)
    return safe_result(result)


def grade_one(
    sub: Submission, assignment: Assignment, *, timeout: float, hidden_visibility: str,
    cache: ResultCache | None = None, show_hidden_inputs: bool = False,
) -> SubmissionResult:
    """Grade one submission (or take its cached result); never raises."""
    if sub.path is None:
        return _missing(sub, assignment)
    return _as_reported(sub, assignment, _graded(
        sub, assignment, timeout=timeout, hidden_visibility=hidden_visibility, cache=cache,
        show_hidden_inputs=show_hidden_inputs))


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
    groups: Groups | None = None,
) -> list[SubmissionResult]:
    """Grade ``subs`` with ``jobs`` in parallel (one at a time at the basic level), each
    group of identical files once (``groups``, default ``same_bytes(subs)``); results
    sorted by student_id."""
    if limits.isolation()[0] == "basic":
        jobs = 1
    groups = same_bytes(subs) if groups is None else groups
    results: list[SubmissionResult] = []
    cores = Cores.for_jobs(jobs)

    def graded(index: int) -> SubmissionResult | None:
        sub = subs[index]
        return None if sub.path is None else _graded(
            sub, assignment, timeout=timeout, hidden_visibility=hidden_visibility,
            cache=cache, show_hidden_inputs=show_hidden_inputs, cores=cores)

    def report(index: int, result: SubmissionResult | None) -> None:
        sub = subs[index]
        results.append(_missing(sub, assignment) if result is None else
                       _as_reported(sub, assignment, copy.deepcopy(result)))
        if on_done is not None:
            on_done(results[-1], len(results), len(subs))

    # A grading the machine failed (``machine_failed``) may have lacked what a classmate
    # graded at the same time held: an attack that filled the system's table of open
    # files with mappings made other students' workers fail to start. Graded again, one
    # at a time, once the rest of the batch is done, a grade does not depend on who was
    # graded beside it. (Two hostile submissions that failed each other are graded again
    # too, each alone: they cost their own time twice, no one else's grade.)
    failed: dict[int, str] = {}  # index -> the error of its first grading

    def drain(pending: dict, pool: ThreadPoolExecutor) -> None:
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: pending[f][0]):
                first, *twins = pending.pop(future)
                result = future.result()
                if first in failed:  # its second grading: reported as it is, with a note
                    report(first, _graded_again(result, failed[first]))
                elif machine_failed(result):
                    failed[first] = result["error"]  # graded again once the rest are done
                else:
                    report(first, result)
                for twin in twins:
                    if _shareable(result, subs[twin]):
                        report(twin, result)
                    else:  # graded on its own
                        pending[pool.submit(graded, twin)] = [twin]

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        drain({pool.submit(graded, first): group for first, group in groups.items()}, pool)
    with ThreadPoolExecutor(max_workers=1) as pool:  # alone: none beside another again
        drain({pool.submit(graded, index): [index] for index in failed}, pool)
    return sorted(results, key=lambda r: r["student_id"])


def _graded_again(result: SubmissionResult | None,
                  first_error: str) -> SubmissionResult | None:
    """``result`` of a second grading, saying why there was one (once is all: a machine
    that fails it again is reported as failing)."""
    if result is not None:
        result = copy.deepcopy(result)
        note = f"graded again after the rest of the batch: its first grading failed ({first_error})"
        result.setdefault("warnings", []).insert(0, note)  # first: reports keep the first few
    return result
