"""Each student's one feedback page, written by the hand-off where nbgrader keeps feedback.

``feedback/<student>/<assignment>/<notebook>.html`` holds the grader's page (every hidden
test with its message, read back from the grader's ``<student>/results.json``) plus what
the gradebook knows: the reflection's grade and comment once a TA has graded it, scores a
TA changed, the late penalty, and the total over everything; the grader's "regraded" note
(which tests changed since the previous grade) is kept. ``timestamp.txt`` and the
``submission_secret.txt`` of an exchange submission go next to it, which is what
``nbgrader release_feedback`` needs to hand the page out (a page of a student who did not
submit through the exchange gets a secret nobody holds: release_feedback then skips no
one, and that student's page is sent by other means).
"""

import secrets
import shutil
from datetime import UTC, datetime
from pathlib import Path

from ..assignment import Assignment
from ..report import student_dir_name
from ..report.feedback import HandGraded, Overall, write_feedback
from ..report.format import one_line, points
from ..report.schema import check_gradescope_file
from .reflection import GRADE_ID

MESSAGE = 160  # characters of a failed test's message in gradebook comments and notes


def load_result(graded: Path, student: str) -> dict | None:
    """The grader's result for ``student`` from ``graded/<student>/results.json``, if valid."""
    path = graded / student_dir_name(student) / "results.json"
    try:
        data = check_gradescope_file(path)
    except Exception:  # missing or not ours: the page is simply not written
        return None
    extra = data["extra_data"]
    graded_ok = extra.get("status") == "graded"
    tests = [{
        "id": t.get("extra_data", {}).get("id", t["name"]),
        "name": t["name"].split(": ", 1)[-1], "part": int(t["number"].split(".")[0]),
        "score": t["score"], "max_score": t["max_score"], "status": t["status"],
        "output": t.get("output", ""), "visibility": t.get("visibility", "visible"),
    } for t in data["tests"]] if graded_ok else []
    output = data.get("output", "").splitlines()
    return {
        "student_id": extra.get("student_id", student), "status": extra.get("status"),
        "error": extra.get("error"), "tests": tests, "parts": extra["parts"],
        "source": output[0].removeprefix("Graded file: ") if output else "",
        "warnings": [w[2:] for w in output if w.startswith("- ")],
        "score": data["score"], "max_score": sum(p["max_score"] for p in extra["parts"].values()),
        "seconds": data.get("execution_time", 0.0),
        **({"regraded": extra["regraded"]} if _is_regraded(extra.get("regraded")) else {}),
    }


def _is_regraded(value: object) -> bool:
    """A ``regraded`` note as the grader writes it (``results.Regraded``), so the page has it."""
    return (isinstance(value, dict) and isinstance(value.get("at"), str)
            and isinstance(value.get("previous_at"), str) and isinstance(value.get("tests"), list)
            and all(isinstance(line, str) for line in value["tests"]))


def failed_tests(result: dict | None) -> dict[int, list[str]]:
    """One line per failed hidden test, by part: name, points and message."""
    failed: dict[int, list[str]] = {}
    for test in (result or {}).get("tests", []):
        if test["status"] != "passed":
            failed.setdefault(int(test["part"]), []).append(
                f"- {test['name']} ({points(test['score'])} / {points(test['max_score'])}): "
                f"{one_line(test['output'], MESSAGE)}")
    return failed


def write_page(folder: Path, notebook: str, result: dict, submission, submitted: Path,
               assignment: "Assignment") -> Path:
    """Write the page of one student from ``result`` and their gradebook ``submission``."""
    comments = {c.cell.name: c.manual_comment or c.auto_comment or "" for c in
                submission.comments}
    hand = []
    for grade in sorted(submission.grades, key=lambda g: g.cell.name):
        name = grade.cell.name
        if name == GRADE_ID or not name.startswith("test_part"):
            score = grade.manual_score if grade.manual_score is not None else grade.auto_score
            pending = grade.needs_manual_grade or score is None
            hand.append(HandGraded("Q3: written reflection" if name == GRADE_ID else name,
                                   None if pending else float(score), float(grade.max_score),
                                   comments.get(name, "")))
        elif grade.manual_score is not None and grade.manual_score != grade.auto_score:
            hand.append(HandGraded(f"{name} (set by the course staff)",
                                   float(grade.manual_score), float(grade.max_score)))
    pending = any(g.needs_manual_grade for g in submission.grades)
    overall = Overall(float(submission.score), float(submission.max_score), pending,
                      float(submission.late_submission_penalty or 0.0))
    folder.mkdir(parents=True, exist_ok=True)
    page = write_feedback(result, folder / f"{notebook}.html", assignment, hand, overall)
    # nbgrader release_feedback needs both files for every page: an LMS download
    # (zip_collect) has neither, so it gets the gradebook's time and a secret of its own.
    if (submitted / "timestamp.txt").is_file():
        shutil.copyfile(submitted / "timestamp.txt", folder / "timestamp.txt")
    elif not (folder / "timestamp.txt").is_file():
        stamp = submission.assignment.timestamp or datetime.now(UTC)
        (folder / "timestamp.txt").write_text(stamp.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
    if (submitted / "submission_secret.txt").is_file():
        shutil.copyfile(submitted / "submission_secret.txt", folder / "submission_secret.txt")
    elif not (folder / "submission_secret.txt").is_file():
        (folder / "submission_secret.txt").write_text(secrets.token_hex(16))
    return page
