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

from ..assignment import Assignment
from ..extract.read import parse


@cache
def _reference_tree(assignment: Assignment) -> ast.Module:
    """The reference package's modules, in the spec's dependency order (each module
    uses only names defined by modules before it), as one module."""
    body: list[ast.stmt] = []
    for module in assignment.reference_modules:
        tree = parse((assignment.reference / f"{module}.py").read_text(encoding="utf-8"))
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


def reference_without(assignment: Assignment, part: int) -> tuple[str, list[str]]:
    """Reference source with part ``part`` removed, and the spec names it still exports.

    A class whose base class was removed goes too (grading Part 1 sends no
    tokenizer classes); a method graded in ``part`` is cut out of its class.
    """
    removed = set(assignment.names_of(part))
    body = []
    for node in _reference_tree(assignment).body:
        if _defines(node) & removed or _base_names(node) & removed:
            removed |= _defines(node)
            continue
        if isinstance(node, ast.ClassDef):
            cut = {m for (cls, m), p in assignment.method_part.items()
                   if p == part and cls == node.name}
            if cut:
                node = ast.ClassDef(**{**vars(node), "body": [
                    n for n in node.body if not (isinstance(n, ast.FunctionDef) and n.name in cut)
                ]})
        body.append(node)
    module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
    exports = [n for n in (*assignment.shared_names, *assignment.part_of) if n not in removed]
    # Annotations may name removed classes; postponing them keeps definitions valid.
    return "from __future__ import annotations\n" + ast.unparse(module), exports
