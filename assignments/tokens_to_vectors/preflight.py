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
The notebook reader and the extraction rules are the grader's own code, copied in when the
course builds this file.
"""

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# --- the grader's notebook.py ---

import json
import re

# The most source the grader reads: a ``.py`` file's size, or a notebook's kept bytes
# (everything but the values ``read_cells`` skips). Extraction is linear, about 0.1 s per MB.
MAX_SOURCE_BYTES = 50 * 1000**2
# The largest notebook file, outputs included.
MAX_NOTEBOOK_BYTES = 500 * 1000**2
# Bytes read from the file at a time.
CHUNK = 1 << 20
# The keys of a cell that grading reads; every other key's value is skipped.
KEPT_KEYS = frozenset({"cell_type", "source", "metadata"})
# A value's end is first looked for by ``json`` in the next kilobyte, then the next 64.
WINDOWS = (1 << 10, 1 << 16)
# A longer value is walked this many bytes at a time, after a first segment of
# ``FIRST_SEGMENT`` bytes, doubled at each step: a value that is not JSON ends where it
# ends, and a walk that began with a whole ``SEGMENT`` cost 64 KB for each such value.
SEGMENT = 1 << 16
FIRST_SEGMENT = 1 << 6
# A file up to this size is first decoded whole (``read_cells``).
WHOLE_BYTES = 4 * 1000**2

_BOM = b"\xef\xbb\xbf"
_DECODER = json.JSONDecoder()
_SPACE = re.compile(rb"[ \t\n\r]*")
_SCALAR = re.compile(rb'[^\s,:\[\]{}"]*')  # a number, true, false or null
_BRACKET = re.compile(rb"[\[\]{}]")
_QUOTE, _COLON, _COMMA = ord('"'), ord(":"), ord(",")
_OPEN = frozenset(b"[{")


class UnreadableNotebook(ValueError):
    """The file cannot be read as a notebook, or is over a limit; the message names the
    file and says what a student can do about it."""


def read_cells(file, name: str, max_source: int = MAX_SOURCE_BYTES,
               max_file: int = MAX_NOTEBOOK_BYTES, whole: int = WHOLE_BYTES) -> list:
    """The ``cells`` of the notebook open in ``file`` (binary, at its start): each cell an
    object holding only its ``cell_type``, ``source`` and ``metadata`` (those it has); a
    cell that is not an object is returned as it is, for the caller to name.

    ``name`` is the file's name in messages. Raises ``UnreadableNotebook`` when the file is
    not JSON, is not an object with a list of ``cells`` (an nbformat 3 notebook is named
    as such), is not UTF-8 where it is kept, or passes ``max_source`` kept bytes or
    ``max_file`` bytes in all.

    A file of at most ``whole`` bytes that is valid UTF-8 and JSON throughout is decoded in
    one call to ``json`` (a notebook of 100 KB: about 2 ms, against 15 ms as a stream);
    the stream reads any other, and would give the same cells.
    """
    whole = min(whole, max_source)  # a file read whole holds no more than the limit
    head = file.read(whole + 1)
    if len(head) <= whole:
        try:
            notebook = json.loads(head.decode("utf-8-sig"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            pass
        else:
            return _cells_of(notebook, name)
    reader = _Reader(file, name, max_source, max_file, head)
    if reader.peek() != ord("{"):
        return _cells_of(reader.value(), name)
    notebook: dict = {}
    for key in reader.members():
        if key == "cells" and reader.peek() == ord("["):
            notebook[key] = [reader.cell() for _ in reader.elements()]
        elif key == "nbformat":
            notebook[key] = reader.value()
        else:
            notebook[key] = None
            reader.skip()
    if reader.peek() is not None:
        raise reader.broken("more follows the notebook's end")
    return _cells_of(notebook, name)


def too_big(name: str, limit: int = MAX_NOTEBOOK_BYTES) -> str:
    """What a notebook file over ``limit`` bytes is told."""
    return (f"{name} is over {limit // 1000**2:,} MB; the grader reads notebooks of at most "
            f"{limit // 1000**2:,} MB, outputs included (clear its outputs)")


def _cells_of(notebook: object, name: str) -> list:
    """The cells of a decoded notebook, each cut to ``KEPT_KEYS``; raises when its shape
    is not nbformat 4's."""
    unreadable = f"{name} is not a readable notebook"
    if not isinstance(notebook, dict):
        raise UnreadableNotebook(f"{unreadable}: it holds a JSON {type(notebook).__name__}, "
                                 "not an object with 'cells'")
    if "cells" not in notebook and ("worksheets" in notebook or notebook.get("nbformat") == 3):
        raise UnreadableNotebook(f"{name} is an nbformat 3 notebook; open it in Jupyter and "
                                 "save it again (nbformat 4)")
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise UnreadableNotebook(f"{unreadable}: it has no list of 'cells'")
    return [{key: value for key, value in cell.items() if key in KEPT_KEYS}
            if isinstance(cell, dict) else cell for cell in cells]


