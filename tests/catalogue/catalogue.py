"""The catalogue's machinery: what an entry is, and how a submission is built from it.

Each assignment has a catalogue package, ``tests/catalogue/<assignment>/``, whose
``CATALOGUE`` (a ``Catalogue``) holds its entries and its correct implementations;
``catalogues()`` finds every one. The machinery here knows no assignment.

An *entry* is one wrong implementation: a plausible student bug in ONE function,
class or method, written as the code a student would hand in for it. Its submission
is the assignment's whole reference flattened into one file (a perfect ``.py``
submission) with the entry's code in it: a function, class or constant is appended
(the grader keeps the last definition of a name, so it replaces the reference's); a
method is written as ``class Name(Name): def method(...)`` and is edited into the
reference's class, so the submission holds one class whose one method is wrong, as a
student's would.

Every entry also carries a *witness*: a check, run in this process on the built
submission and on the reference, that the bug is real (the entry differs from the
spec somewhere). It keeps the catalogue honest when the hidden suite is silent.
"""

import ast
import gc
import importlib
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from autograder import assignment as assignments
from autograder.assignment import Assignment
from autograder.sandbox.reference import reference_without

Namespace = dict
Witness = Callable[[Namespace, Namespace], None]


@dataclass(frozen=True)
class Entry:
    """One wrong implementation, the part where it must lose points, and why it is wrong."""

    assignment: str
    name: str
    part: int
    misconception: str
    code: str
    witness: Witness
    # Set when the hidden suite does not catch the entry: the test that would.
    gap: str | None = None
    # Tests the entry must pass: one fault is charged once (a deterministic tie-break
    # that is not the spec's loses the tie tests, never the hash-seed test).
    spares: tuple[str, ...] = ()
    # Only a timing test of its part catches it: its fault is its speed (a quadratic
    # encode, a trainer that recounts), or shows only on a timing test's long inputs (an
    # encode that gives up on long texts). It must be caught under load too: ``make
    # timing-stability`` grades it there, and a catalogue test checks the marking.
    timed: bool = False

    def __post_init__(self) -> None:
        assert self.part in assignments.load(self.assignment).parts, self.name
        assert self.name.startswith(f"p{self.part}_"), self.name


@dataclass(frozen=True)
class Correct:
    """A correct submission; ``gap`` says why the grader wrongly takes points, if it does.

    ``code``, when set, is edited into the reference like an entry's (``submission_source``,
    as a later cell with ``later_cells``): the reference written in another student's
    style. Else ``name`` is the reference itself (``"reference"``) or a file of the
    catalogue's ``correct/`` folder, a percent-format notebook when ``notebook``.

    A correct alternative that the contract names (another column layout, another pairing
    of dimensions, an equivalent form) scores full marks but for the one test that checks
    the convention: ``loses`` names that test (``"part3::test_rope_convention"``), and
    ``named`` holds the words its failure message must contain, so that the student reads
    which convention they followed ("interleaved pairs (GPT-J style)").
    """

    name: str
    description: str
    gap: str | None = None
    code: str | None = None
    later_cells: bool = False
    notebook: bool = False
    loses: tuple[str, ...] = ()
    named: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        assert not self.named or self.loses, f"{self.name}: words named by no lost test"


@dataclass
class Catalogue:
    """One assignment's wrong entries (registered with ``wrong``) and correct submissions."""

    assignment: str
    entries: list[Entry] = field(default_factory=list)
    correct: list[Correct] = field(default_factory=list)

    def wrong(self, part: int, misconception: str, code: str, gap: str | None = None,
              spares: tuple[str, ...] = (), timed: bool = False):
        """Register the decorated witness as the catalogue entry of the same name."""

        def register(witness: Witness) -> Entry:
            entry = Entry(self.assignment, witness.__name__, part, misconception, code,
                          witness, gap, spares, timed)
            self.entries.append(entry)
            return entry

        return register


def catalogues() -> dict[str, Catalogue]:
    """Every assignment's catalogue (``tests/catalogue/<name>/``), by assignment name."""
    found = {}
    for name in assignments.known():
        package = importlib.import_module(f"{__package__}.{name}")
        found[name] = package.CATALOGUE
    return found


def all_entries() -> list[Entry]:
    return [entry for catalogue in catalogues().values() for entry in catalogue.entries]


@cache
def reference_source(assignment: Assignment) -> str:
    """The assignment's reference solution as one valid Python file."""
    return reference_without(assignment, 0)[0]


