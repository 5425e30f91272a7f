"""One-change mutants of the reference solution, as complete student ``.py`` submissions.

The hidden suite computes its expected values from ``solutions/`` (the oracle), so the
oracle must stay intact: the mutants are made from the *student-side copy*, the reference
flattened into one file (``reference_without(assignment, 0)[0]``). This is a small AST mutator, an
equivalent of mutmut's engine: every mutant applies exactly one standard operator at one
place, and the enumeration is deterministic (same source, same mutants, same order).

Operators: comparison swaps (``<``/``<=``/``>=``, ``==``/``!=``, ``in``/``not in``,
``is``/``is not``), arithmetic and augmented-assignment swaps, ``and``/``or`` and dropping
one operand of either, removing ``not`` or unary minus, negating an ``if``/``while``/
conditional-expression test, constants (int ±1, ``True``/``False``, ``""``/``"XX"``),
``min``/``max``, ``sorted``/``list`` and other pure wrappers replaced by their argument,
removing ``rstrip``, ``split()`` to ``split(" ")``, dropping a keyword argument (``key=``,
``default=``), a tuple item or a slice bound, replacing a statement of a function body
with ``pass`` and a return value with ``None``. Default values of parameters are
constants and get the constant operators.

Left alone because they are not graded behaviour: docstrings, annotations, imports,
f-strings and the arguments of ``raise`` (exception messages); a whole ``raise`` can still
be deleted.

Reproduce: ``python -c "from autograder.validity.mutants import mutants; print(len(mutants()))"``.
"""

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from ..assignment import Assignment
from ..sandbox.reference import reference_without


@dataclass(frozen=True)
class Mutant:
    """One submission that differs from the reference in exactly one place."""

    index: int
    key: str  # stable and readable: "Class.method L42: `a < b` -> `a <= b`"
    operator: str
    part: int | None  # the part whose code was changed; None for shared helpers/constants
    line: int  # line in ``original_source()``
    source: str


@dataclass(frozen=True)
class _Site:
    path: tuple[tuple[str, int | None], ...]  # fields from the module down to the node
    operator: str
    replacement: ast.AST
    scope: str
    part: int | None
    line: int


CMP_SWAPS = {
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
}
BIN_SWAPS = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div, ast.Mod: ast.Mult, ast.Pow: ast.Mult,
}
NAME_SWAPS = {"min": "max", "max": "min", "sorted": "list", "any": "all", "all": "any"}
# Calls that only convert or order their first argument: replace the call by it.
WRAPPERS = {"sorted", "set", "list", "tuple", "float", "int", "round", "abs", "fromkeys"}


@cache
def _statements(assignment: Assignment) -> tuple[str, ...]:
    source = reference_without(assignment, 0)[0]
    return tuple(ast.unparse(node) for node in ast.parse(source).body)


def original_source(assignment: Assignment) -> str:
    """The reference as one file: its top-level statements, unparsed, a blank line apart."""
    return "\n\n".join(_statements(assignment))


def _children(node: ast.AST) -> Iterator[tuple[str, int | None, ast.AST]]:
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield name, i, item
        elif isinstance(value, ast.AST):
            yield name, None, value


def _is_docstring(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _part_of(node: ast.stmt, part_of: dict[str, int]) -> int | None:
    name = getattr(node, "name", None)
    if isinstance(node, ast.Assign):
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        name = names[0] if len(names) == 1 else None
    return part_of.get(name) if name else None


def _not(test: ast.expr) -> ast.expr:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


def _constant_variants(value: object) -> list[object]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, (int, float)):
        return [value + 1, value - 1]
    if isinstance(value, str):
        return ["XX"] if value == "" else [""]
    return []


def _expression_variants(node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """(operator, replacement) for one expression node."""
    c = copy.deepcopy
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new in CMP_SWAPS.get(type(op), ()):
                ops = list(node.ops)
                ops[i] = new()
                yield "comparison", ast.Compare(c(node.left), ops, c(node.comparators))
    elif isinstance(node, ast.BinOp) and type(node.op) in BIN_SWAPS:
        yield "arithmetic", ast.BinOp(c(node.left), BIN_SWAPS[type(node.op)](), c(node.right))
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "and/or", ast.BoolOp(other, c(node.values))
        for i in range(len(node.values)):
            rest = [c(v) for j, v in enumerate(node.values) if j != i]
            yield "drop operand", rest[0] if len(rest) == 1 else ast.BoolOp(c(node.op), rest)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield "remove unary", c(node.operand)
    elif isinstance(node, ast.IfExp):
        yield "negate condition", ast.IfExp(_not(c(node.test)), c(node.body), c(node.orelse))
    elif isinstance(node, ast.Constant):
        for value in _constant_variants(node.value):
            yield "constant", ast.Constant(value)
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            if getattr(node, bound) is not None:
                yield "slice bound", ast.Slice(**{**vars(c(node)), bound: None})
    elif isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load) and len(node.elts) > 1:
        for i in range(len(node.elts)):
            rest = [c(e) for j, e in enumerate(node.elts) if j != i]
            yield "drop tuple item", ast.Tuple(rest, ast.Load())
    elif isinstance(node, ast.Call):
        yield from _call_variants(node)


