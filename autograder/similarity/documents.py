"""What is compared: the code the grader keeps, cut into one text per part.

A submission is read as the grader reads it (``extract_limited``: a child process under
limits, so a hostile file costs that file, never the report). From the kept statements,
imports are left out (everyone imports the same few modules) and a name defined twice
counts once, at its last definition (the one the grader grades). Each statement goes to
the part of the spec names it defines (the assignment's ``PART_OF``); a statement that
defines no spec name, or names of several parts (helpers, constants), goes to part 0,
"other code". Markdown, outputs, experiments and demo calls never reach this module:
extraction already dropped them.

A string literal longer than ``MAX_LITERAL`` characters is compared as ``"…"``: data,
not code, and lexing megabytes of it would only slow the report down. In a file over
``LARGE_FILE`` bytes this is done before extraction too, on a copy (cell by cell for a
notebook) that a child process under extraction's limits writes (``shorten.py``), because
extraction itself can take minutes on a 10 MB literal. A statement
still longer than ``MAX_STATEMENT`` characters after that (a huge list of numbers) is
left out and noted.
"""

import io
import json
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from ..assignment import Assignment
from ..extract import EXTRACT_TIMEOUT, StudentCode, SubmissionError, extract_limited, run_module
from ..extract.notebook import read_cells

OTHER = 0  # the part of helpers and constants that belong to no single part
MAX_LITERAL = 1000  # characters of one string literal, beyond which it is data
MAX_STATEMENT = 50_000  # characters of one statement after literals are shortened
LARGE_FILE = 1_000_000  # bytes of a file whose long literals are shortened before extraction


@dataclass(frozen=True)
class Span:
    """Where one kept statement lies in a document, and the names it defines."""

    start: int
    end: int
    names: tuple[str, ...]


@dataclass
class Document:
    """One submission's kept code: a text per part, with where each statement lies."""

    label: str
    parts: dict[int, str] = field(default_factory=dict)
    spans: dict[int, list[Span]] = field(default_factory=dict)  # into each part's text
    notes: list[str] = field(default_factory=list)


def _short_literals(source: str) -> str:
    """``source`` with every string literal over ``MAX_LITERAL`` characters emptied."""
    if len(source) <= MAX_LITERAL:
        return source
    pieces, last = [], 0
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.STRING and len(tok.string) > MAX_LITERAL:
                begin = starts[tok.start[0] - 1] + tok.start[1]
                end = starts[tok.end[0] - 1] + tok.end[1]
                pieces += [source[last:begin], '"…"']
                last = end
    except (tokenize.TokenError, SyntaxError):
        return source
    return "".join(pieces) + source[last:]


def _is_import(source: str) -> bool:
    return source.lstrip().startswith(("import ", "from "))


def document(label: str, codes: list[StudentCode], assignment: Assignment) -> Document:
    """The document of ``codes`` (one submission's files, in order) for ``assignment``."""
    doc = Document(label)
    statements = [st for code in codes for st in code.statements if not _is_import(st.source)]
    seen: set[str] = set()
    kept = []
    for st in reversed(statements):  # the last definition of a name is the graded one
        if st.names and set(st.names) <= seen:
            continue
        seen.update(st.names)
        kept.append(st)
    by_part: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
    for st in reversed(kept):
        source = _short_literals(st.source.lstrip("\n"))
        if len(source) > MAX_STATEMENT:
            doc.notes.append(f"{st.origin}: {len(source):,} characters, left out (data, "
                             "not code)")
            continue
        parts = {assignment.part_of[n] for n in st.names if n in assignment.part_of}
        part = parts.pop() if len(parts) == 1 else OTHER
        by_part.setdefault(part, []).append((source, st.names))
    for part in sorted(by_part, key=lambda p: (p == OTHER, p)):
        offset, spans = 0, []
        for source, names in by_part[part]:
            spans.append(Span(offset, offset + len(source), names))
            offset += len(source) + 2
        doc.parts[part] = "\n\n".join(source for source, _ in by_part[part])
        doc.spans[part] = spans
    return doc


def shortened_text(path: Path) -> str:
    """The text of ``path`` with its long literals shortened: a notebook cell by cell,
    without its outputs (they are not code). Run by ``shorten.py``, under limits."""
    if path.suffix != ".ipynb":
        return _short_literals(path.read_text(encoding="utf-8"))
    with path.open("rb") as file:
        cells = read_cells(file, path.name)
    for cell in cells:
        source = cell.get("source", "")
        joined = "".join(source) if isinstance(source, list) else str(source)
        cell["source"] = _short_literals(joined)
    return json.dumps({"cells": cells, "nbformat": 4})


def _shortened_copy(path: Path, folder: Path) -> Path:
    """``path``, or, if it is large, a copy in ``folder`` with its long literals shortened
    by a child process under extraction's limits (``shorten.py``); a file the child cannot
    shorten is extracted as it is, and extraction says what is wrong with it."""
    try:
        if path.stat().st_size <= LARGE_FILE:
            return path
    except OSError:
        return path
    copy = folder / path.name
    code, _, _ = run_module("autograder.similarity.shorten", [str(path), str(copy)],
                            EXTRACT_TIMEOUT)
    return copy if code == 0 and copy.is_file() else path


def read_document(label: str, paths: list[Path], assignment: Assignment) -> Document:
    """``document`` of the files ``paths``; raises ``SubmissionError`` if one is unreadable."""
    codes = []
    with tempfile.TemporaryDirectory(prefix="similarity-") as folder:
        for path in paths:
            try:
                codes.append(extract_limited(_shortened_copy(path, Path(folder))))
            except SubmissionError as exc:
                raise SubmissionError(f"{path.name}: {exc}") from None
    return document(label, codes, assignment)
