"""Compare two report folders of one assignment: per student, per test, and why.

A student *changed* when their total, a part's score or their status moved, or a test
flipped between passed and failed (or is in one grading only). Points moved between two
tests that the student passes both times change nobody's grade: that student is not
changed. For a changed student every test whose status or score moved is listed. Tests
are compared only where both sides were graded: a student who could not be graded on
one side changes as a whole (status, total).

Why a student's result changed comes from the provenance of their two results:
"suite changed (a → b)" when the suite fingerprints differ, "submission changed (sha
a → b)" when the graded files differ (both, when both do), and "neither: the grade is
not reproducible" when neither did: a grade must be a function of the submission and
the suite only. A result graded before provenance was recorded says "unknown".
"""

from dataclasses import dataclass, field

from .folder import NotAReport, Outcome, Report, Student

SHORT = 10  # hex digits of a fingerprint or a sha shown
EPSILON = 0.005  # scores are written with 2 decimals
NOT_REPRODUCIBLE = "neither: the grade is not reproducible"


@dataclass(frozen=True)
class TestChange:
    """One test whose result moved for one student; None: that side does not have it."""

    id: str
    old: Outcome | None
    new: Outcome | None

    @property
    def name(self) -> str:
        return (self.new or self.old).name  # type: ignore[union-attr]


@dataclass
class StudentChange:
    """One student in the union of both folders."""

    student_id: str
    old: Student | None
    new: Student | None
    tests: list[TestChange] = field(default_factory=list)
    parts: dict[str, float] = field(default_factory=dict)  # part -> delta, where it moved
    reason: str = ""

    @property
    def delta(self) -> float | None:
        """new - old; 0 when neither side has a score and nothing changed; else None."""
        if self.old is None or self.new is None:
            return None
        if self.old.total is not None and self.new.total is not None:
            return round(self.new.total - self.old.total, 2)
        return 0.0 if not self.changed else None

    @property
    def changed(self) -> bool:
        if self.old is None or self.new is None:
            return True
        moved = (self.old.total is None) != (self.new.total is None) or (
            self.old.total is not None and self.new.total is not None
            and abs(self.new.total - self.old.total) > EPSILON)
        flipped = any(t.old is None or t.new is None or t.old.status != t.new.status
                      for t in self.tests)
        return bool(moved or flipped or self.parts or self.old.status != self.new.status)


@dataclass
class Diff:
    """Everything ``diff`` found between ``old`` and ``new``."""

    old: Report
    new: Report
    students: list[StudentChange]

    @property
    def both(self) -> list[StudentChange]:
        return [s for s in self.students if s.old is not None and s.new is not None]

    @property
    def changed(self) -> list[StudentChange]:
        return [s for s in self.both if s.changed]

    def only_in(self, side: str) -> list[str]:
        return [s.student_id for s in self.students if getattr(s, side) is None]

    def flips(self) -> dict[str, tuple[int, int, int]]:
        """Per changed test id: students who went pass → fail, fail → pass, and in all."""
        counts: dict[str, list[int]] = {}
        for student in self.changed:
            for test in student.tests:
                before = test.old.status if test.old else None
                after = test.new.status if test.new else None
                count = counts.setdefault(test.id, [0, 0, 0])
                count[0] += before == "passed" and after == "failed"
                count[1] += before == "failed" and after == "passed"
                count[2] += 1
        return {tid: (a, b, n) for tid, (a, b, n) in sorted(counts.items())}


def changed_tests(old: Student, new: Student) -> list[TestChange]:
    """The tests whose status or score moved (none unless both sides were graded)."""
    if old.status != "graded" or new.status != "graded":
        return []
    changes = []
    for tid in sorted(old.tests.keys() | new.tests.keys()):
        before, after = old.tests.get(tid), new.tests.get(tid)
        if before is None or after is None or before.status != after.status \
                or abs(before.score - after.score) > EPSILON:
            changes.append(TestChange(tid, before, after))
    return changes


def _part_changes(old: Student, new: Student) -> dict[str, float]:
    moved = {}
    for part in sorted(old.parts.keys() | new.parts.keys(), key=lambda p: (len(p), p)):
        before, after = old.parts.get(part), new.parts.get(part)
        if before is not None and after is not None and abs(after - before) > EPSILON:
            moved[part] = round(after - before, 2)
    return moved


def _short(value: object) -> str:
    return str(value)[:SHORT] if value else "none"


def reason(old: Student, new: Student) -> str:
    """Why ``old`` and ``new`` differ, from their provenance (module doc)."""
    before, after = old.provenance, new.provenance
    if not before.get("suite_fingerprint") or not after.get("suite_fingerprint"):
        return "unknown: a result has no provenance (graded before it was recorded)"
    why = []
    if before["suite_fingerprint"] != after["suite_fingerprint"]:
        why.append(f"suite changed ({_short(before['suite_fingerprint'])} → "
                   f"{_short(after['suite_fingerprint'])})")
    if before.get("submission_sha256") != after.get("submission_sha256"):
        why.append(f"submission changed (sha {_short(before.get('submission_sha256'))} → "
                   f"{_short(after.get('submission_sha256'))})")
    return "; ".join(why) or NOT_REPRODUCIBLE


def diff(old: Report, new: Report) -> Diff:
    """Compare ``old`` with ``new``; ``NotAReport`` when they grade different assignments."""
    if old.assignment != new.assignment:
        raise NotAReport(f"{old.folder} grades {old.assignment!r} but {new.folder} grades "
                         f"{new.assignment!r}: a diff compares two gradings of one assignment")
    students = []
    for sid in sorted(old.students.keys() | new.students.keys()):
        before, after = old.students.get(sid), new.students.get(sid)
        both = before is not None and after is not None
        students.append(compare_students(before, after) if both  # type: ignore[arg-type]
                        else StudentChange(sid, before, after))
    return Diff(old, new, students)


def compare_students(old: Student, new: Student) -> StudentChange:
    """How one student's result moved from ``old`` to ``new`` (module doc)."""
    change = StudentChange(new.student_id, old, new, changed_tests(old, new),
                           _part_changes(old, new))
    if change.changed:
        change.reason = reason(old, new)
    else:
        change.tests = []  # scores moved between tests, the grade did not
    return change
