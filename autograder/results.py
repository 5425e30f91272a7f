"""The data one graded submission produces, shared by the suite runner and the reports.

Everything here is plain JSON-able data (dicts, lists, str, int, float), so a
result can be cached on disk and read back without trusting any code.

A ``TestResult`` is one hidden test; a ``SubmissionResult`` is one student.
``status`` of a submission is ``"graded"`` when the suite ran, ``"error"`` when
it could not be graded at all (``error`` then says why, e.g. ``"timeout"``), ``"missing"``
when the student submitted nothing for the assignment (``error`` says where the batch
looked; see ``collect``). Neither of the last two has a score.
``isolation`` names the sandbox level the student's code ran at (``root``,
``userns``, ``drop``, ``basic``: see ``autograder.sandbox.limits``); the batch sets it.
``provenance`` says what graded it (``autograder.provenance``), and ``regraded``, set only
when the reports are written, what changed for this student since their previous grade
(``autograder.regrade.history``).
"""

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict, get_args

if TYPE_CHECKING:
    from .assignment import Assignment

# How a grading that the machine, not the submission, failed begins its ``error`` (a
# sandbox that cannot start, the scoring zygote lost): ``machine_failed``.
MACHINE_FAILED = "environment: "


def machine_failed(result: "SubmissionResult | None") -> bool:
    """Did the machine fail this grading, not the submission? (Not cached; the CLI warns;
    a batch grades it once more after the others.)"""
    return (result is not None and result["status"] == "error"
            and str(result.get("error", "")).startswith(MACHINE_FAILED))


Visibility = Literal["after_published", "hidden", "visible", "after_due_date"]
# Gradescope's visibilities of a test, the engine's one list of them (the CLI's choices
# in this order: the default first).
VISIBILITIES: tuple[str, ...] = get_args(Visibility)


class TestResult(TypedDict):
    id: str  # stable identifier, e.g. "part3::tie_break_smallest_pair"
    name: str  # one line a student can read
    part: int
    score: float
    max_score: float
    status: Literal["passed", "failed"]
    output: str  # student-facing message: never hidden test source or inputs
    visibility: Visibility


class PartScore(TypedDict):
    score: float
    max_score: float


class Provenance(TypedDict):
    grader: str  # "git <commit>" of the grader, else "version <x>", else "unknown"
    suite_fingerprint: str  # cache.grader_fingerprint: every file that decides the scores
    graded_at: str  # when the suite ran, UTC: "2026-11-26T20:40:00Z"
    submission_sha256: str | None  # the graded file's bytes; None when there was none


class Regraded(TypedDict):
    at: str  # when this result was graded (its provenance's graded_at)
    previous_at: str  # when the previous grade was given ("" if that grade does not say)
    tests: list[str]  # one line per test whose result changed since; empty: none did


class SubmissionResult(TypedDict):
    assignment: str  # the assignment's name: every result says what it was graded for
    student_id: str
    source: str  # path of the graded file, relative to the batch root
    status: Literal["graded", "error", "missing"]
    error: str | None  # why there is no score ("timeout", "crash", "nothing submitted: ...")
    warnings: list[str]  # e.g. cells that did not parse, statements that raised at load
    tests: list[TestResult]
    parts: dict[str, PartScore]  # keys "1".."6"
    score: float
    max_score: float
    seconds: float  # wall time of grading this submission
    isolation: NotRequired[str]  # the sandbox level the code ran at ("root", ..., "basic")
    provenance: NotRequired[Provenance]  # what graded it (batch stamps it)
    regraded: NotRequired[Regraded]  # set by the reports when a previous grade exists


def new_result(assignment: "Assignment", student_id: str, source: str,
               **fields: object) -> SubmissionResult:
    """The one way to make a result: every part of ``assignment`` at 0, then ``fields``
    (a grader that could not grade passes ``status="error", error=...``)."""
    result: SubmissionResult = {
        "assignment": assignment.name,
        "student_id": student_id,
        "source": source,
        "status": "graded",
        "error": None,
        "warnings": [],
        "tests": [],
        "parts": {str(p): {"score": 0.0, "max_score": float(m)}
                  for p, m in assignment.points.items()},
        "score": 0.0,
        "max_score": float(assignment.total),
        "seconds": 0.0,
    }
    result.update(fields)  # type: ignore[typeddict-item]
    return result
