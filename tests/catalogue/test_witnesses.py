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

from autograder.parts import METHOD_PART, PART_OF, PARTS

from .catalogue import load, reference_source, submission_source
from .entries import ENTRIES


@cache
def reference_namespace() -> dict:
    return load(reference_source())


def test_catalogue_covers_every_part():
    names = [entry.name for entry in ENTRIES]
    assert len(names) == len(set(names)), "entry names must be unique"
    assert len(ENTRIES) >= 30
    per_part = Counter(entry.part for entry in ENTRIES)
    assert set(per_part) == set(PARTS), per_part


def reference_method(class_name: str, method: str) -> str | None:
    """``ast.dump`` of the reference's ``class_name.method``."""
    for node in ast.parse(reference_source()).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return ast.dump(item)
    return None


def defined_parts(code: str) -> set[int]:
    """The parts whose names ``code`` (re)defines; imports and helpers define none."""
    parts = set()
    for node in ast.parse(textwrap.dedent(code)).body:
        if isinstance(node, ast.ClassDef) and any(
            (node.name, item.name) in METHOD_PART for item in node.body
            if isinstance(item, ast.FunctionDef)
        ):
            # A method copied unchanged from the reference touches nothing.
            methods = {item.name for item in node.body if isinstance(item, ast.FunctionDef)
                       and ast.dump(item) != reference_method(node.name, item.name)}
            # A whole class whose methods are all the reference's changes only the class.
            parts |= {METHOD_PART.get((node.name, m), PART_OF[node.name]) for m in methods} or {
                PART_OF[node.name]}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            parts.add(PART_OF[node.name])
        elif isinstance(node, ast.Assign):
            parts |= {PART_OF[t.id] for t in node.targets if isinstance(t, ast.Name)}
    return parts


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_touches_only_its_part(entry):
    assert defined_parts(entry.code) == {entry.part}


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_is_a_real_bug(entry):
    bug = load(submission_source(entry.code))
    entry.witness(bug, reference_namespace())