def _call_variants(node: ast.Call) -> Iterator[tuple[str, ast.AST]]:
    c = copy.deepcopy
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if isinstance(func, ast.Name) and name in NAME_SWAPS:
        yield "call swap", ast.Call(ast.Name(NAME_SWAPS[name], ast.Load()), c(node.args),
                                    c(node.keywords))
    if name in WRAPPERS and node.args and not node.keywords:
        yield "call to argument", c(node.args[0])
    for i in range(len(node.keywords)):
        rest = [c(k) for j, k in enumerate(node.keywords) if j != i]
        yield "drop keyword", ast.Call(c(func), c(node.args), rest)
    if isinstance(func, ast.Attribute) and name == "rstrip":
        yield "remove rstrip", c(func.value)
    if isinstance(func, ast.Attribute) and name == "split" and not node.args:
        yield "split()", ast.Call(c(func), [ast.Constant(" ")], [])


def _statement_variants(node: ast.stmt) -> Iterator[tuple[str, ast.AST]]:
    if isinstance(node, ast.Return):
        if node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None
        ):
            yield "return None", ast.Return(ast.Constant(None))
    elif not isinstance(node, (ast.Pass, ast.FunctionDef, ast.ClassDef)):
        yield "delete statement", ast.Pass()
    if isinstance(node, (ast.If, ast.While)):
        yield "negate condition", type(node)(**{**vars(copy.deepcopy(node)),
                                                "test": _not(copy.deepcopy(node.test))})
    if isinstance(node, ast.AugAssign) and type(node.op) in BIN_SWAPS:
        yield "arithmetic", ast.AugAssign(copy.deepcopy(node.target), BIN_SWAPS[type(node.op)](),
                                          copy.deepcopy(node.value))


def _sites(node: ast.AST, path: tuple, scope: str, part: int | None,
           in_function: bool, a: Assignment) -> Iterator[_Site]:
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.JoinedStr)) or _is_docstring(node):
        return
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.stmt) and in_function:
        for op, new in _statement_variants(node):
            yield _Site(path, op, new, scope, part, line)
    elif not isinstance(node, ast.stmt):
        for op, new in _expression_variants(node):
            yield _Site(path, op, new, scope, part, line)
    if isinstance(node, ast.Raise):
        return  # the exception's message is not graded; deleting the raise is
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
        if isinstance(node, ast.FunctionDef):
            cls = scope.split(".")[0]
            part = a.method_part.get((cls, node.name), part)
            in_function = True
    for field, index, child in _children(node):
        if field in ("annotation", "returns", "decorator_list"):
            continue
        child_scope, child_part = scope, part
        if not path:  # a top-level statement: its part, and a constant's name as its scope
            child_part = _part_of(child, a.part_of)
            names = child.targets if isinstance(child, ast.Assign) else []
            if len(names) == 1 and isinstance(names[0], ast.Name):
                child_scope = names[0].id
        yield from _sites(child, (*path, (field, index)), child_scope, child_part, in_function,
                          a)


def _mutated_statement(tree: ast.Module, site: _Site) -> str:
    """The text of the top-level statement holding ``site``, with the site replaced.

    The node is swapped in place, only that statement is unparsed, and the swap is
    undone: copying and unparsing the whole module per mutant is far slower.
    """
    *path, (field, index) = site.path
    parent = _node_at(tree, tuple(path))
    holder = getattr(parent, field)
    original = holder if index is None else holder[index]
    try:
        if index is None:
            setattr(parent, field, site.replacement)
        else:
            holder[index] = site.replacement
        return ast.unparse(tree.body[site.path[0][1]])
    finally:
        if index is None:
            setattr(parent, field, original)
        else:
            holder[index] = original


def _short(node: ast.AST) -> str:
    text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.Pass) else "pass"
    return text if len(text) <= 60 else text[:57] + "..."


def _node_at(tree: ast.Module, path: tuple) -> ast.AST:
    node: ast.AST = tree
    for field, index in path:
        value = getattr(node, field)
        node = value if index is None else value[index]
    return node


@cache
def mutants(assignment: Assignment) -> tuple[Mutant, ...]:
    """Every distinct, compilable one-change mutant of the reference, in a fixed order."""
    statements = list(_statements(assignment))
    original = "\n\n".join(statements)
    tree = ast.parse(original)
    seen = {original}
    found: list[Mutant] = []
    keys: set[str] = set()
    for site in list(_sites(tree, (), "<module>", None, False, assignment)):
        top = site.path[0][1]
        source = "\n\n".join([*statements[:top], _mutated_statement(tree, site),
                               *statements[top + 1:]])
        if source in seen:
            continue
        try:
            compile(source, "<mutant>", "exec")
        except SyntaxError:
            continue
        seen.add(source)
        before, after = _short(_node_at(tree, site.path)), _short(site.replacement)
        key = f"{site.scope}: `{before}` -> `{after}`"
        n = 2
        while key in keys:
            key = f"{site.scope}: `{before}` -> `{after}` #{n}"
            n += 1
        keys.add(key)
        found.append(Mutant(len(found), key, site.operator, site.part, site.line, source))
    return tuple(found)
