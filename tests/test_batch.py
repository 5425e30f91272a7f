"""One code, one grade, in a batch: identical files share a grading, and the result cache
can neither race nor fail a student.

The toy assignment is graded for real; only ``os.replace`` is held at a barrier, to put
two writers of one cache entry in the order that once broke a grade.
"""

import os
import threading
from pathlib import Path

import pytest

from autograder import batch
from autograder.cache import ResultCache
from autograder.collect import Submission
from autograder.sandbox.reference import reference_without
from tests.course import TOY, TOY_STUB
from tests.threads import errors_at_once


@pytest.fixture
def reference_file(tmp_path) -> Path:
    path = tmp_path / "ann.py"
    path.write_text(reference_without(TOY, 0)[0], encoding="utf-8")
    return path


def test_two_jobs_that_store_one_entry_at_once_both_succeed(monkeypatch, tmp_path,
                                                            reference_file):
    # Two students handed in the same bytes and their gradings end together: both
    # writers have written their file before either moves it into place.
    cache = ResultCache(tmp_path / "cache", TOY, options="")
    result = {"status": "graded", "score": 10.0, "tests": [], "warnings": []}
    both_written = threading.Barrier(2, timeout=20)
    replace = os.replace

    def replace_after_both(source, target):
        both_written.wait()
        replace(source, target)

    monkeypatch.setattr(os, "replace", replace_after_both)
    errors = errors_at_once(lambda: cache.put(reference_file, dict(result)), 2)
    assert not errors, errors
    assert cache.get(reference_file)["score"] == 10.0
    assert [p.name for p in cache.folder.iterdir()] == [f"{cache.key(reference_file)}.json"]


def test_a_cache_that_cannot_be_written_costs_a_rerun_not_the_grade(tmp_path, reference_file,
                                                                     capsys):
    (tmp_path / "cache").write_text("a file where the cache folder goes", encoding="utf-8")
    cache = ResultCache(tmp_path / "cache", TOY, options="")
    sub = Submission("ann", reference_file, "ann.py")
    (result,) = batch.grade_all([sub], TOY, jobs=1, cache=cache)
    assert result["status"] == "graded" and result["score"] == 10, result["error"]
    assert "ann.py: result not cached" in capsys.readouterr().err


def test_identical_files_are_graded_once_and_each_student_named(monkeypatch, tmp_path,
                                                               reference_file):
    twin = tmp_path / "bo.py"
    twin.write_bytes(reference_file.read_bytes())
    stub = tmp_path / "cy.py"
    stub.write_text(TOY_STUB, encoding="utf-8")
    subs = [Submission("ann", reference_file, "ann.py"),
            Submission("bo", twin, "bo.py", notes=["bo's own note"]),
            Submission("cy", stub, "cy.py"), Submission("dee", None, "dee", missing=True)]
    from autograder.suite import run

    graded: list[str] = []
    grade_file = run.grade_file

    def counted(path, *args, **kwargs):
        graded.append(Path(path).name)
        return grade_file(path, *args, **kwargs)

    monkeypatch.setattr(run, "grade_file", counted)
    results = {r["student_id"]: r for r in batch.grade_all(subs, TOY, jobs=2)}
    assert sorted(graded) == ["ann.py", "cy.py"]
    assert [results[s]["score"] for s in ("ann", "bo", "cy")] == [10, 10, 0]
    assert results["bo"]["source"] == "bo.py" and "bo's own note" in results["bo"]["warnings"]
    assert "bo's own note" not in results["ann"]["warnings"]
    assert results["ann"]["tests"] == results["bo"]["tests"]
    assert results["dee"]["status"] == "missing"


