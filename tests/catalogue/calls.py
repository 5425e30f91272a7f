"""Which parts call which, read from the reference: the pairs a bug could leak across.

A bug in part B can cost part A only if A's code reaches B's: by a name (a function, a
class, a base class), through helpers that are no part's, or through a method another
part grades (``METHOD_PART``: Part 2's ``CharTokenizer`` holds Part 4's
``build_vocab``, which a student's constructor may call even where the reference's does
not: a class reaches every method of its own). ``calling_pairs`` follows those references
transitively and returns every ``(caller, callee)`` pair of parts; the catalogue tests
must grade, for each pair, a bug of the callee in a submission whose caller is clean.
"""

import ast
import textwrap
from collections import defaultdict

from autograder.assignment import Assignment
from autograder.sandbox.reference import reference_without


def _uses(node: ast.AST, methods: set[str]) -> set[str]:
    """Top-level names ``node`` reads, and ``Class.method`` of the methods in ``methods``
    it reaches as an attribute (any object's: ``self.build_vocab``)."""
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute) and sub.attr in methods:
            found.add(sub.attr)
    return found


def reference_graph(assignment: Assignment) -> tuple[dict[str, set[str]], dict[str, int]]:
    """The reference's top-level names and other parts' methods, what each uses, and the
    part of each graded one (helpers have none)."""
    tree = ast.parse(reference_without(assignment, 0)[0])
    owned = {m: (cls, p) for (cls, m), p in assignment.method_part.items()}
    uses: dict[str, set[str]] = defaultdict(set)
    part: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                key = node.name
                if isinstance(item, ast.FunctionDef) and (node.name, item.name) in (
                        assignment.method_part):
                    key = f"{node.name}.{item.name}"
                uses[key] |= _uses(item, set(owned))
            uses[node.name] |= {b.id for b in node.bases if isinstance(b, ast.Name)}
        elif isinstance(node, (ast.FunctionDef, ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [
                getattr(node, "target", None)]
            names = [node.name] if isinstance(node, ast.FunctionDef) else [
                t.id for t in targets if isinstance(t, ast.Name)]
            for name in names:
                uses[name] |= _uses(node, set(owned))
    for name, (cls, p) in owned.items():  # a method name reached as an attribute
        part[f"{cls}.{name}"] = p
        # A student's class may call any of its methods where the reference does not
        # (their constructor calling their own build_vocab): the class reaches them all.
        uses[cls].add(name)
        uses[f"{cls}.{name}"].add(cls)  # and the method reaches the rest of its class
        for user in uses.values():
            if name in user:
                user.discard(name)
                user.add(f"{cls}.{name}")
    part.update({n: p for n, p in assignment.part_of.items() if n in uses})
    return dict(uses), part


def reached(assignment: Assignment) -> dict[tuple[int, int], set[str]]:
    """``(caller, callee)`` -> the graded names (or ``Class.method``) of part ``callee``
    that some graded name of part ``caller`` reaches."""
    uses, part = reference_graph(assignment)
    pairs: dict[tuple[int, int], set[str]] = defaultdict(set)
    for start, caller in part.items():
        seen, todo = {start}, list(uses.get(start, ()))
        while todo:
            name = todo.pop()
            if name in seen or name not in uses and name not in part:
                continue
            seen.add(name)
            callee = part.get(name)
            if callee is not None and callee != caller:
                pairs[caller, callee].add(name)
            todo += uses.get(name, ())
    return dict(pairs)


def calling_pairs(assignment: Assignment) -> set[tuple[int, int]]:
    """``(caller, callee)``: some graded name of part ``caller`` reaches one of ``callee``."""
    return set(reached(assignment))


def defined(code: str) -> set[str]:
    """What an entry's code defines: top-level names, and ``Class.method`` for each method
    of a ``class X(X)`` override (``Class`` too: its part's members change)."""
    names = set()
    for node in ast.parse(textwrap.dedent(code)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{m.name}" for m in node.body
                      if isinstance(m, ast.FunctionDef)}
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names
