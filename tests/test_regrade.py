"""Regrades on real gradings of the toy assignment: ``diff``, the history, provenance, pages.

Every folder compared here was written by ``python -m autograder grade`` (the toy class
graded once per module, then copied with its cache, so a regrade grades only what
changed). A second real assignment's run is ``test_a_real_assignment_regrade``.
"""

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.assignment import load
from autograder.handoff.feedback_page import load_result
from autograder.report.feedback import feedback_html
from autograder.sandbox.reference import reference_without
from tests.course import TOY, TOY_STUB

ROOT = Path(__file__).resolve().parents[1]
ODD = '=odd, "id"'  # a formula start, a comma and quotes: the CSV must keep it whole
PROVENANCE = {"assignment", "isolation", "grader", "suite_fingerprint", "graded_at",
              "submission_sha256"}


def run(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def grade(tree: Path, out: Path, assignment: Path = TOY.folder, *extra: str):
    done = run("grade", tree, "--out", out, "--assignment", assignment, "--jobs", "2", *extra)
    assert done.returncode == 0, done.stderr
    return done


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return {row["student_id"]: row for row in csv.DictReader(file)}


def changed(path: Path) -> dict[str, dict[str, str]]:
    return {sid: row for sid, row in rows(path).items() if row["delta"] != "0"}


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    reference = reference_without(TOY, 0)[0]
    no_type_check = reference.replace(
        "    if not isinstance(text, str):\n        raise TypeError('count_words expects a str')\n",
        "")
    assert no_type_check != reference
    drops_short_words = reference.replace("        if word:", "        if len(word) > 1:")
    assert drops_short_words != reference
    return {"ann": reference, "bo": TOY_STUB, "cy": drops_short_words, "dee": no_type_check,
            ODD: reference, "history": reference}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, sources) -> tuple[Path, Path]:
    """The toy class and its reports, graded once; tests work on copies."""
    base = tmp_path_factory.mktemp("graded")
    tree = base / "class"
    tree.mkdir()
    for student, code in sources.items():
        (tree / f"{student}.py").write_text(code, encoding="utf-8")
    grade(tree, base / "out")
    return tree, base / "out"


@pytest.fixture
def copy(tmp_path, graded) -> tuple[Path, Path]:
    tree, out = graded
    shutil.copytree(tree, tmp_path / "class")
    shutil.copytree(out, tmp_path / "out")
    return tmp_path / "class", tmp_path / "out"


