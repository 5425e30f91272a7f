"""Cut student source into the top-level statements that are graded.

The rules (what is kept, what is dropped, which warnings are given) live in ``rules.py``,
the one copy the students' preflight is built from; this module wraps what they return
in the grader's types.

Which part a statement belongs to is the assignment's business, not extraction's
(``StudentCode.for_part`` with the assignment's ``PART_OF``): a definition of a spec name
belongs to that name's part; any other kept statement is *shared* (helpers, imports)
and is loaded with every part.
"""

from dataclasses import dataclass, field

from .read import Chunk
from .rules import kept_names, split_chunks


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


def split_code(chunks: list[Chunk]) -> StudentCode:
    """Parse every chunk and keep its definitions; unparsable chunks become warnings."""
    kept, notes = split_chunks([(chunk.source, chunk.origin) for chunk in chunks])
    return StudentCode([Statement(*st) for st in kept], [message for _, message in notes])


__all__ = ["Statement", "StudentCode", "kept_names", "split_code"]
