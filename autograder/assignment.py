"""What the engine knows about an assignment: everything comes from its folder.

The engine knows no assignment by name. An assignment is a folder holding ``spec.py``
(its parts, points, spec names and settings, below) and the hidden tests
``test_part*.py``; its reference solution is the package ``solutions/<name>/``
unless ``spec.py`` says where else (the engine's toy assignment keeps its reference
beside its tests). The course's assignments are the folders of ``autograder/hidden/``;
``load`` also takes a folder's path, which is how the engine's tests grade the toy.

``spec.py`` sets, as plain module constants:

- ``TITLE``; ``PARTS`` (part number -> title) and ``POINTS`` (part -> points);
- ``PART_OF`` (each graded top-level name -> its part) and ``METHOD_PART`` (a method
  graded in another part than its class: ``(class, method) -> part``);
- ``SHARED_NAMES``: constants every part may use, never graded;
- ``REFERENCE_MODULES``: the reference package's modules in dependency order (the
  sandbox flattens them into one namespace, ``sandbox/reference.py``);
- optional: ``GRADING_ORDER`` (default: by part number), ``EXTRA_WORKERS`` (part ->
  hash seeds of the extra workers its tests ``spawn``), ``REFERENCE`` (the reference
  folder), ``REFLECTION`` (True when students write a reflection graded by hand, which a
  ``.py`` submission keeps in a ``REFLECTION`` string: see ``handoff.reflection``),
  ``BENCH_SECONDS`` (``make bench``'s target: wall seconds per sample submission).

What decides a score is the engine, the assignment's folder and its reference
(``decisive_paths``, and every code or data file under them, ``decisive_files``): the
result cache and the validity reports take it from here.
"""

import importlib.util
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent
REPO = ENGINE.parent
HIDDEN = ENGINE / "hidden"
SOLUTIONS = REPO / "solutions"
NAME = re.compile(r"[a-z][a-z0-9_]*")
# The engine's parts that decide a score (the reports, the CLI and the tools do not).
DECISIVE = ("extract", "sandbox", "suite", "assignment.py", "results.py")
# What lies among them but decides nothing: reports (MUTATION.md), notes and bytecode.
SKIPPED = (".md", ".pyc")


class UnknownAssignment(ValueError):
    """No assignment of that name or folder; the message lists the known ones."""


@dataclass(frozen=True, eq=False)  # one object per folder (``load`` caches): hashed by identity
class Assignment:
    """One assignment, read from its folder's ``spec.py`` (see the module docstring)."""

    name: str
    folder: Path
    reference: Path
    title: str
    parts: dict[int, str]
    points: dict[int, int]
    part_of: dict[str, int]
    method_part: dict[tuple[str, str], int]
    shared_names: tuple[str, ...]
    reference_modules: tuple[str, ...]
    grading_order: tuple[int, ...]
    extra_workers: dict[int, tuple[int, ...]] = field(default_factory=dict)
    reflection: bool = False
    bench_seconds: float = 3.0

    @property
    def total(self) -> int:
        return sum(self.points.values())

    def names_of(self, part: int) -> list[str]:
        """The spec's top-level names that belong to ``part``."""
        return [name for name, p in self.part_of.items() if p == part]

    def module(self, name: str) -> ModuleType | None:
        """``name.py`` of the assignment's folder (its own tools' material: ``survivors``,
        ``timing_variants``), imported, or None if it has none."""
        path = self.folder / f"{name}.py"
        return _import(path, f"_assignment_{self.name}_{name}") if path.is_file() else None

    def decisive_paths(self) -> tuple[Path, ...]:
        """What decides this assignment's scores: the engine's grading parts, the hidden
        tests and the reference. The cache and the validity reports go by this list."""
        return (*(ENGINE / part for part in DECISIVE), self.folder, self.reference)

    def decisive_files(self) -> list[Path]:
        """Every file under ``decisive_paths`` that can change a score: code and data
        (GPT-2's ranks, Unicode test files), never reports or notes (``*.md``) or
        bytecode caches."""
        files = []
        for root in self.decisive_paths():
            found = [root] if root.is_file() else sorted(root.rglob("*"))
            files += [path for path in found if path.is_file() and path.suffix not in SKIPPED
                      and "__pycache__" not in path.parts]
        return files


def known() -> list[str]:
    """The course's assignments: the folders of ``autograder/hidden`` with a ``spec.py``."""
    return sorted(p.parent.name for p in HIDDEN.glob("*/spec.py"))


def load(name_or_folder: str | Path) -> Assignment:
    """The assignment called ``name_or_folder``, or the one in that folder."""
    text = str(name_or_folder)
    if NAME.fullmatch(text) and (HIDDEN / text / "spec.py").is_file():
        return _load(HIDDEN / text)
    folder = Path(text).expanduser()
    if (folder / "spec.py").is_file():
        return _load(folder.resolve())
    raise UnknownAssignment(
        f"unknown assignment {text!r}; the known ones are: {', '.join(known()) or 'none'}")


def _import(path: Path, module_name: str) -> ModuleType:
    """The Python file ``path`` imported as ``module_name`` (not added to any package)."""
    located = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(located)  # type: ignore[arg-type]
    located.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@cache
def _load(folder: Path) -> Assignment:
    module = _import(folder / "spec.py", f"_assignment_{folder.name}")
    parts = dict(module.PARTS)
    reference = Path(getattr(module, "REFERENCE", SOLUTIONS / folder.name))
    assignment = Assignment(
        name=folder.name,
        folder=folder,
        reference=reference.resolve(),
        title=module.TITLE,
        parts=parts,
        points=dict(module.POINTS),
        part_of=dict(module.PART_OF),
        method_part=dict(getattr(module, "METHOD_PART", {})),
        shared_names=tuple(getattr(module, "SHARED_NAMES", ())),
        reference_modules=tuple(module.REFERENCE_MODULES),
        grading_order=tuple(getattr(module, "GRADING_ORDER", sorted(parts))),
        extra_workers={p: tuple(s) for p, s in getattr(module, "EXTRA_WORKERS", {}).items()},
        reflection=bool(getattr(module, "REFLECTION", False)),
        bench_seconds=float(getattr(module, "BENCH_SECONDS", 3.0)),
    )
    _check(assignment)
    return assignment


def _check(a: Assignment) -> None:
    """A spec that contradicts itself is the course's bug: say so before grading anyone."""
    problems = []
    if set(a.points) != set(a.parts):
        problems.append("PARTS and POINTS name different parts")
    if sorted(a.grading_order) != sorted(a.parts):
        problems.append("GRADING_ORDER must list every part once")
    if not set(a.part_of.values()) <= set(a.parts):
        problems.append("PART_OF names a part that PARTS does not have")
    if not set(a.extra_workers) <= set(a.parts):
        problems.append("EXTRA_WORKERS names a part that PARTS does not have")
    if problems:
        raise ValueError(f"assignment {a.name} ({a.folder / 'spec.py'}): " + "; ".join(problems))


def infer(path: Path, defined: set[str] = frozenset()) -> Assignment | None:
    """The assignment of a submission: from its place (``submitted/<student>/<name>/``,
    or a folder or file named after it), else from the graded names its code
    ``defined`` (the one assignment that most of them belong to); ``None`` when neither
    tells."""
    names = set(known())
    for part in reversed(Path(path).resolve().parts):
        if Path(part).stem in names:
            return load(Path(part).stem)
    overlap = {name: len(defined & set(load(name).part_of)) for name in names}
    best = max(overlap.values(), default=0)
    winners = [name for name, count in overlap.items() if count == best]
    return load(winners[0]) if best and len(winners) == 1 else None
