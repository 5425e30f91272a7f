"""Read a submission file into chunks of Python source.

A notebook gives one chunk per code cell, minus nbgrader test cells (the grader
never runs the student's copy of the tests) and minus IPython syntax (magics,
shell escapes, help queries), which is not Python. A ``.py`` file is one chunk;
if it does not parse as a whole, it is cut at jupytext / nbconvert cell markers
so that one broken cell does not cost the rest.
"""

import ast
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path

# Lines IPython rewrites before Python sees them: %magic, %%cell magic, !shell, ?help.
_IPYTHON_LINE = re.compile(r"^\s*(%|!|\?)")
# Cell markers written by jupytext (# %%) and nbconvert --to script (# In[ ]:).
_CELL_MARKER = re.compile(r"^# (%%|In\[[ \d]*\]:)", re.MULTILINE)


# CPython 3.11 before 3.11.8 turns a parse tree into Python objects with a recursion
# counter shared by all threads (gh-106905): concurrent ast.parse calls, as in a batch
# graded by a thread pool, fail with "AST constructor recursion depth mismatch".
_AST_LOCK = threading.Lock()


def parse(source: str) -> ast.Module:
    """``ast.parse``, one thread at a time."""
    with _AST_LOCK:
        return ast.parse(source)


class SubmissionError(Exception):
    """The file cannot be read as a submission at all (missing, not a notebook, ...)."""


@dataclass(frozen=True)
class Chunk:
    """A piece of student source and where it came from, for messages."""

    source: str
    origin: str  # "cell 7" or "lines 1-40"


def _is_test_cell(cell: dict) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def _strip_ipython(source: str) -> str:
    """Blank out IPython-only lines, keeping line numbers stable."""
    return "\n".join("" if _IPYTHON_LINE.match(line) else line for line in source.splitlines())


def read_notebook(path: Path) -> list[Chunk]:
    """The code cells of a notebook that are not nbgrader test cells."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if not isinstance(cells, list):
            raise TypeError("'cells' is not a list")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise SubmissionError(f"{path.name} is not a readable notebook: {exc}") from exc
    chunks = []
    for index, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or _is_test_cell(cell):
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        chunks.append(Chunk(_strip_ipython(str(source)), f"cell {index}"))
    return chunks


def read_script(path: Path) -> list[Chunk]:
    """A ``.py`` file: whole, or cut at cell markers when it does not parse whole."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SubmissionError(f"{path.name} cannot be read as UTF-8 text: {exc}") from exc
    text = _strip_ipython(text)
    try:
        parse(text)
        return [Chunk(text, f"lines 1-{text.count(chr(10)) + 1}")]
    except (SyntaxError, ValueError, RecursionError):  # MemoryError: see extract_limited
        pass
    starts = [0] + [m.start() for m in _CELL_MARKER.finditer(text) if m.start() > 0] + [len(text)]
    chunks = []
    for begin, end in zip(starts, starts[1:]):
        first_line = text.count("\n", 0, begin) + 1
        # Pad with newlines so line numbers in messages match the file.
        chunks.append(Chunk("\n" * (first_line - 1) + text[begin:end], f"from line {first_line}"))
    return chunks


def read_submission(path: Path) -> list[Chunk]:
    """Chunks of Python source from a notebook or a ``.py`` file."""
    if not path.is_file():
        raise SubmissionError(f"{path} does not exist or is not a file")
    if path.suffix == ".ipynb":
        return read_notebook(path)
    if path.suffix == ".py":
        return read_script(path)
    raise SubmissionError(f"{path.name}: expected a .ipynb notebook or a .py file")
