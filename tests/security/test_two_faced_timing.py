"""Red team: quadratic code that is honest when judged and fast when timed (review, item 2).

``remote.Own`` forgives a timed output that differs from the reference when the student's
code gives the same output untimed, in a fresh worker. Code can tell those workers apart
from the correctness tests: the part's own worker sees a timed run start (the harness's
``put`` of the inputs followed by a ``map`` that keeps its result), and a fresh worker's
first calls are the timing test's (it never saw the short texts of the earlier tests). A
quadratic ``encode`` that returned junk of the right length in a timed run and in the
fresh worker, and did the real work everywhere else, passed every correctness test and
its timing test: 100 where the same code without the trick earns 99. ``Own`` now forgives
only a deviation that a test judging the same names has already charged
(``judged.forgive``), so this code fails its timing test.

The submission is the reference with one override (a later cell), graded through
``grade_file`` as the CLI does; everything it does happens inside its methods, so the
grader keeps it.
"""

import pytest

from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

from .hostile import QUADRATIC_WORK

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow, pytest.mark.alone]

QUADRATIC = QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        if len(text) >= 4000 and (not _SEEN_SHORT[0] or _timed()):
            return [0] * len(text)  # junk of the right length, at no cost
        _SEEN_SHORT[0] = _SEEN_SHORT[0] or len(text) < 4000
        out = []
        self._slow_ids(text, out)
        return out
'''

# Tells a timed run by the shape of its requests: a ``put``, then a ``map`` with ``keep``.
BY_SHAPE = '''
import sys as _sys

_SEEN_SHORT = [False]
_TIMED = [False]
_PATCHED = [False]


def _timed():
    return _TIMED[0]


def _watch():
    main = _sys.modules.get("__main__")
    answer = getattr(main, "answer", None)
    if answer is None or _PATCHED[0]:
        return
    _PATCHED[0] = True

    def watching(request, objects, namespace):
        if request.get("op") == "put":
            _TIMED[0] = True
        elif request.get("op") != "map" or request.get("keep") is not True:
            _TIMED[0] = False
        return answer(request, objects, namespace)

    main.answer = watching


class CharTokenizer(CharTokenizer):
    def __init__(self, *args, **kwargs):
        _watch()
        super().__init__(*args, **kwargs)
''' + QUADRATIC


def test_code_that_knows_it_is_timed_fails_its_timing_test(tmp_path):
    path = tmp_path / "student.py"
    path.write_text(reference_source(TOKENIZATION) + "\n" + BY_SHAPE, encoding="utf-8")
    result = grade_file(path, "two-faced", assignment=TOKENIZATION, timeout=300)
    assert result["status"] == "graded", result["error"]
    tests = {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == 2}
    # Honest wherever it is judged: the trick costs nothing there ...
    assert tests["test_encode_matches_reference"]["status"] == "passed"
    # ... so its quadratic encode must be caught where it is timed.
    assert tests["test_encode_linear_time"]["status"] == "failed", \
        tests["test_encode_linear_time"]["output"]
