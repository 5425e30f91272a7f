"""Cut student source into the top-level statements that are graded.

Only definitions are kept (``kept_names`` below is the rule): imports, ``def`` and
``class`` statements, assignments to UPPER_CASE names (the spec's answer constants),
assignments of a literal value to a name of any case
(``vocab_size = 50``), and ``try``/``if`` blocks whose bodies only import or define (``try:
from tqdm import tqdm`` / ``except ImportError: tqdm = lambda x: x``). Everything else at
the top level (demo calls, prints, plots, loops, the student's own asserts) is dropped,
so grading never waits on a notebook's experiments.

Two kinds of warning tell the student what extraction changed: a dropped statement that
sets a name a kept definition reads (the kept code would fail with ``NameError``), and a
kept import of a module graded code cannot import (the standard library, numpy and regex
only). Both name the cell and line and say the rule.

Which part a statement belongs to is the assignment's business, not extraction's
(``StudentCode.for_part`` with the assignment's ``PART_OF``): a definition of a spec name
belongs to that name's part; any other kept statement is *shared* (helpers, imports)
and is loaded with every part.

The section between the ``extraction rules`` markers depends on the standard library only:
the students' preflight (``source/<assignment>/preflight.py``) carries a verbatim copy,
and ``tests/test_preflight.py`` checks that the two agree.
"""

import ast
import builtins
import io
import symtable
import sys
from dataclasses import dataclass, field

from .read import Chunk, parse

# --- extraction rules (copied verbatim into preflight.py; stdlib: ast builtins symtable sys) ---

# Plotting and notebook-display imports cost seconds per worker and grade nothing.
SKIPPED_MODULES = {"matplotlib", "IPython", "ipywidgets", "seaborn", "pandas", "tqdm", "google"}
# What graded code may import: the standard library, numpy and regex.
IMPORTABLE = frozenset(sys.stdlib_module_names) | {"numpy", "regex"}
IMPORT_RULE = "graded code may import only the standard library, numpy and regex"
KEEP_RULE = (
    "the grader keeps only imports, def and class statements, UPPER_CASE constants, "
    "names set to a literal value, and try/if blocks that only import or define"
)
# A literal constant bigger than this many syntax nodes is data, not a constant.
MAX_LITERAL_NODES = 5000


def is_literal(value: ast.expr) -> bool:
    """A value ``ast.literal_eval`` accepts (numbers, strings, tuples, lists, dicts, ...)."""
    if sum(1 for _ in ast.walk(value)) > MAX_LITERAL_NODES:
        return False
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _assigned(node: ast.Assign | ast.AnnAssign, anything: bool) -> tuple[str, ...] | None:
    """Target names of a kept assignment: UPPER_CASE names, or any names given a literal."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = tuple(t.id for t in targets if isinstance(t, ast.Name))
    if node.value is None or len(names) != len(targets):
        return None
    if all(n.isupper() for n in names) or is_literal(node.value):
        return names
    if anything and isinstance(node.value, (ast.Lambda, ast.Name, ast.Attribute)):
        return names  # a fallback inside a kept block: ``tqdm = lambda x: x``
    return None


def _block_names(body: list[ast.stmt]) -> tuple[str, ...] | None:
    """Names a ``try``/``if`` body defines, or ``None`` if it does anything but define."""
    names: list[str] = []
    for node in body:
        if isinstance(node, ast.Pass) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        ):
            continue
        found = kept_names(node, in_block=True)
        if found is None:
            return None
        names.extend(found)
    return tuple(names)


def kept_names(node: ast.stmt, in_block: bool = False) -> tuple[str, ...] | None:
    """Names a kept top-level statement defines; ``None`` when the statement is dropped."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return _assigned(node, in_block)
    if isinstance(node, ast.Import):
        roots = [a.name.split(".")[0] for a in node.names]
        if not in_block and any(root in SKIPPED_MODULES for root in roots):
            return None
        return tuple((a.asname or a.name).split(".")[0] for a in node.names)
    if isinstance(node, ast.ImportFrom):
        if node.level or (
            not in_block and (node.module or "").split(".")[0] in SKIPPED_MODULES
        ):
            return None
        return tuple(a.asname or a.name for a in node.names if a.name != "*")
    if isinstance(node, ast.If):
        # The condition runs when the code loads: names and comparisons, no calls.
        if any(isinstance(n, (ast.Call, ast.NamedExpr)) for n in ast.walk(node.test)):
            return None
        parts = [_block_names(node.body), _block_names(node.orelse)]
    elif isinstance(node, ast.Try):
        parts = [_block_names(node.body), _block_names(node.orelse),
                 _block_names(node.finalbody)]
        parts += [_block_names(handler.body) for handler in node.handlers]
    else:
        return None
    if any(p is None for p in parts):
        return None
    return tuple(dict.fromkeys(n for p in parts for n in p))  # type: ignore[union-attr]


