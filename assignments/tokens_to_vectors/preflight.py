# Generated from the course grader's own extraction code when the release is made;
# do not edit: the staff change the grader and make the release again.
"""Preflight: see your notebook the way the hidden grader will see it, before you submit.

Run it in a terminal next to your notebook (save the notebook first), for example::

    python preflight.py NAME.ipynb   (NAME: the notebook you hand in)

or run the notebook's last cell. It starts with its verdict and ends with a summary line;
in between it shows

1. statements the grader drops although kept code reads what they set: graded, that code
   fails with ``NameError``; and cells that are not valid Python;
2. imports graded code cannot make (it may import the standard library, numpy and regex);
3. the notebook's visible tests (its ``# Test:`` cells) run on the kept code alone, in a
   fresh Python process, as the grader runs your code: nothing else from your kernel;
4. what the grader keeps, one line per cell (imports, ``def``, ``class``, UPPER_CASE
   constants, names set to a literal value, and ``try``/``if`` blocks that only import,
   define, pass or raise; demos, prints and plots are not graded).

It holds no hidden tests and no reference solution: the hidden grader checks the same
behaviours more thoroughly, part by part, so passing here is necessary, not sufficient.
Exit status: 0 when nothing needs attention, 1 otherwise, 2 when the notebook cannot be read.
The extraction rules are the grader's own code, copied in when the course builds this file.
"""

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# --- the grader's extraction rules ---

import ast
import builtins
import re
import symtable
import sys
import threading

# Plotting and notebook-display imports cost seconds per worker and grade nothing.
SKIPPED_MODULES = {"matplotlib", "IPython", "ipywidgets", "seaborn", "pandas", "tqdm", "google"}
# What graded code may import: the standard library, numpy and regex.
IMPORTABLE = frozenset(sys.stdlib_module_names) | {"numpy", "regex"}
IMPORT_RULE = "graded code may import only the standard library, numpy and regex"
KEEP_RULE = (
    "the grader keeps only imports, def and class statements, UPPER_CASE constants, "
    "names set to a literal value, and try/if blocks that only import, define, pass or raise"
)
# A literal constant bigger than this many syntax nodes is data, not a constant.
MAX_LITERAL_NODES = 5000
# At most this many warnings about dropped names, so that a notebook of demos stays readable.
MAX_DROPPED_WARNINGS = 20
BUILTINS = frozenset(dir(builtins))
# Lines IPython rewrites before Python sees them: %magic, %%cell magic, !shell, ?help.
IPYTHON_LINE = re.compile(r"^\s*(%|!|\?)")
# Line ends as the parser counts lines (not str.splitlines, which also splits at \f, \v...).
LINE_END = re.compile(r"\r\n|\r|\n")

# CPython 3.11 before 3.11.8 turns a parse tree into Python objects with a recursion
# counter shared by all threads (gh-106905): concurrent ast.parse calls, as in a batch
# graded by a thread pool, fail with "AST constructor recursion depth mismatch".
_AST_LOCK = threading.Lock()


def parse(source: str) -> ast.Module:
    """``ast.parse``, one thread at a time."""
    with _AST_LOCK:
        return ast.parse(source)


def strip_ipython(source: str) -> str:
    """Blank out IPython-only lines, keeping line numbers stable."""
    return "\n".join("" if IPYTHON_LINE.match(line) else line for line in source.splitlines())


