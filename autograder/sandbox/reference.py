"""Assemble the reference solution *minus the part being graded*.

When part N is graded, whatever the student's part N uses from other parts is the
reference, so a broken Part 2 costs nothing in Part 5. The scoring process runs this
source for the worker's stand-ins (``standin.py``); the worker never holds any of it.
Part N's reference is not in it at all, nor anything built on it, so no stand-in
can compute part N's answers.

Modules are flattened into one namespace in dependency order, with the
package-relative imports removed; ``reference_without(0)`` is the whole reference as
one file (a student-style submission for tests and benchmarks).
"""

import ast
from functools import cache
from pathlib import Path

from ..extract.read import parse
from ..parts import METHOD_PART, PART_OF, SHARED_NAMES

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
# Dependency order: each module only uses names defined by modules before it.
MODULES = ("base", "char", "bpe_steps", "bpe", "utils", "costs")


@cache
def _reference_tree() -> ast.Module:
    body: list[ast.stmt] = []
    for module in MODULES:
        tree = parse((SOLUTIONS / f"{module}.py").read_text(encoding="utf-8"))
        relative = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.level]
        body += [node for node in tree.body if node not in relative]
    return ast.Module(body=body, type_ignores=[])


def _defines(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    return set()


def _base_names(node: ast.stmt) -> set[str]:
    if not isinstance(node, ast.ClassDef):
        return set()
    return {b.id for b in node.bases if isinstance(b, ast.Name)}


def reference_without(part: int) -> tuple[str, list[str]]:
    """Reference source with part ``part`` removed, and the spec names it still exports.

    A class whose base class was removed goes too (grading Part 1 sends no
    tokenizer classes); a method graded in ``part`` is cut out of its class.
    """
    removed = {name for name, p in PART_OF.items() if p == part}
    body = []
    for node in _reference_tree().body:
        if _defines(node) & removed or _base_names(node) & removed:
            removed |= _defines(node)
            continue
        if isinstance(node, ast.ClassDef):
            cut = {m for (cls, m), p in METHOD_PART.items() if p == part and cls == node.name}
            if cut:
                node = ast.ClassDef(**{**vars(node), "body": [
                    n for n in node.body if not (isinstance(n, ast.FunctionDef) and n.name in cut)
                ]})
        body.append(node)
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    exports = [n for n in (*SHARED_NAMES, *PART_OF) if n not in removed]
    # Annotations may name removed classes; postponing them keeps definitions valid.
    return "from __future__ import annotations\n" + ast.unparse(module), exports
