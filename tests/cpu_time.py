"""CPU time for the tests that compare two sizes measured in one run.

The least of a few runs, with the garbage collector collected before and held off
during each: by the end of ``make test`` this process holds hundreds of tests' objects,
and one full collection in a timed run (a third of a second, seen in CI) can make a
20 ms run look like 350 ms. CPU time, not wall time: another process on the cores
does not count.
"""

import gc
import time
from collections.abc import Callable


def least_cpu_seconds(run: Callable[[], object], repeat: int = 3) -> float:
    """The least CPU seconds of ``repeat`` calls of ``run``, no collection inside."""
    best = float("inf")
    enabled = gc.isenabled()
    try:
        for _ in range(repeat):
            gc.collect()
            gc.disable()
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
            if enabled:
                gc.enable()
    finally:
        if enabled:
            gc.enable()
    return best
