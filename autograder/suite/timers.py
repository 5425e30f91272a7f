"""Which hidden tests measure time, read from their source (``timing_tests``).

A test is a timing test when it calls ``remote.growth`` (or ``growth_or_plain``), directly
or through functions of its folder's modules, whatever its name says. The plugin reads it
(a timing test's failure charges no deviation of output, ``judged.forgive``), and so
do the validity tools (a mutant that fails only timing tests is graded again). Pure
``ast``: it imports nothing of the suite and runs nothing.
"""

import ast
import re
from functools import cache
from pathlib import Path

from ..assignment import Assignment

# The engine's ways to time student code (``suite/remote.py``: ``growth``,
# ``growth_or_plain``, which retries it on plain inputs, and ``growth_in_memory``, which
# reports running out of memory in words): a test that reaches one measures time, whatever
# it is called.
TIMING_PRIMITIVES = frozenset({"growth", "growth_or_plain", "growth_in_memory"})


def _called(function: ast.AST) -> set[str]:
    """The plain names a function calls, nested functions and lambdas included."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
    return names


def _part(module: ast.Module, path: Path) -> int | None:
    """The part of a test module as the plugin sees it: ``PART = N``, else its file name."""
    for node in module.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and any(isinstance(t, ast.Name) and t.id == "PART" for t in node.targets)):
            return node.value.value
    found = re.search(r"test_part(\d+)", path.name)
    return int(found.group(1)) if found else None


@cache
def timing_tests(folder: Path) -> frozenset[str]:
    """Ids (``partN::test_name``) of the hidden tests in ``folder`` that measure time: those
    that call ``remote.growth`` (or ``growth_or_plain``), directly or through functions of
    the folder's modules.
    Read from the source, so a timing test is found whatever its name says."""
    calls: dict[str, set[str]] = {}
    tests: list[tuple[int | None, str]] = []
    for path in sorted(folder.glob("*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        part = _part(module, path)
        for node in module.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                calls.setdefault(node.name, set()).update(_called(node))
                if path.name.startswith("test_") and node.name.startswith("test"):
                    tests.append((part, node.name))
    timed, grown = set(TIMING_PRIMITIVES), True
    while grown:  # every function that reaches a timed one is timed
        reaching = {name for name, called in calls.items() if called & timed}
        grown = not reaching <= timed
        timed |= reaching
    return frozenset(f"part{part}::{name}" for part, name in tests if name in timed)


def is_timing_test(a: Assignment, test_id: str) -> bool:
    """True for the assignment's timing tests (``timing_tests``); a parametrised id's
    ``[...]`` is left out."""
    return test_id.split("[", 1)[0] in timing_tests(a.folder)
