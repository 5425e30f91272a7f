"""When the scorer stops waiting for a worker: a request's deadline, and patience.

Every request to a worker has a wall-clock limit (``Worker.timeout``). On a busy machine
wall time is not the student's: a worker that waits for a core, or is stalled while
another process forks or faults in memory, looks hung while its code has barely run.
For most requests the limit is seconds above what they need, so that never matters. A
timing test's run is different: it is stopped at a small multiple of its twin's time,
so that quadratic code does not cost minutes, and its twin may take milliseconds.

So a deadline may ask for *patience* once its wall time is up: a function that says
how many more seconds to wait (0: stop now). The timing harness gives one that waits
while the worker's CPU time stays below the limit (``suite/student.py``), so the run is
stopped by what its code did, and a hard wall-clock cap still ends a worker that sleeps.
"""

import time
from collections.abc import Callable

# The least extra wait granted at a time: a worker just short of its budget is not
# polled in a busy loop.
LEAST_WAIT = 0.05

Patience = Callable[[], float]


class Deadline:
    """``seconds`` of wall time from now, extended while ``patience()`` grants more."""

    def __init__(self, seconds: float, patience: Patience | None = None) -> None:
        self.at = time.monotonic() + seconds
        self.patience = patience

    def left(self) -> float:
        """Seconds left to wait; 0 when the request is over (its wall time is up and
        patience, if any, grants nothing more)."""
        left = self.at - time.monotonic()
        if left > 0:
            return left
        more = self.patience() if self.patience is not None else 0.0
        if more <= 0:
            return 0.0
        more = max(more, LEAST_WAIT)
        self.at = time.monotonic() + more
        return more
