"""The hidden autograder against the catalogue: every wrong implementation loses points in
its own part and nothing elsewhere; every correct implementation scores full marks, but for
the one convention test a correct alternative named by the contract loses (``Correct.loses``),
whose message must name the convention it saw (``Correct.named``).

Grading runs ``autograder.suite.run.grade_file`` on each catalogue submission (see
``grading.py`` for the bundles). An entry the suite does not catch carries ``gap``, the
test that would catch it, and is an expected failure here until the suite has it.

Environment: ``CATALOGUE_JOBS`` (parallel gradings, default 3), ``CATALOGUE_SOLO=1``
(grade every entry alone: the strictest isolation check, about four times slower),
``CATALOGUE_REPORT=path.json`` (per submission: entries, lost points, failed tests).
Every test's id starts with its assignment's name (``tokens_to_vectors:p2_...``), so
``-k NAME`` runs, and grades, one assignment's catalogue only.
"""

import pytest

from autograder.assignment import load
from autograder.suite.timers import is_timing_test

from .catalogue import all_entries, catalogues
from .grading import failed_tests, lost, messages

ENTRIES = all_entries()

# Grading the whole catalogue happens in the first test that asks for it.
pytestmark = [pytest.mark.timeout(1800), pytest.mark.slow]


def graded(catalogue_grades, entry):
    job_of, results = catalogue_grades(entry.assignment)
    job = job_of[entry.name]
    result = results[job.key]
    assert result["status"] == "graded", f"{job.key}: {result['error']}"
    return job, result


def label(entry) -> str:
    """A test's id: ``assignment:entry``, so ``-k NAME`` selects one assignment's catalogue."""
    return f"{entry.assignment}:{entry.name}"


def entry_params():
    for entry in ENTRIES:
        marks = [pytest.mark.xfail(strict=True, reason=entry.gap)] if entry.gap else []
        yield pytest.param(entry, id=label(entry), marks=marks)


@pytest.mark.parametrize("entry", list(entry_params()))
def test_wrong_implementation_loses_points_in_its_part(catalogue_grades, entry):
    job, result = graded(catalogue_grades, entry)
    assert lost(result, entry.part) > 0, (
        f"{entry.name} (Part {entry.part}: {entry.misconception}) scored full marks in {job.key}"
    )


@pytest.mark.parametrize("entry", [pytest.param(e, id=label(e)) for e in ENTRIES])
def test_wrong_implementation_costs_nothing_elsewhere(catalogue_grades, entry):
    job, result = graded(catalogue_grades, entry)
    leaks = {
        part: failed_tests(result, part)
        for part in job.assignment.points
        if part not in job.bug_parts and lost(result, part) > 0
    }
    assert not leaks, (f"{job.key} ({sorted(e.name for e in job.entries)}) lost points in "
                       f"{leaks}" + messages(result, sum(leaks.values(), [])))


@pytest.mark.parametrize("entry", [pytest.param(e, id=label(e)) for e in ENTRIES if e.spares])
def test_one_fault_is_charged_once(catalogue_grades, entry):
    job, result = graded(catalogue_grades, entry)
    charged = sorted(set(entry.spares) & set(failed_tests(result)))
    assert not charged, (f"{entry.name} ({entry.misconception}) was also charged by {charged}"
                         + messages(result, charged))


@pytest.mark.parametrize("entry", [pytest.param(e, id=label(e)) for e in ENTRIES if e.timed])
def test_an_entry_marked_timed_is_caught_by_a_timing_test(catalogue_grades, entry):
    """``Entry.timed`` is what ``make timing-stability`` grades under load: a marked entry
    must be one that a timing test catches."""
    job, result = graded(catalogue_grades, entry)
    timing = [t for t in failed_tests(result, entry.part) if is_timing_test(job.assignment, t)]
    assert timing, (f"{entry.name} is marked timed but no timing test of Part {entry.part} "
                    f"failed: {failed_tests(result, entry.part)}")


