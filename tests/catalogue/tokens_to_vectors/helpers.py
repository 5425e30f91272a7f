"""Helpers of the tokens-to-vectors catalogue's witnesses.

Witnesses compare outcomes with ``differs``, which tests ``!=`` on what a probe returns:
an array there would be ambiguous, so probes hand back plain lists of rounded floats
(``rounded``). A design whose fault is its cost is shown by the memory it allocates
(``peak_bytes``): numpy reports its buffers to ``tracemalloc``, so a lookup that copies a
table of 8 MB allocates 8 MB whatever else the machine is doing, where a timing would
depend on the load.
"""

import tracemalloc
from collections.abc import Callable

import numpy as np


def rounded(value: object, digits: int = 6) -> object:
    """``value`` as nested lists of floats rounded to ``digits``: comparable with ``==``."""
    return np.round(np.asarray(value, dtype=np.float64), digits).tolist()


def peak_bytes(func: Callable[[], object]) -> int:
    """The most memory ``func()`` held at once, in bytes (Python objects and numpy buffers)."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def allocates_more(bug: dict, ref: dict, call: Callable[[dict], object], at_least: int) -> None:
    """Assert that ``call`` allocates ``at_least`` bytes on the entry and a quarter of that
    on the reference: the entry builds something the reference never needs."""
    bug_peak, ref_peak = peak_bytes(lambda: call(bug)), peak_bytes(lambda: call(ref))
    assert bug_peak >= at_least > 4 * ref_peak, (
        f"peak memory: entry {bug_peak:,} bytes, reference {ref_peak:,}, "
        f"threshold {at_least:,}")


def mutated(source: str, old: str, new: str) -> str:
    """``source`` with its one occurrence of ``old`` replaced: an entry changed in one place."""
    assert source.count(old) == 1, old
    return source.replace(old, new)
