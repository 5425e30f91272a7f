"""Smoke tests of the validity tools: the mutant generator."""

import difflib

from autograder.validity.mutants import mutants, original_source


def test_generator_gives_distinct_compilable_one_change_mutants():
    original = original_source().splitlines()
    found = mutants()
    assert len(found) >= 100
    assert len({m.source for m in found}) == len(found)
    assert len({m.key for m in found}) == len(found)
    for m in found:
        compile(m.source, m.key, "exec")
        changes = difflib.SequenceMatcher(None, original, m.source.splitlines(), autojunk=False)
        hunks = [op for op in changes.get_opcodes() if op[0] != "equal"]
        assert len(hunks) == 1, m.key


def test_generator_is_deterministic():
    first = [(m.key, m.source) for m in mutants()]
    mutants.cache_clear()
    assert [(m.key, m.source) for m in mutants()] == first
