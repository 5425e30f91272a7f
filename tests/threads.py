"""Run test code in several threads at once and keep what they raised: an exception in
a thread is printed and lost, so a test that only joined its threads could not fail."""

import threading
from collections.abc import Callable


def errors_at_once(work: Callable[[], None], count: int,
                   timeout: float = 30) -> list[BaseException]:
    """Run ``work`` in ``count`` threads started together; the exceptions they raised."""
    errors: list[BaseException] = []

    def guarded() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test, which fails on it
            errors.append(exc)

    threads = [threading.Thread(target=guarded) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return errors
