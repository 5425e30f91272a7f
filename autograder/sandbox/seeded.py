"""A fresh, seeded generator that a test passes to student code, made in the worker.

A function that samples takes its generator as an argument (a ``random.Random``, or a
``numpy.random.Generator``) and must draw only from it. A generator is an object, not data,
so it cannot cross the pipe; ``Seeded(kind, seed)`` crosses instead, as the tag
``{"__seeded__": [kind, seed]}``, and the worker makes ``random.Random(seed)`` or
``numpy.random.default_rng(seed)`` there. Kept in the worker (``put``), the generator's
state can be read back after the call (``getstate``, ``bit_generator.state``), which is how
a test checks the number and order of draws.

The worker seeds the global generators itself (``worker.GLOBAL_SEED``), so code that draws
from them is deterministic and does not follow the test's seed.
"""

from dataclasses import dataclass

TAG = "__seeded__"
KINDS = ("random", "numpy")


@dataclass(frozen=True)
class Seeded:
    """``random.Random(seed)`` (kind ``"random"``) or ``numpy.random.default_rng(seed)``
    (kind ``"numpy"``), to be made in the worker."""

    kind: str
    seed: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS or type(self.seed) is not int or self.seed < 0:
            raise ValueError(f"a generator is one of {KINDS} with a seed >= 0")

    def wire(self) -> dict:
        return {TAG: [self.kind, self.seed]}
