"""Disguise a copied submission the way a student hiding a copy would.

``disguise(source, keep)`` renames every local variable and parameter (``self`` aside)
and every top-level helper not in ``keep`` (the graded names), reverses the order of the
top-level statements, rewrites every docstring, drops the comments (``ast.unparse``
does) and turns ``xs = []`` / ``for x in it: xs.append(f(x))`` into a list
comprehension. The result is the same program in different clothes.
"""

import ast


def _loops_to_comprehensions(body: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for node in body:
        prev = out[-1] if out else None
        if (isinstance(node, ast.For) and not node.orelse and len(node.body) == 1
                and isinstance(prev, ast.Assign) and len(prev.targets) == 1
                and isinstance(prev.targets[0], ast.Name)
                and isinstance(prev.value, ast.List) and not prev.value.elts):
            call = node.body[0].value if isinstance(node.body[0], ast.Expr) else None
            name = prev.targets[0].id
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append" and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == name and len(call.args) == 1):
                prev.value = ast.ListComp(call.args[0], [ast.comprehension(
                    node.target, node.iter, [], 0)])
                continue
        out.append(node)
    return out


class _Disguise(ast.NodeTransformer):
    def __init__(self, helpers: dict[str, str]) -> None:
        self.helpers = helpers
        self.locals: list[dict[str, str]] = []
        self.count = 0

    def _fresh(self) -> str:
        self.count += 1
        return f"tmp{self.count}"

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.name = self.helpers.get(node.name, node.name)
        names = {a.arg for a in [*node.args.posonlyargs, *node.args.args,
                                 *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]
                 if a is not None and a.arg != "self"}
        names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                  and isinstance(n.ctx, ast.Store)}
        self.locals.append({name: self._fresh() for name in sorted(names)})
        for arg in ast.walk(node.args):
            if isinstance(arg, ast.arg):
                arg.arg = self.locals[-1].get(arg.arg, arg.arg)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body[0].value.value = "Does what the assignment asks here."
        node.body = _loops_to_comprehensions([self.visit(n) for n in body])
        self.locals.pop()
        return node

    def visit_Name(self, node: ast.Name) -> ast.Name:
        for scope in reversed(self.locals):
            if node.id in scope:
                node.id = scope[node.id]
                return node
        node.id = self.helpers.get(node.id, node.id)
        return node


def disguise(source: str, keep: set[str]) -> str:
    """``source`` disguised (module docstring); the names in ``keep`` are left as they are."""
    tree = ast.parse(source)
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    helpers = {name: f"my_{name.strip('_')}_fn" for name in sorted(top - keep)}
    tree = _Disguise(helpers).visit(tree)
    tree.body = list(reversed(tree.body))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
