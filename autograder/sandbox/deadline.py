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
stopped by what its code did; a worker that sleeps is stopped by the watch wrapped around
every patience (``suite/asleep.py``), and a hard wall-clock cap ends anything else.

A deadline may also have a *cap*: wall seconds past which no patience is granted. The
CPU budget of an ordinary request (``suite/budget.py``) looks at the worker's CPU early
and often, so its wall time is short and the cap is the request's real limit; work the
scorer does for the request (a stand-in call, decoding the reply) is held to the cap.
"""

import time
from collections.abc import Callable

# The least extra wait granted at a time: a worker just short of its budget is not
# polled in a busy loop.
LEAST_WAIT = 0.05

Patience = Callable[[], float]


class Deadline:
    """``seconds`` of wall time from now, extended while ``patience()`` grants more, never
    past ``cap`` seconds from now (if given)."""

    def __init__(self, seconds: float, patience: Patience | None = None,
                 cap: float | None = None) -> None:
        now = time.monotonic()
        self.at = now + seconds
        self.patience = patience
        self.cap = None if cap is None else now + cap

    def left(self) -> float:
        """Seconds left to wait; 0 when the request is over (its wall time is up and
        patience, if any, grants nothing more)."""
        left = self.at - time.monotonic()
        if left > 0:
            return left
        more = self.patience() if self.patience is not None else 0.0
        if self.cap is not None:
            more = min(more, self.cap - time.monotonic())
        if more <= 0:
            return 0.0
        more = max(more, LEAST_WAIT)
        self.at = time.monotonic() + more
        return more

    def most(self) -> float:
        """The most seconds the request may still take: up to the cap if there is one,
        else what is left (the CPU limit of the scorer's own work for the request)."""
        left = self.left()
        if left <= 0 or self.cap is None:
            return left
        return max(left, self.cap - time.monotonic())
