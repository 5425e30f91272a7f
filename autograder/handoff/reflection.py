"""Where a ``.py`` submission keeps its written reflection (Q3), read without running it.

A notebook carries the reflection in its ``reflection`` cell. A ``.py`` file has two places
the notebook's Q3 tells students about, tried in this order:

1. a module-level string ``REFLECTION = \"\"\"...\"\"\"`` (a constant: read with ``ast``);
2. the reflection cell itself, when the file is a jupytext export (``py:percent`` or
   ``py:light``) that kept the cells' nbgrader metadata.

If neither holds text, the reflection is *missing*: the TA is told so (the grader's
warnings and ``summary.md``, and the hand-off's output), and the reflection is never scored
0 silently. This module imports neither nbgrader nor jupytext at import time, so the grader
can use it cheaply; the jupytext reading is left to the hand-off (``reflection_cell``).
"""

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from ..extract.read import strip_ipython

NAME = "REFLECTION"
GRADE_ID = "reflection"
# The start of the warning the grader attaches to a .py submission without a reflection;
# summary.md lists the submissions whose warnings start with it.
MISSING = "no written reflection (Q3) found"
_CELL_MARKER = re.compile(r"^# (%%|In\[[ \d]*\]:|\+)", re.MULTILINE)


@dataclass(frozen=True)
class Reflection:
    """The reflection text of a ``.py`` file (``None`` if absent) and where it came from."""

    text: str | None
    where: str


def _constant(tree: ast.Module) -> str | None:
    """The last top-level ``REFLECTION = "..."`` string in ``tree``, if any."""
    found = None
    for node in tree.body:
        target = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        value = getattr(node, "value", None)
        if (any(isinstance(t, ast.Name) and t.id == NAME for t in target)
                and isinstance(value, ast.Constant) and isinstance(value.value, str)):
            found = value.value
    return found


def reflection_constant(source: str) -> str | None:
    """The ``REFLECTION`` string of a Python source, even if another cell does not parse
    (IPython lines such as ``%run`` are blanked first, as the grader's extraction does)."""
    source = strip_ipython(source)
    try:
        chunks = [ast.parse(source)]
    except (SyntaxError, ValueError):
        starts = [0, *(m.start() for m in _CELL_MARKER.finditer(source)), len(source)]
        chunks = []
        for a, b in zip(starts, starts[1:]):
            try:
                chunks.append(ast.parse(source[a:b]))
            except (SyntaxError, ValueError):
                continue
    texts = [t for t in map(_constant, chunks) if t is not None]
    return texts[-1] if texts else None


def reflection_cell(source: str) -> str | None:
    """The source of the ``reflection`` cell of a jupytext export, if it kept the metadata."""
    import jupytext  # a second's import; only the hand-off needs it

    try:
        nb = jupytext.reads(source, fmt="py")
    except Exception:  # any jupytext failure just means "not a jupytext export"
        return None
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == GRADE_ID:
            return cell.source
    return None


def missing_warning(path: Path) -> str | None:
    """The grader's warning for a ``.py`` file whose reflection cannot be found, else None.

    Reads only the ``REFLECTION`` constant and the jupytext cell header (a text search: the
    grader does not import jupytext); the hand-off reads the cell itself.
    """
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if (reflection_constant(source) or "").strip():
        return None
    if re.search(r'^# [+%]+ \[markdown\].*"grade_id": "reflection"', source, re.MULTILINE):
        return None
    return (f"{MISSING} in {Path(path).name}: the course staff will look for it by hand. "
            f'Next time put it in a module-level string {NAME} = """...""" (see Q3).')


def read_reflection(path: Path) -> Reflection:
    """The reflection of the ``.py`` file at ``path`` and where it was found."""
    source = Path(path).read_text(encoding="utf-8", errors="replace")
    text = reflection_constant(source)
    if text and text.strip():
        return Reflection(text.strip(), f"the {NAME} string")
    cell = reflection_cell(source)
    if cell is not None:
        return Reflection(cell, "its reflection cell (jupytext)")
    return Reflection(None, f"no {NAME} string and no reflection cell")
