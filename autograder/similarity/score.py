"""How similar two submissions are, part by part, and the order pairs are listed in.

The similarity of two texts is the share of their fingerprints they have in common:
``2 * shared / (fingerprints of a + fingerprints of b)``, 0 when nothing is shared, 1 when
each text is covered by the other. A fingerprint stands for 25 characters of code with
every name, string and comment erased, so renaming, rewording docstrings and comments,
and moving functions around change nothing; rewriting a loop as a comprehension changes
only that loop.

A pair gets a score per part (``parts``) and overall (every part's fingerprints
together, so each part counts by its length). A part where either side has fewer than
``LONG`` fingerprints is *short*: a 3-line function that merges a pair has one natural
solution and looks alike in every class, so a short part is flagged and never leads. A pair's
``score``, the order of the report, is the higher of its overall similarity and that of
its most similar long part: two students who share one long, unusual part rank high even
when their other parts differ.

A score says how much code two submissions share, not why: the same tutorial, a study
group, help from a TA, or a copy. Reading the two side by side is the instructor's
judgement; nothing here judges.
"""

from dataclasses import dataclass, field

from .documents import Document, Span
from .fingerprint import Fingerprint, statement_of

LONG = 60  # fingerprints (about 200 characters of filtered code) on both sides
NAMED = 3  # fingerprints a statement needs for its names to be listed as shared


@dataclass
class Side:
    """One submission or known source, fingerprinted: what comparing needs of it."""

    label: str
    fingerprints: dict[int, Fingerprint]
    spans: dict[int, list[Span]]
    statement: dict[int, dict[int, int]] = field(default_factory=dict)  # part: hash -> index
    counts: dict[int, list[int]] = field(default_factory=dict)  # part: fingerprints per index
    source: bool = False  # a known source (--against), never compared with another one
    notes: list[str] = field(default_factory=list)  # what was left out of it

    @classmethod
    def of(cls, doc: Document, fingerprints: dict[int, Fingerprint],
           source: bool = False) -> "Side":
        side = cls(doc.label, fingerprints, doc.spans, source=source, notes=doc.notes)
        for part, fp in fingerprints.items():
            spans = doc.spans[part]
            side.statement[part] = statement_of(fp, [s.start for s in spans])
            counts = [0] * len(spans)
            for index in side.statement[part].values():
                counts[index] += 1
            side.counts[part] = counts
        return side

    def size(self, part: int) -> int:
        return len(self.fingerprints[part].hashes) if part in self.fingerprints else 0


@dataclass
class Pair:
    """Two sides' similarity: ``score`` orders the report (module docstring)."""

    a: str
    b: str
    score: float
    overall: float
    parts: dict[int, float]
    short: set[int]
    shared_names: list[str] = field(default_factory=list)


def _shared_names(side: Side, part: int, shared: set[int]) -> list[str]:
    """Names of ``side``'s statements of ``part`` with at least ``NAMED`` fingerprints, at
    least half of them in ``shared`` (a one-line constant has too few to tell)."""
    hits = [0] * len(side.counts[part])
    for value in shared:
        hits[side.statement[part][value]] += 1
    return [name for index, span in enumerate(side.spans[part])
            if side.counts[part][index] >= NAMED and 2 * hits[index] >= side.counts[part][index]
            for name in span.names]


def compare(x: Side, y: Side, names: bool = True) -> Pair:
    """The similarity of ``x`` and ``y``; ``names`` also finds the shared names."""
    parts: dict[int, float] = {}
    short: set[int] = set()
    shared_total = size_total = 0
    shared_names: list[str] = []
    for part in sorted(x.fingerprints.keys() | y.fingerprints.keys()):
        size = x.size(part) + y.size(part)
        size_total += size
        if not x.size(part) or not y.size(part):
            continue
        shared = x.fingerprints[part].hashes & y.fingerprints[part].hashes
        shared_total += len(shared)
        parts[part] = 2 * len(shared) / size
        if min(x.size(part), y.size(part)) < LONG:
            short.add(part)
        if names and shared:
            shared_names += _shared_names(x, part, shared)
    overall = 2 * shared_total / size_total if size_total else 0.0
    leading = [score for part, score in parts.items() if part not in short]
    return Pair(x.label, y.label, max([overall, *leading]), overall, parts, short,
                shared_names)


def rank(students: list[Side], sources: list[Side], floor: float) -> list[Pair]:
    """Every pair of students and every student with every source whose score is at
    least ``floor``, the most similar first (ties by name, so the order never varies)."""
    found = []
    for i, x in enumerate(students):
        for y in [*students[i + 1:], *sources]:
            pair = compare(x, y, names=False)
            if pair.score >= floor:
                found.append(compare(x, y))
    found.sort(key=lambda p: (-p.score, p.a, p.b))
    return found
