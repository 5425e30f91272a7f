"""The catalogue's machinery: what an entry is, and how a submission is built from it.

An *entry* is one wrong implementation: a plausible student bug in ONE function,
class or method, written as the code a student would hand in for it. Its submission
is the whole reference solution flattened into one file (a perfect ``.py``
submission) with the entry's code appended; the grader keeps the last definition
of a name, so the entry replaces exactly that definition. A method is replaced by
a subclass of the same name that overrides it (``class BPETokenizer(BPETokenizer)``),
which is what editing that one method in the student's class amounts to.

Every entry also carries a *witness*: a check, run in this process on the built
submission and on the reference, that the bug is real (the entry differs from the
spec somewhere). It keeps the catalogue honest when the hidden suite is silent.
"""

import gc
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from autograder.parts import PARTS
from autograder.sandbox.reference import reference_without

Namespace = dict
Witness = Callable[[Namespace, Namespace], None]


@dataclass(frozen=True)
class Entry:
    """One wrong implementation, the part where it must lose points, and why it is wrong."""

    name: str
    part: int
    misconception: str
    code: str
    witness: Witness
    # Set when the hidden suite does not catch the entry: the test that would.
    gap: str | None = None

    def __post_init__(self) -> None:
        assert self.part in PARTS, self.name
        assert self.name.startswith(f"p{self.part}_"), self.name


@cache
def reference_source() -> str:
    """The reference solution as one valid Python file."""
    return reference_without(0)[0]


def submission_source(code: str) -> str:
    """The reference with ``code`` appended: later definitions override earlier ones."""
    return f"{reference_source()}\n\n\n# --- catalogue entry ---\n{textwrap.dedent(code).strip()}\n"


def load(source: str) -> Namespace:
    """Execute a submission in a fresh namespace (only ever our own catalogue code)."""
    namespace: Namespace = {"__name__": "catalogue_submission"}
    exec(compile(source, "<catalogue submission>", "exec"), namespace)  # noqa: S102
    return namespace


ENTRIES: list[Entry] = []


def wrong(part: int, misconception: str, code: str, gap: str | None = None):
    """Register the decorated witness as the catalogue entry of the same name."""

    def register(witness: Witness) -> Entry:
        entry = Entry(witness.__name__, part, misconception, code, witness, gap)
        ENTRIES.append(entry)
        return entry

    return register


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


def trained(ns: Namespace, corpus: list[str], vocab_size: int = 1000):
    tokenizer = ns["BPETokenizer"](vocab_size)
    tokenizer.train(list(corpus))
    return tokenizer


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
    bug_growth = growth(make(bug, bug_n), make(bug, bug_n * FACTOR))
    ref_growth = growth(make(ref, ref_n), make(ref, ref_n * FACTOR))
    assert bug_growth > 2 * FACTOR and bug_growth > 2 * ref_growth, (bug_growth, ref_growth)


# Corpora the witnesses use; the hidden suite has its own.
HELLO = ["hello", "hello", "help"]
SENNRICH = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
