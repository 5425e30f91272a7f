"""The scoring process parses source from several threads at once (a grading's workers
start side by side), and Python 3.11's ``ast`` keeps its recursion depth in one shared
place: two parses that interleave can fail with ``SystemError: AST constructor recursion
depth mismatch`` (CPython gh-106905), and the test being set up would be an internal
error. Every parse of the grader's threads goes through ``extract.rules.parse``, which
lets one thread parse at a time: the statements' shapes the workers are told
(``client._source_is_class``) and the reference a stand-in server compiles alike.

Interleaving is forced here: a collection runs during the conversion of the tree, and a
callback of the collector hands the interpreter to another thread.
"""

import ast
import gc
import threading
import time

import pytest

from autograder.extract import rules
from autograder.sandbox import client

SOURCE = "\n".join(f"def f{i}(a, b):\n    return [(x, y) for x in a for y in b if x < y]\n"
                   for i in range(200))


def parse_from_threads(*parsers) -> list[str]:
    """Four threads, each parsing with one of ``parsers`` in turn; the errors they met."""
    errors: list[str] = []

    def work(parse) -> None:
        try:
            for _ in range(5):
                parse(SOURCE)
        except SystemError as exc:
            errors.append(str(exc))

    def switch(phase: str, info: dict) -> None:
        time.sleep(0)  # another thread runs, in the middle of this one's conversion

    threshold = gc.get_threshold()
    gc.callbacks.append(switch)
    gc.set_threshold(50)
    try:
        threads = [threading.Thread(target=work, args=(parsers[i % len(parsers)],))
                   for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        gc.callbacks.remove(switch)
        gc.set_threshold(*threshold)
    return errors


def test_parses_from_several_threads_do_not_break_each_other():
    if not parse_from_threads(ast.parse):  # the interpreter has the bug fixed: no harm
        pytest.skip("ast.parse does not interleave on this Python")
    assert parse_from_threads(rules.parse, client._source_is_class.__wrapped__) == []
