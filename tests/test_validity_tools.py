"""Smoke tests of the validity tools: the mutant generator, which tests are timing tests,
and a tiny mutation run."""

import difflib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from autograder.suite.timers import is_timing_test, timing_tests
from autograder.validity import mutation
from autograder.validity.common import measured_on
from autograder.validity.mutants import mutants, original_source
from tests.course import PRODUCTION, TOKENIZATION


@pytest.mark.slow
def test_generator_gives_distinct_compilable_one_change_mutants():
    original = original_source(TOKENIZATION).splitlines()
    found = mutants(TOKENIZATION)
    assert len(found) >= 100
    assert len({m.source for m in found}) == len(found)
    assert len({m.key for m in found}) == len(found)
    for m in found:
        compile(m.source, m.key, "exec")
        changes = difflib.SequenceMatcher(None, original, m.source.splitlines(), autojunk=False)
        hunks = [op for op in changes.get_opcodes() if op[0] != "equal"]
        assert len(hunks) == 1, m.key


def test_generator_is_deterministic():
    first = [(m.key, m.source) for m in mutants(TOKENIZATION)]
    mutants.cache_clear()
    assert [(m.key, m.source) for m in mutants(TOKENIZATION)] == first


def test_every_reviewed_survivor_names_a_current_mutant():
    keys = {m.key for m in mutants(TOKENIZATION)}
    tables = mutation.reviews(TOKENIZATION)
    assert any(tables), "the tokenization survivors are reviewed in its folder"
    for table in tables:
        assert set(table) <= keys, set(table) - keys


def test_timing_tests_are_found_by_what_they_call_not_by_name(tmp_path):
    # The tools regrade a mutant that fails only timing tests and count a timing test's
    # false failures: they must know every one (production's merge-cost tests say neither
    # "linear" nor "time").
    assert timing_tests(TOKENIZATION.folder) == {
        "part2::test_encode_linear_time", "part2::test_decode_linear_time",
        "part3::test_encode_linear_time", "part3::test_training_time_ignores_duplication"}
    assert timing_tests(PRODUCTION.folder) == {
        "part1::test_encode_linear_time", "part3::test_merges_do_not_recount",
        "part3::test_best_pair_without_scanning", "part3::test_training_time_ignores_duplication"}
    assert is_timing_test(PRODUCTION, "part3::test_merges_do_not_recount[2]")
    (tmp_path / "helpers.py").write_text(
        "def measure(student):\n    return growth(student, lambda turn: 1, lambda turn: 2)\n")
    (tmp_path / "test_part1.py").write_text(
        "def cost(student):\n    return measure(student)\n\n"
        "def test_quiet_name(student):\n    assert cost(student) < 4\n\n"
        "def test_linear_time_in_name_only(student):\n    assert student\n")
    (tmp_path / "test_extra.py").write_text(
        "PART = 2\n\ndef test_other(student):\n    check(measure(student))\n")
    assert timing_tests(tmp_path) == {"part1::test_quiet_name", "part2::test_other"}


def test_every_slow_variant_is_meant_for_a_timing_test_and_compiles():
    from autograder.validity.timing_stability import submission, variants

    for a in (TOKENIZATION, PRODUCTION):
        timed = timing_tests(a.folder)
        for name, (override, meant_for) in variants(a).items():
            compile(submission(a, override), name, "exec")
            if meant_for is not None:  # None: an honest variant, which no test may fail
                assert [t for t in timed if meant_for.search(t)], f"{a.name}: {name}"


@pytest.mark.slow
def test_tiny_mutation_run_end_to_end(tmp_path):
    """Three mutants graded for real, the report written where asked."""
    report = tmp_path / "MUTATION.md"
    status = mutation.main(["--assignment", "tokenization", "--limit", "3", "--jobs", "3",
                            "--no-baseline", "--results", str(tmp_path / "r.jsonl"),
                            "--report", str(report)])
    assert status == 0
    text = report.read_text()
    assert text.startswith("# Mutation testing of the hidden suite: tokenization")
    assert "PARTIAL RUN: 3 of" in text
    assert "Killed 3 / 3" in text
    assert f"Measured {measured_on()}." in text  # the day and the machine, not a work round


def test_a_wrong_submission_is_ok_only_when_a_timing_test_of_its_part_caught_every_run():
    """``timing_stability --wrong``: the table counts the runs in which any timing test of
    the file's part failed; one run that slipped under every threshold misses the target."""
    from autograder.validity.timing_stability import CAUGHT, part_of, report

    files = [Path("p3_always.py"), Path("p3_once_missed.py")]
    outcomes = defaultdict(lambda: defaultdict(Counter))
    ratios = defaultdict(lambda: defaultdict(list))
    for name, caught in (("wrong: p3_always.py", 3), ("wrong: p3_once_missed.py", 2)):
        outcomes[name]["part3::test_scan"]["failed"] += caught
        outcomes[name]["part3::test_scan"]["passed"] += 3 - caught
        outcomes[name]["part4::test_other"]["failed"] += 3  # another part: not a catch
        outcomes[name][CAUGHT][True] += caught
        outcomes[name][CAUGHT][False] += 3 - caught
        ratios[name]["part3::test_scan"] += [9.0] * caught
    seconds = defaultdict(list)
    text = report(PRODUCTION, outcomes, ratios, seconds, 60.0, 3, 2, ("v", "v"), wrong=files)
    assert f"Measured {measured_on()}." in text  # the day and the machine, not a work round
    rows = {line.split(" | ")[0]: line for line in text.splitlines()
            if line.startswith("| p3_")}
    assert rows["| p3_always.py"].endswith(
        "| 3 / 3 | `part3::test_scan` 3 | test_scan: 9.0 / 9.0 / 9.0 | ok |"), rows
    assert rows["| p3_once_missed.py"].endswith("| MISSES TARGET |"), rows
    assert "| 2 / 3 |" in rows["| p3_once_missed.py"], rows
    assert part_of(Path("p12_x.py")) == 12
    with pytest.raises(SystemExit, match="named pN_"):
        part_of(Path("quadratic.py"))
