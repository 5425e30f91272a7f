"""Work that every grading repeats, done once in the zygote before it forks.

A hidden test's inputs, and the reference's answers on them, are the same in every
grading: everything is seeded. But a scoring process is a fork of the zygote
(``zygote.py``) that throws its memory away when it ends, so a value a test works out and
caches during one grading is worked out again in the next. ``ahead`` marks such a
function: it is ``functools.cache``d, and the zygote calls it with each of the arguments
given, once, after it has imported the hidden tests (``fill``). Every fork then starts
with those values in memory. A call with other arguments is computed and cached in the
fork, as before, and a scoring process that no zygote forked computes on first call: the
values are the same either way, only where they are computed changes. A call is known by
its arguments bound to the function's parameters, defaults filled in, so ``f(1, 2)`` listed
ahead is found by ``f(1, 2, False)`` or ``f(1, b=2)`` in a test.

Only the grader's own data may be computed ahead (the zygote never sees a submission),
and only what nearly every grading uses: the zygote pays for it once per batch even if no
grading asks.
"""

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterable

# What ``fill`` calls: one entry per decorated function.
_PENDING: list[tuple[Callable, Callable[[], Iterable[tuple]]]] = []


def ahead(calls: Iterable[tuple] | Callable[[], Iterable[tuple]] = ((),)) -> Callable:
    """Decorator: the function, cached, and called by ``fill`` with each argument tuple of
    ``calls`` (or of what ``calls()`` gives, if it must wait for other modules)."""

    def decorate(func: Callable) -> Callable:
        signature = inspect.signature(func)
        values: dict[tuple, object] = {}

        @functools.wraps(func)
        def cached(*args: object, **kwargs: object) -> object:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = (*bound.args, *sorted(bound.kwargs.items()))
            if key not in values:
                values[key] = func(*args, **kwargs)
            return values[key]

        arguments = calls if callable(calls) else (lambda: list(calls))
        _PENDING.append((cached, arguments))
        return cached

    return decorate


def fill() -> int:
    """Make every call registered so far (the zygote does, before it forks); how many.

    A call that raises (or a list of calls that cannot be made) is left to the grading
    that makes it, which reports it there; the other calls are made."""
    made = 0
    for cached, arguments in _PENDING:
        calls: list[tuple] = []
        with contextlib.suppress(Exception):
            calls = list(arguments())
        for args in calls:
            with contextlib.suppress(Exception):
                cached(*args)
                made += 1
    return made
