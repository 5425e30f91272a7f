"""Cut student source into top-level statements and assign each to a part.

Only definitions are kept: imports, ``def`` and ``class`` statements, and
assignments to UPPER_CASE names (the spec's constants such as ``Q1_EMBEDDING_MIB``).
Everything else at the top level — demo calls, prints, plots, loops, the student's
own asserts — is dropped, so grading never waits on a notebook's experiments.

A definition whose name is in the spec belongs to that name's part; any other kept
statement is *shared* (helpers, imports) and is loaded with every part.
"""

import ast
from dataclasses import dataclass, field

from ..parts import PART_OF
from .read import Chunk, parse

# Plotting and notebook-display imports cost seconds per worker and grade nothing.
SKIPPED_MODULES = {"matplotlib", "IPython", "ipywidgets", "seaborn", "pandas", "tqdm", "google"}


@dataclass(frozen=True)
class Statement:
    """One top-level statement, as source that compiles on its own."""

    source: str
    origin: str  # "cell 7, line 3"
    names: tuple[str, ...]  # the names it defines
    part: int | None  # None: shared by every part


@dataclass
class StudentCode:
    """A submission cut into statements, with what could not be read."""

    statements: list[Statement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def defined(self) -> set[str]:
        """Every top-level name the submission defines."""
        return {name for st in self.statements for name in st.names}

    def for_part(self, part: int, also: tuple[str, ...] = ()) -> list[Statement]:
        """Shared statements plus the definitions of ``part`` (and of the names in ``also``)."""
        return [
            st
            for st in self.statements
            if st.part is None or st.part == part or any(n in also for n in st.names)
        ]


def _constant_targets(node: ast.Assign | ast.AnnAssign) -> tuple[str, ...] | None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = tuple(t.id for t in targets if isinstance(t, ast.Name))
    if len(names) != len(targets) or not all(n.isupper() for n in names):
        return None
    return names


def _defined_names(node: ast.stmt) -> tuple[str, ...] | None:
    """Names a kept statement defines; ``None`` when the statement is dropped."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        return _constant_targets(node)
    if isinstance(node, ast.Import):
        if any(a.name.split(".")[0] in SKIPPED_MODULES for a in node.names):
            return None
        return tuple((a.asname or a.name).split(".")[0] for a in node.names)
    if isinstance(node, ast.ImportFrom):
        if node.level or (node.module or "").split(".")[0] in SKIPPED_MODULES:
            return None
        return tuple(a.asname or a.name for a in node.names)
    return None


def _part_of(names: tuple[str, ...]) -> int | None:
    parts = {PART_OF[n] for n in names if n in PART_OF}
    return parts.pop() if len(parts) == 1 else None


def split_code(chunks: list[Chunk]) -> StudentCode:
    """Parse every chunk and keep its definitions; unparsable chunks become warnings."""
    code = StudentCode()
    for chunk in chunks:
        try:
            tree = parse(chunk.source)
        except (SyntaxError, ValueError, RecursionError) as exc:  # MemoryError stops it all
            line = getattr(exc, "lineno", None)
            where = f"{chunk.origin}, line {line}" if line else chunk.origin
            code.warnings.append(f"{where}: skipped, it is not valid Python ({type(exc).__name__})")
            continue
        for node in tree.body:
            names = _defined_names(node)
            if names is None:
                continue
            try:
                source = ast.unparse(node)
            except (RecursionError, ValueError):
                code.warnings.append(f"{chunk.origin}, line {node.lineno}: skipped, too deep")
                continue
            code.statements.append(
                Statement(source, f"{chunk.origin}, line {node.lineno}", names, _part_of(names))
            )
    return code