def is_test_cell(cell: dict) -> bool:
    """An nbgrader test cell (graded, not a solution): the grader never runs its copy."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


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


def _plain_raise(node: ast.Raise) -> bool:
    """``raise``, ``raise Error`` or ``raise Error("message")``: nothing runs but the raise."""
    calls = [n for part in (node.exc, node.cause) if part is not None
             for n in ast.walk(part) if isinstance(n, (ast.Call, ast.NamedExpr, ast.Await))]
    return not calls or (len(calls) == 1 and calls[0] is node.exc
                         and isinstance(node.exc.func, (ast.Name, ast.Attribute)))


def _block_names(body: list[ast.stmt]) -> tuple[str, ...] | None:
    """Names a ``try``/``if`` branch defines, or ``None`` if it does anything but define,
    ``pass`` or raise."""
    names: list[str] = []
    for node in body:
        if isinstance(node, ast.Pass) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        ) or (isinstance(node, ast.Raise) and _plain_raise(node)):
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
    # Without the blank lines that keep its line numbers: they cost time, not names.
    tables = [symtable.symtable(source.lstrip("\n"), "<kept>", "exec")]
    while tables:
        table = tables.pop()
        module = table.get_type() == "module"
        for symbol in table.get_symbols():
            if symbol.is_referenced() and (module or symbol.is_global()):
                found.add(symbol.get_name())
        tables.extend(table.get_children())
    return found - BUILTINS


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


class Lines:
    """Where each line of ``source`` starts, found once, to cut statements out in time
    proportional to their own length (the ``ast`` positions: 1-based lines, columns in
    UTF-8 bytes)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0] + [m.end() for m in LINE_END.finditer(source)]

    def offset(self, lineno: int, col: int) -> int:
        """The index in ``source`` of byte column ``col`` of line ``lineno``."""
        start = self.starts[lineno - 1]
        end = self.starts[lineno] if lineno < len(self.starts) else len(self.source)
        line = self.source[start:end]
        if not line.isascii():
            col = len(line.encode("utf-8")[:col].decode("utf-8", "replace"))
        return start + col

    def statement(self, node: ast.stmt) -> str:
        """The statement's own text, after as many blank lines as precede it.

        Compiled on its own, its line numbers are the chunk's, so a traceback names the
        line the student wrote (a decorated definition starts at its first decorator).
        """
        decorators = getattr(node, "decorator_list", None)
        start = min(d.lineno for d in decorators) if decorators else node.lineno
        if node.end_lineno is None or node.end_col_offset is None:
            raise ValueError("no source position")
        begin = self.offset(start, 0 if decorators else node.col_offset)
        text = self.source[begin:self.offset(node.end_lineno, node.end_col_offset)]
        return "\n" * (start - 1) + text


def import_warning(origin: str, module: str) -> str:
    return (f"{origin}: imports {module}, which is not available when your code is graded "
            f"({IMPORT_RULE}); code that needs it will fail")


def dropped_warning(origin: str, name: str, users: list[str]) -> str:
    return (f"{origin}: sets {name}, but this statement is not graded ({KEEP_RULE}); "
            f"{name} is read by {', '.join(users)}, which will fail with NameError when "
            "graded")