class _Reader:
    """A JSON text read a piece at a time. ``value`` decodes the next value (kept, and
    counted against the source limit); ``skip`` steps over it without decoding it."""

    def __init__(self, file, name: str, max_source: int, max_file: int,
                 head: bytes = b"") -> None:
        self.file, self.name = file, name
        self.max_source, self.max_file = max_source, max_file
        self.buffer = head  # what was read of the file before
        self.pos = 0  # the next byte to look at, in ``buffer``
        self.base = 0  # the file offset of ``buffer[0]``
        self.read = len(head)  # bytes read from the file so far
        self.kept = 0  # bytes of kept values so far
        self.sink: list[bytes] | None = None  # the pieces of the value being kept
        self.mark = 0  # where the part of ``buffer`` not yet in ``sink`` starts
        self.ended = False
        self._check_size()
        if not head:
            self.more()
        if self.buffer.startswith(_BOM):
            self.pos = self.mark = len(_BOM)

    def more(self) -> bool:
        """Read the next piece, keeping the bytes from ``pos`` on; False at the file's end."""
        if self.sink is not None:
            self._keep(self.buffer[self.mark:self.pos])
        self.mark = self.pos
        if self.ended:
            return False
        data = self.file.read(CHUNK)
        self.read += len(data)
        self._check_size()
        if not data:
            self.ended = True
            return False
        self.base += self.pos
        self.buffer = self.buffer[self.pos:] + data
        self.pos = self.mark = 0
        return True

    def _check_size(self) -> None:
        if self.read > self.max_file:
            raise UnreadableNotebook(too_big(self.name, self.max_file))

    def _keep(self, piece: bytes) -> None:
        """Hold ``piece`` of the value being kept, counting it against ``max_source``."""
        self.kept += len(piece)
        if self.kept > self.max_source:
            megabytes = self.max_source // 1000**2
            raise UnreadableNotebook(
                f"{self.name} holds over {megabytes} MB outside its outputs; the grader "
                f"reads at most {megabytes} MB of a notebook's cells (is data pasted into "
                "a cell? read it from a file instead)")
        assert self.sink is not None
        self.sink.append(piece)

    def broken(self, what: str) -> UnreadableNotebook:
        return UnreadableNotebook(f"{self.name} is not a readable notebook: {what} "
                                  f"(byte {self.base + self.pos})")

    def peek(self) -> int | None:
        """The next byte after white space (``pos`` is left on it), or None at the end."""
        while True:
            self.pos = _SPACE.match(self.buffer, self.pos).end()
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self.more():
                return None

    def value(self) -> object:
        """The next value, decoded."""
        self.peek()
        start = self.base + self.pos
        self.sink, self.mark = [], self.pos
        try:
            self._scan()
            self._keep(self.buffer[self.mark:self.pos])
            raw = b"".join(self.sink)
        finally:
            self.sink = None
            self.mark = self.pos
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnreadableNotebook(f"{self.name} is not UTF-8 text ({exc.reason} at byte "
                                     f"{start + exc.start})") from None
        try:
            return json.loads(text)
        except RecursionError:
            raise UnreadableNotebook(f"{self.name} is not a readable notebook: its JSON is "
                                     "nested too deeply") from None
        except ValueError as exc:
            raise UnreadableNotebook(f"{self.name} is not a readable notebook: {exc.msg} "
                                     f"(near byte {start + exc.pos})") from None

    def skip(self) -> None:
        """Step over the next value without decoding it."""
        self._scan()
        self.mark = self.pos

    def _scan(self) -> None:
        """Move ``pos`` past the next value."""
        first = self.peek()
        if first is None:
            raise self.broken("the file ends where a value should be")
        if self._quick():
            return
        if first == _QUOTE:
            self._string()
        elif first in _OPEN:
            self._container()
        elif _SCALAR.match(self.buffer, self.pos).end() == self.pos:
            raise self.broken(f"unexpected {chr(first)!r}")
        else:
            while True:
                self.pos = _SCALAR.match(self.buffer, self.pos).end()
                if self.pos < len(self.buffer) or not self.more():
                    return

    def _quick(self) -> bool:
        """Move ``pos`` past the next value if ``json`` finds its end within a window (the
        module's docstring says why Latin-1); False when it does not."""
        for size in WINDOWS:
            while len(self.buffer) - self.pos < size and self.more():
                pass
            window = self.buffer[self.pos:self.pos + size]
            try:
                end = _DECODER.raw_decode(window.decode("latin-1"))[1]
            except (ValueError, RecursionError):
                continue
            whole = self.ended and self.pos + len(window) == len(self.buffer)
            if end < len(window) or whole:  # a number at a window's end may go on after it
                self.pos += end
                return True
        return False

    def _segment(self, size: int, unended: str) -> tuple[bytes, int]:
        """The next ``size`` bytes at most from ``pos``, each escaped backslash or quote
        made ``__`` (every quote left starts or ends a string), and the offset in
        ``buffer`` where they end. A backslash whose escaped byte is not read yet is left
        for the next segment. At the file's end, raises saying ``unended``."""
        while True:
            end = min(len(self.buffer), self.pos + max(size, 2))
            plain = self.buffer[self.pos:end].replace(b"\\\\", b"__").replace(b'\\"', b"__")
            if plain.endswith(b"\\"):
                plain, end = plain[:-1], end - 1
            if plain:
                return plain, end
            if not self.more():
                raise self.broken(unended)

    def _string(self) -> None:
        self.pos += 1
        size = FIRST_SEGMENT
        while True:
            plain, end = self._segment(size, "a string does not end")
            closing = plain.find(b'"')
            if closing >= 0:
                self.pos += closing + 1
                return
            self.pos, size = end, min(2 * size, SEGMENT)

    def _container(self) -> None:
        """Step over a list or an object: count its brackets outside strings until they
        balance. Between two brackets only the number of quotes matters: an odd number
        opens or closes a string."""
        depth, inside, size = 0, False, FIRST_SEGMENT
        while True:
            plain, end = self._segment(size, "a list or an object does not end")
            size = min(2 * size, SEGMENT)
            at = 0
            if b"[" in plain or b"]" in plain or b"{" in plain or b"}" in plain:
                for found in _BRACKET.finditer(plain):
                    bracket = found.start()
                    inside ^= plain.count(b'"', at, bracket) % 2 == 1
                    at = bracket
                    if inside:
                        continue
                    depth += 1 if plain[bracket] in _OPEN else -1
                    if depth == 0:
                        self.pos += bracket + 1
                        return
            inside ^= plain.count(b'"', at) % 2 == 1
            self.pos = end

    def members(self):
        """The keys of the object that starts here, in order; after each, the caller
        reads or skips its value."""
        self.pos += 1  # the "{" the caller saw
        if self.peek() == ord("}"):
            self.pos += 1
            return
        while True:
            if self.peek() != _QUOTE:
                raise self.broken("a key should be here")
            key = self.value()
            if self.peek() != _COLON:
                raise self.broken("a ':' should follow a key")
            self.pos += 1
            yield key
            after = self.peek()
            if after == ord("}"):
                self.pos += 1
                return
            if after != _COMMA:
                raise self.broken("a ',' or '}' should be here")
            self.pos += 1

    def elements(self):
        """Once per element of the list that starts here; the caller reads or skips it."""
        self.pos += 1  # the "[" the caller saw
        if self.peek() == ord("]"):
            self.pos += 1
            return
        while True:
            yield
            after = self.peek()
            if after == ord("]"):
                self.pos += 1
                return
            if after != _COMMA:
                raise self.broken("a ',' or ']' should be here")
            self.pos += 1

    def cell(self) -> object:
        """The next cell: an object of its kept keys, or any other value as it is."""
        if self.peek() != ord("{"):
            return self.value()
        cell = {}
        for key in self.members():
            if key in KEPT_KEYS:
                cell[key] = self.value()
            else:
                self.skip()
        return cell
# --- end of the grader's notebook.py ---
# --- the grader's rules.py ---

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
# --- end of the grader's rules.py ---

# Seconds the visible tests may take in the fresh process.
TEST_TIMEOUT = 300
# Output lines are wrapped at spaces to this width: JupyterLab breaks longer ones mid-word.
WIDTH = 88


def notebook_cells(path: Path) -> list[tuple[int, str, bool]]:
    """``(cell number, source without IPython lines, is a test cell)`` of each code cell,
    read as the grader reads them (outputs skipped, the grader's size limits)."""
    with path.open("rb") as file:
        cells = read_cells(file, path.name)
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
