"""Hand our autograde to nbgrader, so that one ``nbgrader export`` holds everything.

The whole path, run in the course folder (the folder with ``nbgrader_config.py``;
``docs/instructors.md`` has every command):

1. ``nbgrader collect NAME`` (exchange) or ``nbgrader zip_collect NAME`` (LMS
   downloads) fills ``submitted/<student_id>/NAME/`` with each submission and its
   ``timestamp.txt``. ``generate_assignment`` must have run in this course before.
2. ``python -m autograder grade submitted --out graded`` grades them in our sandbox with
   the hidden suite and writes ``graded/grades.csv`` and ``graded/<student>/results.json``.
3. ``python -m autograder.handoff --course . --grades graded/grades.csv`` (this package).
4. Formgrader, opened from JupyterLab started in the course folder (menu *Nbgrader* ->
   *Formgrader*; there is no ``nbgrader formgrader`` command): a TA grades the
   ``reflection`` answer and every cell flagged for review.
5. Step 3 again: it keeps manual grades and writes each student's feedback page with them.
6. ``nbgrader export --to final.csv``: score = our autograde + the reflection (- any late
   penalty). Without ``--to`` it writes ./grades.csv, so keep step 2's output elsewhere.

A late or regraded batch: steps 1-3 (collect with ``--update``); manual grades are kept,
and one whose reflection changed is flagged for review. nbgrader needs ``alembic`` on PATH
(the venv's bin/) the first time it creates gradebook.db.

Do not run ``nbgrader autograde`` (it runs student code unsandboxed, scores only the visible
tests and would overwrite our scores) nor ``nbgrader generate_feedback`` (its page lacks the
hidden tests' messages; ours is written in the same place). This package runs no student
code. For each row of grades.csv whose student has a ``submitted/<student>/<assignment>/``
folder it:

- creates the student and the submission in the gradebook (timestamp from timestamp.txt);
- writes ``autograded/<student>/<assignment>/<notebook>.ipynb`` for formgrader
  (``copies``): the file our grader picked (``collect.pick_file``) as a notebook, cleaned
  by nbgrader's own non-executing steps, with a note in each test cell instead of an output;
- scores each part on *one* test cell, the part's first in the notebook, which holds all
  the part's points; the part's other test cells hold 0 of 0. nbgrader's cells cannot say
  which hidden test failed, so a spread would make cells lose points they did not lose.
  The part's first solution cell gets a gradebook comment listing the hidden tests that
  failed, with their messages. A test cell with a manual score is flagged for review if
  its auto score changed;
- status ``error`` (timeout, crash...): clears those auto scores and flags them as
  needing a manual grade, so they count 0 in the export until a TA scores them or a
  regrade is handed off; if the student submitted nothing gradable they get 0, as in
  nbgrader;
- other grade cells (the ``reflection``): a manual score is kept, but flagged for review
  when the reflection's text changed since the last hand-off; otherwise nbgrader's rule,
  0 if unanswered, else left for the TA. A ``.py`` whose reflection cannot be found is
  flagged for the TA, never scored 0. Solution cells get "No response." when unanswered;
- applies nbgrader's late-penalty plugin, as ``nbgrader autograde`` would;
- writes ``feedback/<student>/<assignment>/<notebook>.html`` (``feedback_page``): the hidden
  tests' messages, the reflection's grade and comment once graded, and the total over
  everything; ``nbgrader release_feedback`` hands it out through an exchange.

What is left for formgrader depends on the assignment: its written reflection when it has
one (``Assignment.reflection``), and the cells flagged above.

A ``missing`` row (the student submitted nothing for this assignment) writes nothing: no
submission, no page; ``nbgrader export`` then lists that student, if the gradebook knows
them, with nbgrader's own 0 for a missing submission. Such a row whose folder has files
by now is skipped (grade again). Other rows whose student has no submitted folder (an
unknown student) are skipped, reported, and make the exit status 1; everything else is
still handed off. Students with a submission but no row in grades.csv are reported and
left as they are. Running it twice
gives the same gradebook and files. Exit status 2: unusable course or grades.csv.
nbgrader is imported only when a hand-off runs (the grader uses ``reflection``).
"""

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gradebook import Outcome

__all__ = ["HandoffError", "Outcome", "Row", "hand_off", "read_grades"]


def __getattr__(name: str) -> object:
    """The gradebook's names, imported on first use (nbgrader takes seconds to import)."""
    if name in ("HandoffError", "Outcome", "Row", "read_grades"):
        from . import gradebook

        return getattr(gradebook, name)
    raise AttributeError(name)


def graded_assignment(grades: Path) -> str | None:
    """The assignment a ``grades.csv`` was graded for, from the ``results.json`` beside it
    (every one names it); None if none does, or if they name different ones (an output
    folder reused for another assignment: the caller asks for ``--assignment``)."""
    import json

    names = set()
    for path in Path(grades).resolve().parent.glob("*/results.json"):
        try:
            name = json.loads(path.read_text(encoding="utf-8"))["extra_data"]["assignment"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(name, str):
            names.add(name)
    return names.pop() if len(names) == 1 else None


def hand_off(course: Path, grades: Path, assignment: str | None = None) -> "Outcome":
    """Put ``grades`` into the gradebook of ``course``; see above. ``assignment`` defaults
    to the one the grades were graded for."""
    from ..assignment import load
    from .gradebook import Handoff, HandoffError, Outcome, read_grades

    if not Path(grades).is_file():
        raise HandoffError(f"{grades}: no such file; `python -m autograder grade` writes "
                           "grades.csv into its --out folder (into --out/NAME/ for each "
                           "assignment when it grades several at once)")
    assignment = assignment or graded_assignment(grades)
    if assignment is None:
        raise HandoffError(f"{grades}: cannot tell which assignment these grades are for "
                           "(no results.json beside it, or they name different ones); "
                           "pass --assignment")

    course = Path(course).resolve()
    if not course.is_dir():
        raise HandoffError(f"{course}: no such course folder")
    rows = read_grades(Path(grades), load(assignment))
    handoff = Handoff(course, assignment, Path(grades).resolve().parent)
    outcome = Outcome()
    try:
        for row in rows:
            try:
                if row.status == "missing":
                    outcome.missing[row.student_id] = handoff.missing(row)
                    continue
                outcome.handed_off[row.student_id] = handoff.row(row)
            except LookupError as exc:
                outcome.skipped[row.student_id] = str(exc)
        outcome.not_in_grades = handoff.unlisted(rows)
    finally:
        handoff.gb.close()
    return outcome