def _dropped_warnings(kept: list[tuple[str, str, tuple[str, ...]]],
                      dropped: list[tuple[str, set[str]]]) -> list[str]:
    """Each dropped statement that sets a name kept code reads and nothing kept defines."""
    defined = {name for _, _, names in kept for name in names}
    readers: dict[str, list[str]] = {}
    for source, origin, names in kept:
        try:
            read = read_names(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for name in sorted(read - defined):
            readers.setdefault(name, []).append(f"{' '.join(names) or 'a block'} ({origin})")
    warnings = [dropped_warning(origin, name, readers[name][:3])
                for origin, names in dropped for name in sorted(names)
                if name in readers and name not in defined]
    return warnings[:MAX_DROPPED_WARNINGS]


def split_chunks(chunks: list[tuple[str, str]]
                 ) -> tuple[list[tuple[str, str, tuple[str, ...]]], list[tuple[str, str]]]:
    """Apply the rules to ``(source, origin)`` chunks (``origin``: "cell 7").

    Returns the kept statements as ``(source, "cell 7, line 3", names defined)`` and what
    extraction changed, in order, as ``(kind, message)``: kind ``"skipped"`` (not valid
    Python, or nested too deep), ``"import"`` (a module graded code cannot import) or
    ``"dropped"`` (a dropped statement sets a name kept code reads).
    """
    kept: list[tuple[str, str, tuple[str, ...]]] = []
    notes: list[tuple[str, str]] = []
    dropped: list[tuple[str, set[str]]] = []
    for source, chunk in chunks:
        try:
            tree = parse(source)
        except (SyntaxError, ValueError, RecursionError) as exc:  # MemoryError stops it all
            line = getattr(exc, "lineno", None)
            where = f"{chunk}, line {line}" if line else chunk
            notes.append(("skipped", f"{where}: skipped, it is not valid Python "
                                     f"({type(exc).__name__})"))
            continue
        lines = Lines(source)
        for node in tree.body:
            origin = f"{chunk}, line {node.lineno}"
            names = kept_names(node)
            if names is None:
                dropped.append((origin, bound_names(node)))
                continue
            try:
                text = lines.statement(node)
            except (RecursionError, ValueError):
                notes.append(("skipped", f"{origin}: skipped, too deep"))
                continue
            notes.extend(("import", import_warning(origin, m)) for m in unavailable_imports(node))
            kept.append((text, origin, names))
    notes.extend(("dropped", w) for w in _dropped_warnings(kept, dropped))
    return kept, notes
# --- end of the grader's extraction rules ---

# Seconds the visible tests may take in the fresh process.
TEST_TIMEOUT = 300
# Output lines are wrapped at spaces to this width: JupyterLab breaks longer ones mid-word.
WIDTH = 88


def notebook_cells(path: Path) -> list[tuple[int, str, bool]]:
    """``(cell number, source without IPython lines, is a test cell)`` of each code cell."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = []
    for number, cell in enumerate(cells, start=1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        out.append((number, strip_ipython(source), is_test_cell(cell)))
    return out


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


def wrap(text: str, indent: str = "  ") -> str:
    """``text`` as lines of at most ``WIDTH`` characters, broken only at spaces; a line
    that continues the one above starts with six spaces."""
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=" " * 6,
                         break_long_words=False, break_on_hyphens=False)


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary(tests: int, failed: int, notes: list[tuple[str, str]], loads: int) -> str:
    """One line: what needs attention, counted, or that nothing does."""
    kinds = [kind for kind, _ in notes]
    found = [f"{failed} of {tests} visible tests fail" if failed
             else f"all {tests} visible tests pass"]
    if kinds.count("dropped"):
        found.append(plural(kinds.count("dropped"), "dropped statement is",
                            "dropped statements are") + " used by graded code")
    if kinds.count("import"):
        found.append(plural(kinds.count("import"), "import", "imports") + " graded code "
                     "cannot make")
    if kinds.count("skipped"):
        found.append(plural(kinds.count("skipped"), "piece", "pieces") + " of code skipped "
                     "(not valid Python)")
    if loads:
        found.append(plural(loads, "kept statement fails", "kept statements fail") + " to load")
    return "; ".join(found)


def kept_by_cell(kept: list[dict]) -> list[str]:
    """The kept names folded to one line per cell."""
    cells: dict[str, list[str]] = {}
    for st in kept:
        cell = st["origin"].split(",")[0]
        cells.setdefault(cell, []).append(", ".join(st["names"]) or "(a block)")
    return [wrap(f"{cell}: {', '.join(names)}") for cell, names in cells.items()]


def report(name: str, kept: list[dict], notes: list[tuple[str, str]], events: list[dict],
           titles: dict[int, str]) -> tuple[str, bool]:
    """The text a student reads, and whether anything needs attention."""
    tests = [e for e in events if "test" in e]
    crashes = [e["crash"] for e in events if "crash" in e]
    loads = [e for e in events if "load" in e]
    failed = sum(not e["ok"] for e in tests) + len(crashes)
    line = summary(len(titles), failed, notes, len(loads))
    attention = bool(notes or loads or failed)
    if not attention:
        line += "; nothing needs attention"
    verdict = f"NEEDS ATTENTION: {line}." if attention else f"ready to submit: {line}."
    listed = [wrap(note) for kind, note in notes if kind != "import"]
    out = [wrap(f"Preflight of {name}: {verdict}", ""), "",
           "Dropped statements that kept code reads:", "\n".join(listed) or "  none", "",
           "Imports graded code cannot make:",
           "\n".join(wrap(note) for kind, note in notes if kind == "import") or "  none", "",
           "Loading the kept code alone, in a fresh process:",
           "\n".join(wrap(f"{e['load']}: {e['error']}") for e in loads) or "  ok", "",
           "Visible tests on the kept code alone:"]
    for event in tests:
        title = f"cell {event['test']}: {titles.get(event['test'], '')}"
        out.append(wrap(f"pass  {title}" if event["ok"] else f"FAIL  {title}: {event['error']}",
                        "  "))
    out += [wrap(crash) for crash in crashes]
    out += ["", wrap(f"Kept by the grader ({KEEP_RULE}), one line per cell:", ""),
            *kept_by_cell(kept), "",
            "The hidden grader checks the same behaviours more thoroughly, part by part.",
            wrap(f"Summary: {line}.", "")]
    return "\n".join(out), attention


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
    statements, notes = split_chunks([(source, f"cell {number}")
                                      for number, source, is_test in cells if not is_test])
    kept = [{"source": source, "origin": origin, "names": names}
            for source, origin, names in statements]
    events = run_visible_tests(kept, cells, path.resolve().parent)
    titles = {number: test_title(source) for number, source, is_test in cells if is_test}
    text, attention = report(path.name, kept, notes, events, titles)
    print(text)
    return 1 if attention else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
