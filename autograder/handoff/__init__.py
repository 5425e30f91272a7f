"""Hand our autograde to nbgrader, so that one ``nbgrader export`` holds everything.

The whole path, run in the course directory (the folder with ``nbgrader_config.py``):

1. ``nbgrader collect tokenization`` (exchange) or ``nbgrader zip_collect tokenization``
   (LMS downloads) fills ``submitted/<student_id>/tokenization/`` with each notebook and
   its ``timestamp.txt``. ``generate_assignment`` must have run in this course before.
2. ``python -m autograder grade submitted --out graded`` grades them in our sandbox with
   the hidden suite and writes ``graded/grades.csv``.
3. ``python -m autograder.handoff --course . --grades graded/grades.csv`` (this package).
4. ``nbgrader formgrader``: a TA grades the ``reflection`` answer (and may override any
   test cell: a manual score beats our auto score).
5. ``nbgrader export --to final.csv``: score = our autograde + the reflection (- any late
   penalty). Without ``--to`` it writes ./grades.csv, so keep step 2's output elsewhere.

A late or regraded batch: repeat steps 2-3; manual grades are kept. nbgrader needs
``alembic`` on PATH (the venv's bin/) the first time it creates gradebook.db.

Do not run ``nbgrader autograde``: it runs student code unsandboxed, scores only the
visible tests, and would overwrite our scores. This package runs no student code. For each
row of grades.csv whose student has a ``submitted/<student>/<assignment>/`` folder it:

- creates the student and the submission in the gradebook (timestamp from timestamp.txt);
- writes ``autograded/<student>/<assignment>/<notebook>.ipynb`` for formgrader: the
  notebook our grader picked (``collect.pick_file``), cleaned by nbgrader's own
  non-executing steps (clear outputs, restore locked cells, metadata checks), with a note
  in each test cell instead of an output; timestamp.txt is copied so formgrader shows the
  submission as autograded;
- status ``graded``: splits each part's score over that part's test cells
  (``test_part<N>_...``) in proportion to their points, as ``auto_score``. A test cell
  with a manual score is flagged for review only if its auto score changed;
- status ``error`` (timeout, crash...): clears those auto scores and flags the test cells
  as needing a manual grade, so they count 0 in the export until a TA scores them or a
  regrade is handed off, and the reflection still gets graded; if the student submitted
  nothing gradable, the test cells get 0 and need no manual grade, as in nbgrader;
- other grade cells (the ``reflection``), unless they already have a manual score, which
  is never touched: nbgrader's rule, 0 and no manual grade needed if unanswered (or no
  notebook was submitted), else left for the TA; solution cells get "No response." when
  unanswered;
- applies nbgrader's late-penalty plugin, as ``nbgrader autograde`` would.

Rows whose student has no submitted folder (an unknown student) are skipped, reported,
and make the exit status 1; everything else is still handed off. Students with a
submission but no row in grades.csv are reported and left as they are. Running it twice
gives the same gradebook and files. Exit status 2: unusable course or grades.csv.
"""

from pathlib import Path

from .gradebook import Handoff, HandoffError, Outcome, Row, cell_shares, read_grades

__all__ = ["HandoffError", "Outcome", "Row", "cell_shares", "hand_off", "read_grades"]


def hand_off(course: Path, grades: Path, assignment: str = "tokenization") -> Outcome:
    """Put ``grades`` into the gradebook of ``course``; see above."""
    course = Path(course).resolve()
    if not course.is_dir():
        raise HandoffError(f"{course}: no such course folder")
    rows = read_grades(Path(grades))
    handoff = Handoff(course, assignment)
    outcome = Outcome()
    try:
        for row in rows:
            try:
                outcome.handed_off[row.student_id] = handoff.row(row)
            except LookupError as exc:
                outcome.skipped[row.student_id] = str(exc)
        outcome.not_in_grades = handoff.unlisted(rows)
    finally:
        handoff.gb.close()
    return outcome


