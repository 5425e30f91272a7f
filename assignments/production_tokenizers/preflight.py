"""Preflight: see your notebook the way the hidden grader will see it, before you submit.

Run it in a terminal next to your notebook (save the notebook first), for example::

    python preflight.py tokenization.ipynb

or run the notebook's last cell. It shows

1. the definitions the grader keeps from your notebook, cell by cell (imports, ``def``,
   ``class``, UPPER_CASE constants, names set to a literal value, and ``try``/``if``
   blocks that only import or define; demos, prints and plots are not graded);
2. statements the grader drops although kept code reads what they set: graded, that code
   fails with ``NameError``;
3. imports graded code cannot make (it may import the standard library, numpy and regex);
4. the notebook's visible tests (its ``# Test:`` cells) run on the kept code alone, in a
   fresh Python process, as the grader runs your code: nothing else from your kernel.

It holds no hidden tests and no reference solution: the hidden grader checks the same
behaviours more thoroughly, part by part, so passing here is necessary, not sufficient.
Exit status: 0 when nothing needs attention, 1 otherwise, 2 when the notebook cannot be read.
The extraction rules below are a copy of the grader's own (the course checks they agree).
"""

import ast
import builtins
import json
import re
import subprocess
import symtable
import sys
import tempfile
from pathlib import Path

# Lines IPython rewrites before Python sees them: %magic, %%cell magic, !shell, ?help.
IPYTHON_LINE = re.compile(r"^\s*(%|!|\?)")
# Seconds the visible tests may take in the fresh process.
TEST_TIMEOUT = 300

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


def notebook_cells(path: Path) -> list[tuple[int, str, bool]]:
    """``(cell number, source without IPython lines, is a test cell)`` of each code cell."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = []
    for number, cell in enumerate(cells, start=1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        source = "\n".join("" if IPYTHON_LINE.match(line) else line
                           for line in source.splitlines())
        meta = cell.get("metadata", {}).get("nbgrader", {})
        out.append((number, source, bool(meta.get("grade")) and not meta.get("solution")))
    return out


def extract(cells: list[tuple[int, str, bool]]) -> tuple[list[dict], list[str], list[str]]:
    """Kept statements, warnings about dropped names, warnings about imports."""
    kept: list[dict] = []
    dropped: list[tuple[str, set[str]]] = []
    notes: list[str] = []
    imports: list[str] = []
    for number, source, is_test in cells:
        if is_test:
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError) as exc:
            notes.append(f"cell {number}, line {getattr(exc, 'lineno', '?')}: not valid Python, "
                         "the whole cell is skipped")
            continue
        for node in tree.body:
            origin = f"cell {number}, line {node.lineno}"
            names = kept_names(node)
            if names is None:
                dropped.append((origin, bound_names(node)))
                continue
            imports.extend(import_warning(origin, m) for m in unavailable_imports(node))
            try:
                text = statement_source(source, node)
            except (RecursionError, ValueError):
                notes.append(f"{origin}: skipped, too deep")
                continue
            kept.append({"source": text, "origin": origin, "names": names})
    defined = {name for st in kept for name in st["names"]}
    readers: dict[str, list[str]] = {}
    for st in kept:
        for name in sorted(read_names(st["source"]) - defined):
            readers.setdefault(name, []).append(f"{' '.join(st['names']) or 'a block'} "
                                                f"({st['origin']})")
    for origin, names in dropped:
        notes.extend(dropped_warning(origin, name, readers[name][:3])
                     for name in sorted(names) if name in readers and name not in defined)
    return kept, notes, imports


# Runs in the fresh process: the kept statements, then each visible test cell in turn.
RUNNER = """
import json, sys, traceback
payload = json.load(open(sys.argv[1], encoding="utf-8"))

def where(exc):
    # " (cell 9, line 12)": the innermost line of the notebook in the traceback.
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith("<cell "):
            return " (%s, line %s)" % (frame.filename[1:-1].split(",")[0], frame.lineno)
    return ""

namespace = {"__name__": "submission"}
for st in payload["kept"]:
    try:
        exec(compile(st["source"], "<" + st["origin"] + ">", "exec"), namespace)
    except BaseException as exc:
        print(json.dumps({"load": st["origin"], "error": type(exc).__name__ + ": " + str(exc)
                          + where(exc)}))
for number, source in payload["tests"]:
    try:
        exec(compile(source, "<cell %d>" % number, "exec"), namespace)
        print(json.dumps({"test": number, "ok": True}))
    except BaseException as exc:
        print(json.dumps({"test": number, "ok": False,
                          "error": type(exc).__name__ + ": " + str(exc)[:300] + where(exc)}))
"""


def run_visible_tests(kept: list[dict], cells: list[tuple[int, str, bool]],
                      here: Path) -> list[dict]:
    """Run the visible tests on the kept code alone, in a fresh isolated process whose
    working folder is the notebook's (the tests read the files bundled beside it)."""
    tests = [(number, source) for number, source, is_test in cells if is_test]
    with tempfile.TemporaryDirectory() as folder:
        payload, runner = Path(folder, "payload.json"), Path(folder, "runner.py")
        payload.write_text(json.dumps({"kept": kept, "tests": tests}), encoding="utf-8")
        runner.write_text(RUNNER, encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, "-I", str(runner), str(payload)], cwd=here,
                                  capture_output=True, text=True, timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            return [{"crash": f"the visible tests took more than {TEST_TIMEOUT} s"}]
    events = []
    for line in done.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue  # what the student's code printed
    if done.returncode != 0:
        events.append({"crash": f"the process stopped (exit status {done.returncode})"})
    return events


def test_title(source: str) -> str:
    first = source.strip().splitlines()[0] if source.strip() else ""
    return first.removeprefix("# Test:").strip() or "a visible test"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python preflight.py NOTEBOOK.ipynb")
        return 2
    path = Path(argv[0])
    try:
        cells = notebook_cells(path)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"{path}: cannot be read as a notebook ({exc}); save it and try again")
        return 2
    kept, notes, imports = extract(cells)
    print(f"Preflight of {path.name}: what the grader sees\n")
    print(f"Kept ({KEEP_RULE}):")
    for st in kept:
        print(f"  {st['origin']}: {', '.join(st['names']) or '(a block)'}")
    print("\nDropped statements that kept code reads:")
    print("\n".join(f"  {note}" for note in notes) or "  none")
    print("\nImports graded code cannot make:")
    print("\n".join(f"  {warning}" for warning in imports) or "  none")
    events = run_visible_tests(kept, cells, path.resolve().parent)
    titles = {number: test_title(source) for number, source, is_test in cells if is_test}
    failed = 0
    print("\nLoading the kept code alone, in a fresh process:")
    loads = [e for e in events if "load" in e]
    print("\n".join(f"  {e['load']}: {e['error']}" for e in loads) or "  ok")
    print("\nVisible tests on the kept code alone:")
    for event in events:
        if "test" in event:
            failed += not event["ok"]
            verdict = "pass" if event["ok"] else f"FAIL  {event['error']}"
            print(f"  cell {event['test']}: {titles.get(event['test'], '')}: {verdict}")
        elif "crash" in event:
            failed += 1
            print(f"  {event['crash']}")
    print("\nThe hidden grader checks the same behaviours more thoroughly, part by part.")
    return 1 if notes or imports or loads or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