def bound_names(node: ast.stmt) -> set[str]:
    """Module-level names a (dropped) statement sets: assignment, loop and ``with`` targets,
    imports, definitions; not the names local to functions and comprehensions inside it."""
    found: set[str] = set()
    stack: list[ast.AST] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(item.name)
            continue
        if isinstance(item, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
            found.add(item.id)
        elif isinstance(item, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in item.names if a.name != "*"}
        stack.extend(ast.iter_child_nodes(item))
    return found


def read_names(source: str) -> set[str]:
    """Module-level names that code (a kept statement) reads, at load or when called."""
    found: set[str] = set()
    tables = [symtable.symtable(source, "<kept>", "exec")]
    while tables:
        table = tables.pop()
        module = table.get_type() == "module"
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (module or symbol.is_global()):
                found.add(symbol.get_name())
        tables.extend(table.get_children())
    return found - set(dir(builtins))


def unavailable_imports(node: ast.stmt) -> list[str]:
    """Modules a kept top-level import asks for that graded code cannot import.

    Imports inside a kept ``try`` block are not counted: their ``except`` is the fallback.
    """
    if isinstance(node, ast.Import):
        roots = [a.name.split(".")[0] for a in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level:
        roots = [(node.module or "").split(".")[0]]
    else:
        return []
    return [root for root in dict.fromkeys(roots) if root not in IMPORTABLE]


def statement_source(source: str, node: ast.stmt) -> str:
    """The statement's own text, after as many blank lines as precede it in ``source``.

    Compiled on its own, its line numbers are the cell's, so a traceback names the line
    the student wrote (a decorated definition starts at its first decorator).
    """
    decorators = getattr(node, "decorator_list", None)
    start = min(d.lineno for d in decorators) if decorators else node.lineno
    span = ast.Pass(lineno=start, col_offset=0 if decorators else node.col_offset,
                    end_lineno=node.end_lineno, end_col_offset=node.end_col_offset)
    text = ast.get_source_segment(source, span)
    if text is None:
        raise ValueError("no source position")
    return "\n" * (start - 1) + text


def import_warning(origin: str, module: str) -> str:
    return (f"{origin}: imports {module}, which is not available when your code is graded "
            f"({IMPORT_RULE}); code that needs it will fail")


def dropped_warning(origin: str, name: str, users: list[str]) -> str:
    return (f"{origin}: sets {name}, but this statement is not graded ({KEEP_RULE}); "
            f"{name} is read by {', '.join(users)}, which will fail with NameError when "
            "graded")
# --- end of extraction rules ---


@dataclass(frozen=True)
class Statement:
    """One top-level statement, as source that compiles on its own."""

    source: str
    origin: str  # "cell 7, line 3"
    names: tuple[str, ...]  # the names it defines


@dataclass
class StudentCode:
    """A submission cut into statements, with what could not be read."""

    statements: list[Statement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def defined(self) -> set[str]:
        """Every top-level name the submission defines."""
        return {name for st in self.statements for name in st.names}

    def for_part(self, part: int, part_of: dict[str, int],
                 also: tuple[str, ...] = ()) -> list[Statement]:
        """Shared statements plus the definitions of ``part`` (and of the names in
        ``also``). ``part_of`` is the assignment's map of spec names to parts; a
        statement that defines names of no part, or of several, is shared."""
        kept = []
        for st in self.statements:
            parts = {part_of[n] for n in st.names if n in part_of}
            if len(parts) != 1 or parts == {part} or any(n in also for n in st.names):
                kept.append(st)
        return kept


# At most this many warnings about dropped names, so that a notebook of demos stays readable.
MAX_DROPPED_WARNINGS = 20


def _dropped_warnings(code: StudentCode, dropped: list[tuple[str, set[str]]]) -> list[str]:
    """Each dropped statement that sets a name kept code reads and nothing kept defines."""
    defined = code.defined()
    readers: dict[str, list[str]] = {}
    for st in code.statements:
        try:
            names = read_names(st.source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for name in sorted(names - defined):
            readers.setdefault(name, []).append(f"{' '.join(st.names) or 'a block'} "
                                                f"({st.origin})")
    warnings = []
    for origin, names in dropped:
        for name in sorted(names):
            if name in readers and name not in defined:
                warnings.append(dropped_warning(origin, name, readers[name][:3]))
    return warnings[:MAX_DROPPED_WARNINGS]


def _view(lines: list[str], node: ast.stmt) -> str:
    """The cell as ``statement_source`` reads ``node`` in it: the statement's own lines, the
    lines before it blank. ``ast.get_source_segment`` splits all the text it is given at
    every call, so a whole cell of many statements would cost its size per statement."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "\n" * (first - 1) + "".join(lines[first - 1:node.end_lineno])


def split_code(chunks: list[Chunk]) -> StudentCode:
    """Parse every chunk and keep its definitions; unparsable chunks become warnings."""
    code = StudentCode()
    dropped: list[tuple[str, set[str]]] = []
    for chunk in chunks:
        try:
            tree = parse(chunk.source)
        except (SyntaxError, ValueError, RecursionError) as exc:  # MemoryError stops it all
            line = getattr(exc, "lineno", None)
            where = f"{chunk.origin}, line {line}" if line else chunk.origin
            code.warnings.append(f"{where}: skipped, it is not valid Python ({type(exc).__name__})")
            continue
        lines = io.StringIO(chunk.source, newline="").readlines()  # cut where ast cuts
        for node in tree.body:
            origin = f"{chunk.origin}, line {node.lineno}"
            names = kept_names(node)
            if names is None:
                dropped.append((origin, bound_names(node)))
                continue
            try:
                source = statement_source(_view(lines, node), node)
            except (RecursionError, ValueError):
                code.warnings.append(f"{origin}: skipped, too deep")
                continue
            code.warnings.extend(import_warning(origin, m) for m in unavailable_imports(node))
            code.statements.append(Statement(source, origin, names))
    code.warnings.extend(_dropped_warnings(code, dropped))
    return code
