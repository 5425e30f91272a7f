"""What the validity tools share: which tests are timing tests, and which suite was measured."""

import ast
import hashlib
import re
import subprocess
from functools import cache
from pathlib import Path

from ..assignment import REPO, Assignment

# The engine's ways to time student code (``suite/remote.py``: ``growth``, and
# ``growth_or_plain``, which retries it on plain inputs): a test that reaches one measures
# time, whatever it is called.
TIMING_PRIMITIVES = frozenset({"growth", "growth_or_plain"})


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


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO, text=True, capture_output=True).stdout
    except OSError:
        return ""


def suite_version(a: Assignment) -> str:
    """``HEAD`` and a fingerprint of the measured code (committed files + uncommitted diff):
    what decides the assignment's scores (``Assignment.decisive_paths``), reports aside.

    Two reports with the same fingerprint measured the same suite, whatever else was
    committed in between.
    """
    measured = [str(p.relative_to(REPO)) for p in a.decisive_paths() if p.is_relative_to(REPO)]
    # The reports themselves (MUTATION.md, TIMING.md) live in the hidden folder and decide
    # nothing: writing one must not make the suite it measured look changed.
    def decisive(lines: str) -> list[str]:
        return [line for line in lines.splitlines() if not line.endswith(".md")]

    trees = "\n".join(decisive(_git("ls-tree", "-r", "HEAD", "--", *measured)))
    changed = decisive(_git("diff", "HEAD", "--name-only", "--", *measured))
    diff = (_git("diff", "HEAD", "--", *changed) if changed else "") + "\n".join(
        decisive(_git("ls-files", "--others", "--exclude-standard", "--", *measured)))
    fingerprint = hashlib.sha1((trees + diff).encode()).hexdigest()[:10]
    head = _git("rev-parse", "--short", "HEAD").strip() or "unknown"
    dirty = " + uncommitted changes" if diff.strip() else ""
    return f"{head}{dirty}, suite fingerprint {fingerprint}"


def same_suite(before: str, after: str) -> bool:
    """True when two ``suite_version`` strings have the same fingerprint."""
    return before.rsplit(" ", 1)[-1] == after.rsplit(" ", 1)[-1]