def test_an_error_is_not_shared_and_a_suffix_is_read_as_its_own(tmp_path, reference_file):
    for name in ("bo.ipynb", "cy.ipynb"):  # two empty notebooks: each error names its file
        (tmp_path / name).write_bytes(b"")
    twin = tmp_path / "dee.ipynb"  # the reference's bytes, read as a notebook
    twin.write_bytes(reference_file.read_bytes())
    subs = [Submission("ann", reference_file, "ann.py"),
            Submission("bo", tmp_path / "bo.ipynb", "bo.ipynb"),
            Submission("cy", tmp_path / "cy.ipynb", "cy.ipynb"),
            Submission("dee", twin, "dee.ipynb")]
    results = {r["student_id"]: r for r in batch.grade_all(subs, TOY, jobs=2)}
    assert results["ann"]["score"] == 10
    assert "bo.ipynb" in results["bo"]["error"] and "cy.ipynb" in results["cy"]["error"]
    assert "bo.ipynb" not in results["cy"]["error"]
    assert results["dee"]["status"] == "error" and "dee.ipynb" in results["dee"]["error"]


def test_a_file_that_changed_after_it_was_grouped_does_not_grade_its_twin(tmp_path,
                                                                         reference_file):
    twin = tmp_path / "bo.py"
    twin.write_bytes(reference_file.read_bytes())
    subs = [Submission("ann", reference_file, "ann.py"), Submission("bo", twin, "bo.py")]
    groups = batch.same_bytes(subs)
    assert groups == {0: [0, 1]}
    reference_file.write_text(TOY_STUB, encoding="utf-8")  # ann's file, rewritten meanwhile
    results = {r["student_id"]: r for r in batch.grade_all(subs, TOY, jobs=1, groups=groups)}
    assert results["ann"]["score"] == 0 and results["bo"]["score"] == 10


def test_a_grading_the_machine_failed_is_graded_again_once_the_others_are_done(
        monkeypatch, tmp_path, reference_file):
    # A classmate's submission filled the system's file table and ann's worker could not
    # start (an attack seen on a real batch): ann is graded again after the rest, and told why. cy's
    # second grading fails too: reported as it is. dee's crash is her own: graded once.
    for name in ("bo", "cy", "dee"):
        (tmp_path / f"{name}.py").write_bytes(reference_file.read_bytes() + f"# {name}\n".encode())
    subs = [Submission(name, tmp_path / f"{name}.py", f"{name}.py")
            for name in ("ann", "bo", "cy", "dee")]
    from autograder.suite import run

    graded: list[str] = []
    running: list[str] = []  # gradings under way now
    beside: list[tuple[str, list[str]]] = []  # what ran when each second grading began
    grade_file = run.grade_file
    failing = {"ann": "environment: the sandboxed worker did not start", "dee": "crash: boom"}

    def flaky(path, student_id, **options):
        again = student_id in graded
        if again:
            beside.append((student_id, list(running)))
        graded.append(student_id)
        running.append(student_id)
        result = grade_file(path, student_id, **options)
        if student_id == "cy" or not again and student_id in failing:
            error = failing.get(student_id, "environment: the zygote is gone")
            result = dict(result, status="error", error=error, score=0.0)
        running.remove(student_id)
        return result

    monkeypatch.setattr(run, "grade_file", flaky)
    done: list[tuple[int, int]] = []
    listed = batch.grade_all(subs, TOY, jobs=2, on_done=lambda r, n, total: done.append((n, total)))
    assert len(listed) == 4 and done == [(n, 4) for n in range(1, 5)]  # each reported once
    results = {r["student_id"]: r for r in listed}
    assert sorted(graded[4:]) == ["ann", "cy"]
    assert sorted(beside) == [("ann", []), ("cy", [])]  # after every first one, alone
    assert results["ann"]["status"] == "graded" and results["ann"]["score"] == 10
    # Among the first warnings, where the reports' cap cannot drop it (after the basic
    # level's own note, at that level).
    note = " ".join(results["ann"]["warnings"][:2])
    assert "graded again after the rest of the batch" in note and "did not start" in note
    assert results["cy"]["status"] == "error" and "zygote" in results["cy"]["error"]
    assert any("graded again" in w for w in results["cy"]["warnings"])
    assert results["dee"]["error"] == "crash: boom"
    assert results["bo"]["score"] == 10 and not any("again" in w for w in results["bo"]["warnings"])
