"""Red team: CPU time hidden in a child that nobody waits for (redteam, item 3).

The timing tests read a worker's CPU time from ``/proc``: every process of its tree, plus
``cutime``/``cstime``, the children that ended *and were waited for*. A worker that sets
``SIGCHLD`` to ``SIG_IGN`` (or ``SA_NOCLDWAIT``) has its children reaped by the kernel the
moment they exit, and the kernel then adds their time to nobody: work done in such a
child is gone from every reading once it ends. A quadratic ``encode`` that did its long
run that way measured about 0.1x and passed its timing test; with the timing run's
patience (``sandbox/deadline.py``) such a run, using almost no CPU the grader can see, is
not even stopped before ``CALL_TIMEOUT``.

The worker's filter now refuses ``rt_sigaction`` on ``SIGCHLD`` (``worker._filter``):
every child is waited for by its parent, or stays a zombie that the reading still sees.
"""

import platform

import pytest

from autograder.sandbox import Worker
from autograder.suite.run import grade_file
from autograder.suite.student import worker_cpu
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

from .hostile import QUADRATIC_WORK, submission

# Student code: ``unwait()`` asks the kernel not to keep ended children (``how``), and
# carries on when that is refused, as a real submission would.
UNWAIT = '''
import ctypes as _ctypes
import marshal as _marshal
import os as _os
import signal as _signal
import time as _time


def unwait(how):
    try:
        if how == "ignored":
            _signal.signal(_signal.SIGCHLD, _signal.SIG_IGN)
        else:  # SA_NOCLDWAIT by the raw call (x86_64's struct: handler, flags, restorer, mask)
            act = (_ctypes.c_ulong * 4)(0, 2, 0, 0)
            if _ctypes.CDLL(None).syscall(13, 17, _ctypes.byref(act), None, 8) != 0:
                return "refused"
    except OSError:
        return "refused"
    return "set"


def elsewhere(work):
    """``work()`` in a child; its result comes back through a pipe."""
    read, write = _os.pipe()
    pid = _os.fork()
    if pid == 0:
        _os.write(write, _marshal.dumps(work()))
        _os._exit(0)
    _os.close(write)
    chunks = []
    while block := _os.read(read, 1 << 20):
        chunks.append(block)
    _os.close(read)
    try:
        _os.waitpid(pid, 0)
    except ChildProcessError:  # reaped by the kernel already
        pass
    return _marshal.loads(b"".join(chunks))
'''

BURN = UNWAIT + '''

def _burn():
    start = _time.process_time()
    while _time.process_time() - start < 0.4:
        pass
    return "burnt"


def merge_pair(tokens, pair):
    return [unwait(pair[0]), elsewhere(_burn)]
'''

WAYS = ["ignored"] + (["nocldwait"] if platform.machine() == "x86_64" else [])


@pytest.mark.parametrize("how", WAYS)
def test_the_cpu_of_a_child_nobody_waits_for_still_counts(tmp_path, how):
    code = submission(tmp_path, BURN)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        before = worker_cpu(worker)
        assert before is not None
        answer = worker.call("merge_pair", [], (how, "b"))
        used = worker_cpu(worker) - before
    assert answer[1] == "burnt", answer
    assert used >= 0.3, f"the child's 0.4 s of CPU was not counted ({used:.3f} s; {answer})"


# The reference with a quadratic encode whose long run is done in such a child.
HIDDEN = UNWAIT + '''

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        out = []
        if len(text) < 10000:  # the batch's texts: here, slowly
            self._slow_ids(text, out)
            return out
        unwait("ignored")
        return elsewhere(lambda: self._slow_ids(text, out) or out)
'''


@pytest.mark.slow
@pytest.mark.alone
@pytest.mark.timeout(600)
def test_quadratic_work_in_a_child_nobody_waits_for_fails_the_timing_test(tmp_path):
    path = tmp_path / "student.py"
    path.write_text(reference_source(TOKENIZATION) + "\n" + HIDDEN, encoding="utf-8")
    result = grade_file(path, "unwaited", assignment=TOKENIZATION, timeout=300)
    assert result["status"] == "graded", result["error"]
    tests = {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == 2}
    assert tests["test_encode_matches_reference"]["status"] == "passed"  # right answers
    assert tests["test_encode_linear_time"]["status"] == "failed", \
        tests["test_encode_linear_time"]["output"]
    assert tests["test_decode_linear_time"]["status"] == "passed"  # the control



class _Reaped:
    """A worker (pid 1) and its child (pid 2, 1.0 s of CPU), which the worker reaps right
    after the first process is read: the child's time moves into the worker's cutime."""

    def __init__(self) -> None:
        self.reads, self.reaped = [], False

    def cpu(self, pid: int) -> float:
        self.reads.append(pid)
        if pid == 2 and self.reaped:
            raise FileNotFoundError(pid)
        value = (0.1 + (1.0 if self.reaped else 0.0)) if pid == 1 else 1.0
        self.reaped = True  # the reap lands between this reading and the next
        return value


def test_a_child_reaped_during_a_reading_still_counts(monkeypatch):
    """An attack on the CPU reading: a ``decode`` whose helper child did the quadratic work
    and was reaped a few ms after the call returned passed its timing test 7 times in 8.
    The reading read the worker first and the child after, so a reap in between lost the
    child's time. Children are read before their parents, and a reading in which a child
    read was reaped meanwhile is made again."""
    from autograder.sandbox import cleanup
    from autograder.suite import student

    class Process:
        pid = 1

    class FakeWorker:
        process, ref_seconds = Process(), 0.0

    state = _Reaped()
    monkeypatch.setattr(cleanup, "tree", lambda pid: [1] if state.reaped else [1, 2])
    monkeypatch.setattr(student, "_process_cpu", state.cpu)
    monkeypatch.setattr(student, "_unreaped", lambda pid: not (pid == 2 and state.reaped))
    assert student.worker_cpu(FakeWorker()) == pytest.approx(1.1)
