"""Red-team tests of the timing tests: quadratic code cannot pass them by hiding its work.

Each test grades the reference with one hostile override (the way a notebook redefines a
method in a later cell) through ``grade_file``, as the CLI does, and checks that the
timing test the trick aims at fails while the rest of the part is not what is judged.
All three tricks scored their timing point on the grader before these fixes:

- the work done in a helper thread (only the main thread's CPU time was read), or in a
  child process that is gone by the time the clock is read;
- a fake output of the right length for long inputs (only the length was checked, and
  no other test used inputs that long);
- a ``map`` of the student's own, reached by the suite through a student function's
  ``__builtins__``, that skipped the student's slow code.
"""

from collections.abc import Callable

import pytest

from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

from .hostile import QUADRATIC_WORK

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow, pytest.mark.alone]


HELPER_THREAD = '''
import threading as _threading
import time as _time

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        out = []
        worker = _threading.Thread(target=self._slow_ids, args=(text, out))
        worker.start()
        worker.join()
        if len(text) < 10000:
            _time.sleep(0.05)  # a batch that looks slow on the wall clock, at no CPU cost
        return out
'''

HELPER_PROCESS = '''
import marshal as _marshal
import os as _os
import time as _time

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        if len(text) < 10000:  # the batch's texts: here, slowly on the wall clock
            out = []
            self._slow_ids(text, out)
            _time.sleep(0.05)
            return out
        read, write = _os.pipe()
        pid = _os.fork()
        if pid == 0:  # the child does the work, and is gone before the next reading
            out = []
            self._slow_ids(text, out)
            with _os.fdopen(write, "wb") as pipe:
                pipe.write(_marshal.dumps(out))
            _os._exit(0)
        _os.close(write)
        with _os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _os.waitpid(pid, 0)
        return _marshal.loads(data)
'''

FAKE_LENGTH = '''
class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        if len(text) >= 4000:
            return [0] * len(text)
        out = []
        self._slow_ids(text, out)
        return out
'''

BUILTINS_SWAP = '''
import builtins as _builtins
import types as _types

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        out = []
        self._slow_ids(text, out)
        return out


def _fast_map(func, *iterables):
    if getattr(func, "__name__", "") == "encode":
        return _builtins.map(lambda text, *rest: [0] * len(text), *iterables)
    return _builtins.map(func, *iterables)


class _Install:
    # A function whose __builtins__ hold the fake map, named to be found first.
    globals()["a_helper"] = _types.FunctionType(
        compile("def a_helper():\\n    pass\\n", "<x>", "exec").co_consts[0],
        {"__builtins__": {**vars(_builtins), "map": _fast_map}})
'''

# Not a trick that worked before (the old suite read the length inside the timing), but
# one the timed fetch is there for: the result is worked out only when it is read.
LAZY_OUTPUT = '''
class _LazyIds(list):
    def __init__(self, tokenizer, text):
        super().__init__()
        self._pending = (tokenizer, text)

    def _fill(self):
        if self._pending is not None:
            tokenizer, text = self._pending
            self._pending = None
            out = []
            tokenizer._slow_ids(text, out)
            self.extend(out)

    def __iter__(self):
        self._fill()
        return list.__iter__(self)

    def __len__(self):
        self._fill()
        return list.__len__(self)

    def __repr__(self):
        self._fill()
        return list.__repr__(self)

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        return _LazyIds(self, text)
'''


PLAIN_QUADRATIC = "class CharTokenizer(CharTokenizer):\n" + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        out = []
        self._slow_ids(text, out)
        return out
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Callable[[str], dict[str, dict]]:
    """``graded(override)``: the Part 2 tests of the reference with ``override``, graded
    once per module (two tests judge the fake output's one grading)."""
    done: dict[str, dict[str, dict]] = {}

    def grade(override: str) -> dict[str, dict]:
        if override not in done:
            path = tmp_path_factory.mktemp("timing") / "student.py"
            path.write_text(reference_source(TOKENIZATION) + "\n" + override, encoding="utf-8")
            result = grade_file(path, "hostile", assignment=TOKENIZATION, timeout=300)
            assert result["status"] == "graded", result["error"]
            done[override] = {test["id"].split("::")[-1]: test
                              for test in result["tests"] if test["part"] == 2}
        return done[override]

    return grade


@pytest.mark.parametrize(
    "override", [HELPER_THREAD, HELPER_PROCESS, BUILTINS_SWAP, LAZY_OUTPUT],
    ids=["helper_thread", "helper_process", "builtins_swap", "lazy_output"])
def test_quadratic_encode_fails_its_timing_test_however_hidden(graded, override):
    tests = graded(override)
    timing = tests["test_encode_linear_time"]
    assert timing["status"] == "failed", timing["output"]


def test_the_plain_quadratic_encode_is_caught_too(graded):
    """The control: the same slow code, hidden nowhere, fails on its CPU time."""
    tests = graded(PLAIN_QUADRATIC)
    assert tests["test_encode_linear_time"]["status"] == "failed"
    assert "as long as 16 encode calls" in tests["test_encode_linear_time"]["output"]
    assert tests["test_encode_matches_reference"]["status"] == "passed"


def test_a_fake_output_fails_the_correctness_test_at_the_same_size(graded):
    """Junk for every text of the timing test's sizes, real (quadratic) work below them.
    The junk is charged where it belongs, by the correctness test that grades texts of
    those sizes, once (a timing test judges time, and the timed outputs agree
    with the student's own untimed ones); the cheat still earns less than the honest
    quadratic encode, whose only loss is its timing test."""
    tests = graded(FAKE_LENGTH)
    assert tests["test_encode_matches_reference"]["status"] == "failed"
    honest = graded(PLAIN_QUADRATIC)
    assert sum(t["score"] for t in tests.values()) < sum(t["score"] for t in honest.values())