def _is_override(node: ast.stmt) -> bool:
    """``class X(X): ...``: the catalogue's way of writing "method(s) of X changed"."""
    return (
        isinstance(node, ast.ClassDef)
        and len(node.bases) == 1
        and isinstance(node.bases[0], ast.Name)
        and node.bases[0].id == node.name
    )


def _member(node: ast.stmt) -> str | None:
    """The name a class-body statement defines (a method, or ``NAME = value``)."""
    if isinstance(node, ast.FunctionDef):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
            node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _edit_class(target: ast.ClassDef, override: ast.ClassDef) -> None:
    """Replace ``target``'s methods and class constants by the override's (new ones are
    appended)."""
    for member in override.body:
        name = _member(member)
        if name is None:
            continue
        names = [_member(n) for n in target.body]
        if name in names:
            target.body[names.index(name)] = member
        else:
            target.body.append(member)


def submission_source(assignment: Assignment, *codes: str, later_cells: bool = False) -> str:
    """The reference changed by each of ``codes``: what a student with those bugs hands in.

    A method override ``class X(X): def m(...)`` is written into the reference's class
    ``X`` (the student edited one method of their class); any other definition is
    appended and, being later, replaces the reference's definition of that name. With
    ``later_cells``, overrides are appended as they are instead, like a notebook cell
    that redefines ``X`` as a subclass of itself to change one method.
    """
    module = ast.parse(reference_source(assignment))
    classes = {n.name: n for n in module.body if isinstance(n, ast.ClassDef)}
    for code in codes:
        for node in ast.parse(textwrap.dedent(code)).body:
            if _is_override(node) and not later_cells:
                _edit_class(classes[node.name], node)
            else:
                module.body.append(node)
    return ast.unparse(module) + "\n"


def load(source: str) -> Namespace:
    """Execute a submission in a fresh namespace (only ever our own catalogue code)."""
    namespace: Namespace = {"__name__": "catalogue_submission"}
    exec(compile(source, "<catalogue submission>", "exec"), namespace)  # noqa: S102
    return namespace


# --- helpers for witnesses ----------------------------------------------------------


def outcome(func: Callable[[], object]) -> tuple[str, object]:
    """``("ok", value)`` or ``("raises", exception class name)``."""
    try:
        return ("ok", func())
    except Exception as exc:  # noqa: BLE001 - the outcome is what we compare
        return ("raises", type(exc).__name__)


def differs(bug: Namespace, ref: Namespace, probe: Callable[[Namespace], object]) -> None:
    """Assert that ``probe`` has a different outcome on the entry and on the reference."""
    got, want = outcome(lambda: probe(bug)), outcome(lambda: probe(ref))
    assert got != want, f"the entry behaves like the reference: {got!r}"


def timed(func: Callable[[], object]) -> float:
    """Seconds one call takes, with the garbage collector paused (it adds noise)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        func()
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def growth(small: Callable[[], object], large: Callable[[], object], repeat: int = 3) -> float:
    """How many times longer ``large`` takes than ``small`` (best of interleaved runs)."""
    small()  # warm caches and allocators
    best_small = best_large = float("inf")
    for _ in range(repeat):
        best_small = min(best_small, timed(small))
        best_large = min(best_large, timed(large))
    return best_large / max(best_small, 1e-6)


FACTOR = 8


def superlinear(bug: Namespace, ref: Namespace, make, bug_n: int, ref_n: int) -> None:
    """Assert that the entry grows quadratically where the reference grows linearly.

    ``make(ns, n)`` returns a call on input of size ``n``. Each namespace is measured at
    sizes where it takes milliseconds (``n`` and ``8 n``): about 64x longer for a
    quadratic cost, about 8x for a linear one (up to 16x on a loaded machine whose
    caches overflow, so the reference is measured at sizes past that step).
    """
    bug_growth, ref_growth = 0.0, float("inf")
    for _ in range(3):  # noise hides growth, it never creates it: retry on a busy machine
        bug_growth = max(bug_growth, growth(make(bug, bug_n), make(bug, bug_n * FACTOR)))
        ref_growth = min(ref_growth, growth(make(ref, ref_n), make(ref, ref_n * FACTOR)))
        if bug_growth > 2 * FACTOR and bug_growth > 2 * ref_growth:
            return
    raise AssertionError(f"{FACTOR}x input: entry {bug_growth:.1f}x, reference {ref_growth:.1f}x")
