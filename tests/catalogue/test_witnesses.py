"""The catalogue checks itself, without the grader: every entry is a real, one-part bug.

* its code defines only names of the part it is recorded under (so it cannot cost
  another part), and the submission built from it is valid Python;
* its witness shows the bug: the entry differs from the spec somewhere the reference
  does not.
"""

import ast
import textwrap
from collections import Counter
from functools import cache

import pytest

from autograder.assignment import Assignment, known
from autograder.assignment import load as assignment

from .catalogue import all_entries, catalogues, load, reference_source, submission_source

ENTRIES = all_entries()


@cache
def reference_namespace(name: str) -> dict:
    return load(reference_source(assignment(name)))


@pytest.mark.parametrize("name", known())
def test_catalogue_covers_every_part(name):
    entries = catalogues()[name].entries
    names = [entry.name for entry in entries]
    assert len(names) == len(set(names)), "entry names must be unique"
    assert len(entries) >= 30
    per_part = Counter(entry.part for entry in entries)
    assert set(per_part) == set(assignment(name).parts), per_part
    assert len(catalogues()[name].correct) >= 3


def reference_method(a: Assignment, class_name: str, method: str) -> str | None:
    """``ast.dump`` of the reference's ``class_name.method``."""
    for node in ast.parse(reference_source(a)).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return ast.dump(item)
    return None


def defined_parts(a: Assignment, code: str) -> set[int]:
    """The parts whose names ``code`` (re)defines; imports and helpers define none."""
    method_part, part_of = a.method_part, a.part_of
    parts = set()
    for node in ast.parse(textwrap.dedent(code)).body:
        if isinstance(node, ast.ClassDef) and any(
            (node.name, item.name) in method_part for item in node.body
            if isinstance(item, ast.FunctionDef)
        ):
            # A method copied unchanged from the reference touches nothing.
            methods = {item.name for item in node.body if isinstance(item, ast.FunctionDef)
                       and ast.dump(item) != reference_method(a, node.name, item.name)}
            # A whole class whose methods are all the reference's changes only the class.
            parts |= {method_part.get((node.name, m), part_of[node.name]) for m in methods} or {
                part_of[node.name]}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            parts.add(part_of[node.name])
        elif isinstance(node, ast.Assign):
            parts |= {part_of[t.id] for t in node.targets if isinstance(t, ast.Name)}
    return parts


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.assignment}:{e.name}")
def test_entry_touches_only_its_part(entry):
    assert defined_parts(assignment(entry.assignment), entry.code) == {entry.part}


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.assignment}:{e.name}")
def test_entry_is_a_real_bug(entry):
    bug = load(submission_source(assignment(entry.assignment), entry.code))
    entry.witness(bug, reference_namespace(entry.assignment))
