"""Smoke tests of the validity tools: the mutant generator, and a tiny mutation run."""

import difflib

from autograder.validity import mutation
from autograder.validity.mutants import mutants, original_source
from tests.course import TOKENIZATION


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
