"""Read a submission file into chunks of Python source.

A notebook gives one chunk per code cell, minus nbgrader test cells (the grader
never runs the student's copy of the tests) and minus IPython syntax (magics,
shell escapes, help queries), which is not Python. A ``.py`` file is one chunk;
if it does not parse as a whole, it is cut at jupytext / nbconvert cell markers
so that one broken cell does not cost the rest.

A notebook's outputs never cost its code: ``notebook.read_cells`` reads a notebook as a
stream and holds its cells without their outputs, so a correct notebook that printed a
corpus is graded like the same notebook cleared. The limits are the source's:
``MAX_SOURCE_BYTES`` (50 MB) of a ``.py`` file, or of a notebook's cells outside their
outputs; and a notebook file of at most ``MAX_NOTEBOOK_BYTES`` (500 MB) in all. A file over
its limit is refused, with a message saying which, before it is read (its size says so) or
as soon as the limit is passed. A file is read only if it is a regular file reached
without following a link at its last step (``O_NOFOLLOW``; the collector never hands over
links anyway). A notebook must have nbformat 4's shape where the grader relies on it: an
object with a list of ``cells``, each an object with a ``cell_type`` string, ``source`` as
text or a list of text lines, ``metadata`` (and its ``nbgrader`` entry) an object. Any
other shape (an nbformat 3 file, a list, nesting too deep to decode) is a
``SubmissionError`` that names the cell and what is wrong, so the student's row says how to
fix it.
"""

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .notebook import MAX_NOTEBOOK_BYTES, MAX_SOURCE_BYTES, UnreadableNotebook, read_cells, too_big
from .rules import is_test_cell, parse, strip_ipython

# Cell markers written by jupytext (# %%) and nbconvert --to script (# In[ ]:).
_CELL_MARKER = re.compile(r"^# (%%|In\[[ \d]*\]:)", re.MULTILINE)


class SubmissionError(Exception):
    """The file cannot be read as a submission at all (missing, not a notebook, ...)."""


@dataclass(frozen=True)
class Chunk:
    """A piece of student source and where it came from, for messages."""

    source: str
    origin: str  # "cell 7" or "lines 1-40"


def _open(path: Path, limit: int, too_big: Callable[[int], str]) -> BinaryIO:
    """``path`` open for reading in binary, never through a final link; refused unread with
    the message ``too_big(size)`` when its size is over ``limit``."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise SubmissionError(f"{path.name} cannot be opened ({exc.strerror})") from exc
    handle = os.fdopen(fd, "rb")
    size = os.fstat(fd).st_size
    if size > limit:
        handle.close()
        raise SubmissionError(too_big(size))
    return handle


def _read_text(path: Path) -> str:
    """A ``.py`` file's text (UTF-8, a byte-order mark allowed)."""
    def over(size: int) -> str:
        return (f"{path.name} is {size / 1000**2:.0f} MB; the grader reads files of at most "
                f"{MAX_SOURCE_BYTES // 1000**2} MB (is data pasted into it? read it from a "
                "file instead)")

    with _open(path, MAX_SOURCE_BYTES, over) as handle:
        data = handle.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise SubmissionError(f"{path.name} is over {MAX_SOURCE_BYTES // 1000**2} MB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SubmissionError(f"{path.name} is not UTF-8 text ({exc.reason} at byte "
                              f"{exc.start})") from exc


def _cell_problem(cell: object) -> str | None:
    """What is wrong with one cell's shape, or None."""
    if not isinstance(cell, dict):
        return f"is a JSON {type(cell).__name__}, not an object"
    if not isinstance(cell.get("cell_type"), str):
        return "has no 'cell_type' string"
    source = cell.get("source", "")
    if not (isinstance(source, str)
            or isinstance(source, list) and all(isinstance(line, str) for line in source)):
        return "has a 'source' that is neither text nor a list of text lines"
    metadata = cell.get("metadata", {})
    if not isinstance(metadata, dict):
        return "has 'metadata' that is not an object"
    if not isinstance(metadata.get("nbgrader", {}), dict):
        return "has 'metadata.nbgrader' that is not an object"
    return None


def _notebook_cells(path: Path) -> list:
    """The ``cells`` of a notebook whose shape the grader can rely on, without outputs."""
    with _open(path, MAX_NOTEBOOK_BYTES, lambda size: too_big(path.name)) as handle:
        try:
            cells = read_cells(handle, path.name)
        except UnreadableNotebook as exc:
            raise SubmissionError(str(exc)) from None
    for index, cell in enumerate(cells, start=1):
        problem = _cell_problem(cell)
        if problem:
            raise SubmissionError(f"{path.name} is not a readable notebook: cell {index} "
                                  f"{problem}")
    return cells


def read_notebook(path: Path) -> list[Chunk]:
    """The code cells of a notebook that are not nbgrader test cells."""
    chunks = []
    for index, cell in enumerate(_notebook_cells(path), start=1):
        if cell["cell_type"] != "code" or is_test_cell(cell):
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        chunks.append(Chunk(strip_ipython(source), f"cell {index}"))
    return chunks


def read_script(path: Path) -> list[Chunk]:
    """A ``.py`` file: whole, or cut at cell markers when it does not parse whole."""
    text = strip_ipython(_read_text(path))
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
    if path.is_symlink():
        raise SubmissionError(f"{path.name} is a symbolic link (links are not followed)")
    if not path.is_file():
        raise SubmissionError(f"{path} does not exist or is not a file")
    if path.suffix == ".ipynb":
        return read_notebook(path)
    if path.suffix == ".py":
        return read_script(path)
    raise SubmissionError(f"{path.name}: expected a .ipynb notebook or a .py file")