@pytest.mark.parametrize("name", sorted(catalogues()))
def test_every_entry_caught_by_timing_tests_alone_is_marked_timed(catalogue_grades, name):
    """The other way round: an entry that only timing tests catch (a slow design, or a
    fault only their long inputs show) is one whose catch ``make timing-stability`` must
    see under load."""
    unmarked = []
    for entry in catalogues()[name].entries:
        if entry.timed or entry.gap:
            continue
        job, result = graded(catalogue_grades, entry)
        failed = failed_tests(result, entry.part)
        if failed and all(is_timing_test(job.assignment, t) for t in failed):
            unmarked.append(f"{entry.name}: {failed}")
    assert not unmarked, unmarked


@pytest.mark.parametrize("name", sorted(catalogues()))
def test_no_submission_of_the_catalogue_meets_an_internal_error(catalogue_grades, name):
    """A hidden test that raises on some reply (a check that assumed numbers, say) tells the
    student only that the grader could not run it: a reply of any type must be judged. Every
    grading of the catalogue, wrong and correct, is free of such errors."""
    _, results = catalogue_grades(name)
    broken = sorted(f"{key}: {test['id']}" for key, result in results.items()
                    for test in result.get("tests", ())
                    if "(InternalError" in str(test["output"]))
    assert not broken, broken


def correct_params():
    for name, catalogue in catalogues().items():
        for correct in catalogue.correct:
            marks = [pytest.mark.xfail(strict=True, reason=correct.gap)] if correct.gap else []
            yield pytest.param(name, correct, id=f"{name}:{correct.name}", marks=marks)


@pytest.mark.parametrize(("name", "correct"), list(correct_params()))
def test_correct_implementation_scores_full_marks(catalogue_grades, name, correct):
    """Full marks, but for the one convention test a named alternative loses
    (``Correct.loses``): every other point it lost is a point the grader wrongly took."""
    _, results = catalogue_grades(name)
    result = results[f"correct:{correct.name}"]
    assert result["status"] == "graded", result["error"]
    meant = {t["id"]: float(t["max_score"]) for t in result["tests"] if t["id"] in correct.loses}
    losses = {}
    for part in load(name).points:
        own = sum(points for test, points in meant.items() if test.startswith(f"part{part}::"))
        if lost(result, part) > own:
            losses[part] = [test for test in failed_tests(result, part) if test not in meant]
    beyond = (f" beyond {sorted(meant)}, the test of its convention "
              f"({'; '.join(correct.named)})" if meant else "")
    assert not losses, (f"{correct.name} ({correct.description}) lost points{beyond}: "
                        f"{losses}" + messages(result, sum(losses.values(), [])))


def said(result: dict, test: str) -> str:
    """The whole feedback of ``test`` in ``result``, its white space made single spaces."""
    return " ".join(" ".join(str(t["output"]) for t in result["tests"] if t["id"] == test).split())


@pytest.mark.parametrize(("name", "correct"), [
    pytest.param(name, correct, id=f"{name}:{correct.name}")
    for name, catalogue in catalogues().items() for correct in catalogue.correct
    if correct.loses])
def test_correct_alternative_loses_its_convention_test_by_name(catalogue_grades, name,
                                                               correct):
    """The other way round: a named alternative does lose its convention test (the suite
    saw the convention), and the test's message names the convention it saw, so the
    student learns which one they followed rather than that their values are wrong."""
    _, results = catalogue_grades(name)
    result = results[f"correct:{correct.name}"]
    assert result["status"] == "graded", result["error"]
    kept = sorted(set(correct.loses) - set(failed_tests(result)))
    assert not kept, (f"{correct.name} ({correct.description}) passed {kept}: the test of "
                      "its convention did not see that it follows another one")
    feedback = " ".join(said(result, test) for test in correct.loses)
    missing = [words for words in correct.named if words not in feedback]
    assert not missing, (f"{correct.name}: the message of {list(correct.loses)} should name "
                         f"{missing}" + messages(result, list(correct.loses)))
