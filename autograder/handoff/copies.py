"""The notebook formgrader shows for one submission, made without running any of it.

A submitted notebook goes through nbgrader's own non-executing autograde steps (clear
outputs, restore locked cells and the kernelspec, check metadata). A ``.py`` submission is
turned into such a notebook first: a jupytext export that kept the nbgrader metadata is
read back as the notebook it was; any other ``.py`` becomes the release notebook with the
student's whole file in a first cell and the reflection from ``reflection.read_reflection``
in the reflection cell (or, if there is none, a note telling the TA to look by hand).
"""

from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    OverwriteCells,
    OverwriteKernelspec,
)
from traitlets.config import Config

from ..report.format import one_line
from .reflection import GRADE_ID, NAME, read_reflection, reflection_cell

SANITIZE = (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata)
NOT_FOUND = ("**No reflection found** in {file} ({why}). Read the student's file in the "
             "first cell and grade by hand; it may be in a comment.")


@dataclass
class Copy:
    """The formgrader notebook of a submission, and what the TA must know about it."""

    nb: nbformat.NotebookNode | None  # None: nothing to show (nothing, or unreadable)
    problem: str = ""  # why the file is not shown, if it is not
    reflection_missing: str = ""  # a .py whose reflection was not found: where we looked

    def cells(self) -> dict[str, nbformat.NotebookNode]:
        """The notebook's nbgrader cells by grade_id."""
        if self.nb is None:
            return {}
        return {c.metadata.nbgrader["grade_id"]: c for c in self.nb.cells
                if "grade_id" in c.metadata.get("nbgrader", {})}


def grade_id(cell: nbformat.NotebookNode) -> str:
    return cell.metadata.get("nbgrader", {}).get("grade_id", "")


def _from_py(path: Path, release: Path) -> tuple[nbformat.NotebookNode, str]:
    """A notebook for a ``.py`` submission, and where its reflection was not found ("")."""
    import jupytext

    source = path.read_text(encoding="utf-8", errors="replace")
    found = read_reflection(path)
    if reflection_cell(source) is not None:  # a jupytext export with nbgrader metadata
        nb = jupytext.reads(source, fmt="py")
        if found.where.startswith(f"the {NAME}"):
            [cell] = [c for c in nb.cells if grade_id(c) == GRADE_ID]
            cell.source = found.text
        return nb, ""
    nb = nbformat.read(release, as_version=4)
    intro = nbformat.v4.new_markdown_cell(
        f"**Submitted as `{path.name}`**, not as a notebook: its code is the cell below (the "
        "hidden autograder graded it); the other cells are the release notebook's, with the "
        f"reflection taken from {found.where}.")
    code = nbformat.v4.new_code_cell(source)
    intro.id, code.id = "submitted-as-py", "submitted-py-file"  # the same on every hand-off
    nb.cells[:0] = [intro, code]
    for cell in nb.cells:
        if grade_id(cell) == GRADE_ID:
            cell.source = found.text or NOT_FOUND.format(file=path.name, why=found.where)
    return nb, "" if found.text else found.where


def formgrader_copy(path: Path | None, config: Config, resources: dict, release: Path) -> Copy:
    """The formgrader notebook for the submitted ``path`` (the file our grader graded)."""
    if path is None:
        return Copy(None)
    missing = ""
    try:
        if path.suffix == ".py":
            nb, missing = _from_py(path, release)
        else:
            nb = nbformat.read(path, as_version=4)
        resources = {"nbgrader": resources}
        for preprocessor in SANITIZE:
            nb, resources = preprocessor(config=config).preprocess(nb, resources)
    except Exception as exc:  # a broken file still gets our scores
        return Copy(None, f"{path.name} not shown in formgrader: {one_line(exc, 120)}")
    return Copy(nb, reflection_missing=missing)


def reflection_text(path: Path) -> str | None:
    """The reflection in an earlier formgrader copy at ``path``, if there is one."""
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # no earlier copy, or one we cannot read: nothing to compare
        return None
    return next((c.source for c in nb.cells if grade_id(c) == GRADE_ID), None)


def note(cell: nbformat.NotebookNode, text: str) -> None:
    """Show ``text`` as the cell's output (formgrader shows outputs, never runs cells)."""
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]
