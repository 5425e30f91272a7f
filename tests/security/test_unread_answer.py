"""Red team: a worker that stops reading its pipe (review, item 3: can the worker make the
scorer hang?).

The scorer's requests and its answers to stand-in calls are written to the worker's
input pipe. A worker that asks for a stand-in whose answer is larger than the pipe holds
(64 KiB; here ``merge_pair`` of 300,000 tokens, about 1.5 MB) and then never reads it held
the scoring process in a blocking write past every request's time limit: a grading hung
until its whole run was killed (300 s), whatever the test's limits. Now the write has the
request's time too, and the worker fails like one that does not answer.
"""

import time
from pathlib import Path

import pytest

from autograder.sandbox import Worker, WorkerFailure
from tests.course import TOKENIZATION

from .hostile import submission

pytestmark = pytest.mark.timeout(120)

NEVER_READS = '''
def probe():
    import gc, json, os, struct, sys, time
    kind = sys.modules["__main__"].Channel
    channel = next(o for o in gc.get_objects() if type(o) is kind)
    data = json.dumps({"ref": "call", "name": "merge_pair",
                       "args": [["a"] * 300000, {"__tuple__": ["x", "y"]}], "kwargs": []})
    payload = struct.pack(">I", len(data)) + data.encode()
    while payload:
        payload = payload[os.write(channel.out_fd, payload):]
    time.sleep(3600)  # the answer is never read
'''


def test_an_answer_the_worker_never_reads_fails_it_in_time(tmp_path: Path):
    code = submission(tmp_path, NEVER_READS)
    with Worker(TOKENIZATION, code, part=3, timeout=2) as worker:
        started = time.monotonic()
        with pytest.raises(WorkerFailure) as failure:
            worker.call("probe")
        assert failure.value.kind == "timeout", failure.value.detail
        assert time.monotonic() - started < 30  # the request's 2 s, with room for a load
        assert not worker.alive