def test_every_result_says_what_graded_it(graded):
    _, out = graded
    for path in out.glob("*/results.json"):
        given = json.loads(path.read_text(encoding="utf-8"))["extra_data"]["provenance"]
        assert set(given) == PROVENANCE and all(given.values()), path
        assert given["assignment"] == "toy"
        assert re.fullmatch(r"(git [0-9a-f]{40}|version .+)", given["grader"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", given["graded_at"])
        assert re.fullmatch(r"[0-9a-f]{64}", given["submission_sha256"])


def test_a_replaced_submission_names_that_student_and_its_tests(copy, sources):
    tree, out = copy
    (tree / "cy.py").write_text(sources["ann"], encoding="utf-8")  # cy fixes Part 1
    (tree / "eve.py").write_text(TOY_STUB, encoding="utf-8")  # a newcomer
    done = grade(tree, out)
    history = sorted((out / "history").iterdir())
    assert len(history) == 1 and f"Previous reports kept in {history[0]}/" in done.stdout
    assert "6 students compared: 1 changed (1 up, 0 down" in done.stdout
    assert "submission changed (sha" in done.stdout
    assert re.search(r"Same file handed in by: .*\bann\b.*\bcy\b", done.stdout)
    table = rows(out / "regrade.csv")
    assert changed(out / "regrade.csv") == {
        "cy": {"student_id": "cy", "old_total": "7", "new_total": "10", "delta": "3",
               "parts_changed": "1:+3", "tests_changed": "part1::test_counts"},
        "eve": {"student_id": "eve", "old_total": "", "new_total": "0", "delta": "",
                "parts_changed": "", "tests_changed": ""}}
    assert table["'" + ODD]["delta"] == "0" and table["history"]["delta"] == "0"
    report = (out / "regrade.md").read_text(encoding="utf-8")
    assert "### cy: 7 → 10 (+3)" in report and "count\\_words counts every word" in report
    # The previous reports are all kept, the "history" student's folder too.
    assert rows(history[0] / "grades.csv")["cy"]["total"] == "7"
    assert (history[0] / "_history" / "results.json").is_file()
    page = (out / "cy" / "feedback.html").read_text(encoding="utf-8")
    assert "Regraded on" in page and "count_words counts every word: failed 0 / 3 → passed" \
        in page
    assert "Regraded on" not in (out / "ann" / "feedback.html").read_text(encoding="utf-8")
    handed = load_result(out, "cy")  # the hand-off's page keeps the line
    assert "count_words counts every word: failed 0 / 3 → passed" in feedback_html(handed, TOY)


def test_a_suite_change_names_exactly_the_students_it_moves(copy, tmp_path):
    tree, out = copy
    suite = tmp_path / "v2" / "toy"  # a copy of the assignment, one test's points moved
    shutil.copytree(TOY.folder, suite, ignore=shutil.ignore_patterns("__pycache__"))
    tests = suite / "test_part1.py"
    text = tests.read_text(encoding="utf-8")
    text = text.replace("@pytest.mark.points(3)\ndef test_counts",
                        "@pytest.mark.points(2)\ndef test_counts")
    text = text.replace("@pytest.mark.points(1)\ndef test_type_error",
                        "@pytest.mark.points(2)\ndef test_type_error")
    tests.write_text(text, encoding="utf-8")
    done = grade(tree, out, suite)
    assert changed(out / "regrade.csv") == {
        "cy": {"student_id": "cy", "old_total": "7", "new_total": "8", "delta": "1",
               "parts_changed": "1:+1", "tests_changed": "part1::test_type_error"},
        "dee": {"student_id": "dee", "old_total": "9", "new_total": "8", "delta": "-1",
                "parts_changed": "1:-1", "tests_changed": "part1::test_counts"}}
    assert re.search(r"why: suite changed \([0-9a-f]{10} → [0-9a-f]{10}\): 2 students",
                     done.stdout)
    assert "not reproducible" not in done.stdout


@pytest.mark.slow
def test_grading_twice_changes_nothing(copy):
    tree, out = copy
    again = grade(tree, out)
    assert "6 students compared: 0 changed" in again.stdout
    forced = grade(tree, out, TOY.folder, "--force")  # graded anew: same grades
    assert "6 students compared: 0 changed" in forced.stdout
    assert "not reproducible" not in forced.stdout
    assert len(list((out / "history").iterdir())) == 2
    page = (out / "bo" / "feedback.html").read_text(encoding="utf-8")
    assert "Regraded on" in page and "No test changed since the previous grade" in page


def test_diff_of_two_folders(copy, graded):
    tree, out = copy
    (tree / "bo.py").unlink()  # bo is in the old folder only
    grade(tree, out)
    old = next((out / "history").iterdir())
    done = run("diff", old, out)
    assert done.returncode == 0, done.stderr
    assert "5 students compared: 0 changed" in done.stdout
    assert f"Only in {old} (1): bo" in done.stdout
    assert rows(out / "regrade.csv")["bo"] == {
        "student_id": "bo", "old_total": "0", "new_total": "", "delta": "",
        "parts_changed": "", "tests_changed": ""}
    assert not list(out.glob("regrade.*.*"))  # the same diff again: nothing to keep
    done = run("diff", graded[1], out)  # another old folder: the previous files are kept
    assert done.returncode == 0, done.stderr
    assert len(list(out.glob("regrade.*.md"))) == 1  # it names the other folder


@pytest.mark.slow
def test_folders_that_cannot_be_compared_are_refused(copy, tmp_path):
    tree, out = copy
    other = tmp_path / "other"  # the same tests under another assignment's name
    shutil.copytree(TOY.folder, other, ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "bo.py").unlink()
    grade(tree, tmp_path / "other-out", other)
    done = run("diff", out, tmp_path / "other-out")
    assert done.returncode == 2
    assert "grades 'toy' but" in done.stderr and "grades 'other'" in done.stderr
    assert not (tmp_path / "other-out" / "regrade.csv").exists()
    for bad in (tmp_path / "nowhere", tree):
        done = run("diff", bad, out)
        assert done.returncode == 2 and str(bad) in done.stderr, done.stderr


def test_a_hand_edited_grades_csv(copy):
    _, out = copy
    grades = out / "grades.csv"
    text = grades.read_text(encoding="utf-8")
    edited = out.parent / "edited"
    shutil.copytree(out, edited)
    (edited / "grades.csv").write_text(text.replace("dee,3,6,9", "dee,3,6,10"), "utf-8")
    done = run("diff", out, edited)
    assert done.returncode == 0, done.stderr
    assert "dee: grades.csv says 10 but results.json says 9" in done.stdout
    assert changed(edited / "regrade.csv")["dee"]["delta"] == "1"
    (edited / "grades.csv").write_text(text.replace("dee,3,6,9", "dee,3,6,nine"), "utf-8")
    done = run("diff", out, edited)
    assert done.returncode == 2 and "'nine' is not a number" in done.stderr
    (edited / "grades.csv").unlink()
    done = run("diff", out, edited)
    assert done.returncode == 2 and "no grades.csv" in done.stderr


@pytest.mark.slow  # the sample class graded twice; the toy tests above check the same
@pytest.mark.parametrize("name", ["tokenization", "tokens_to_vectors"])
def test_a_real_assignment_regrade(name, tmp_path):
    """A course assignment on its samples: bob resubmits alice's notebook; a student who
    handed in only another assignment is missing in both runs, never regraded."""
    tree = tmp_path / "submitted"
    for student in (ROOT / "samples" / "submitted").iterdir():
        if (student / name).is_dir():
            shutil.copytree(student / name, tree / student.name / name)
    (tree / "absent" / "other_assignment").mkdir(parents=True)
    (tree / "absent" / "other_assignment" / "answer.py").write_text("x = 1\n")
    out, notebook = tmp_path / "out", Path(name) / f"{name}.ipynb"
    grade(tree, out, load(name).folder)
    assert rows(out / "grades.csv")["absent"]["status"] == "missing"
    before = json.loads((out / "bob_buggy" / "results.json").read_text(encoding="utf-8"))
    failed = sorted(t["extra_data"]["id"] for t in before["tests"] if t["status"] == "failed")
    assert failed, "bob_buggy should fail some test"
    shutil.copyfile(tree / "alice_correct" / notebook, tree / "bob_buggy" / notebook)
    done = grade(tree, out, load(name).folder)
    table = changed(out / "regrade.csv")
    assert list(table) == ["bob_buggy"], done.stdout
    assert table["bob_buggy"]["new_total"] == "100"
    assert table["bob_buggy"]["tests_changed"].split(";") == failed
    assert "1 changed (1 up, 0 down" in done.stdout and "submission changed (sha" in done.stdout
    assert rows(out / "grades.csv")["absent"]["status"] == "missing"
    page = (out / "bob_buggy" / "feedback.html").read_text(encoding="utf-8")
    assert page.count("→ passed") == len(failed)


def test_a_cached_result_shared_by_identical_files_is_not_a_regrade():
    """Files with the same bytes graded at once each get their own time, but the cache
    keeps one of them: reused later, it is the same grading, whoever it was made for."""
    from autograder.regrade.history import same_grading

    old = {"submission_sha256": "a" * 64, "suite_fingerprint": "f1",
           "graded_at": "2026-11-26T10:00:01Z"}
    twin = {**old, "graded_at": "2026-11-26T10:00:03Z"}  # the twin's grading, from the cache
    written = "2026-11-26T10:00:04Z"  # the previous report's newest grading
    assert same_grading(old, twin, written)
    forced = {**old, "graded_at": "2026-11-26T10:05:00Z"}  # graded again after that report
    assert not same_grading(old, forced, written)
    assert not same_grading(old, {**twin, "suite_fingerprint": "f2"}, written)
    assert not same_grading(old, {**twin, "submission_sha256": "b" * 64}, written)
