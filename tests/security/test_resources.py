"""Red-team tests of resource bounds: per submission, in the scorer, and while extracting.

- A submission's workers together stay within ``limits.SUBMISSION_MEMORY`` even when every
  one of them takes all the memory it can (before: 2 GiB each, 8 at once).
- A worker's reply is refused by its size before it is read, and its decoding is bounded
  in depth and in the number of values (before: a 64 MB reply was read, and the scorer
  grew to 2.3 GB decoding it; a deeply nested reply raised ``RecursionError`` out of the
  protocol).
- The scoring process runs under its own address-space limit (before: none).
- Extraction runs in a limited child process within the grading timeout: a file that is
  too big to parse is that student's error row, and the grader's process stays small
  (before: a 2 MB list literal took 5.5 GB in the CLI's own process, outside ``--timeout``).

A worker writes straight to its pipe here, as student code can (the pipe's number is in
``sys.argv``), to send what the worker's own encoder would never produce.
"""

import contextlib
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from autograder.sandbox import Worker, WorkerFailure, limits
from autograder.suite import zygote
from autograder.suite.run import SCORER_MEMORY, grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

from .hostile import submission

MIB = 1024**2

RAW_REPLY = '''
def merge_pair(tokens, pair):
    import os, struct, sys
    body = {body}
    data = memoryview(struct.pack(">I", len(body)) + body)
    while data:
        data = data[os.write(int(sys.argv[2]), data):]
    return list(tokens)
'''


def raw_reply(tmp_path: Path, body: str):
    """A Part 4 submission whose ``merge_pair`` writes the reply ``body`` (bytes source)."""
    return submission(tmp_path, RAW_REPLY.format(body=body))


def rss_of_tree(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants."""
    from autograder.sandbox.cleanup import tree as _descendants

    total = 0
    for member in _descendants(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


@pytest.mark.slow
def test_a_submissions_workers_together_stay_within_its_memory_budget(tmp_path):
    # Every worker of a submission (six parts, two spare Part 3 workers) grabs memory,
    # page by page, until its limit or 400 MiB; together they must stay within budget.
    code = submission(tmp_path, '''
        HELD = []

        def hog(limit):
            block = 16 * 1024 * 1024
            try:
                while len(HELD) * block < limit:
                    chunk = bytearray(block)
                    chunk[::4096] = b"x" * (block // 4096)
                    HELD.append(chunk)
            except MemoryError:
                pass
            return len(HELD) * block
    ''')
    wanted = [(part, 1) for part in TOKENIZATION.parts]
    wanted += [(3, seed) for seed in TOKENIZATION.extra_workers[3]]
    assert len(wanted) == limits.WORKERS_AT_ONCE
    workers = []
    try:
        for part, seed in wanted:
            workers.append(Worker(TOKENIZATION, code, part, timeout=30, hash_seed=seed))
        held = [worker.call("hog", 400 * MIB) for worker in workers]
        total = sum(rss_of_tree(worker.process.pid) for worker in workers)
    finally:
        for worker in workers:
            worker.close()
    assert all(h >= 64 * MIB for h in held), held  # each really took memory
    assert total <= limits.SUBMISSION_MEMORY, (
        f"{total / MIB:.0f} MiB resident in one submission's workers")


# The child's own peak memory. VmHWM belongs to the process's address space, so it starts
# afresh at exec; ru_maxrss would carry over the test process's high-water mark.
PEAK = """
def peak_kib():
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0
"""

def test_a_reply_over_the_cap_is_refused_before_it_is_read(tmp_path):
    # 30 MB of empty lists: decoded, over a gigabyte in the scorer. Measured in a child
    # process, whose peak memory is its own.
    source = RAW_REPLY.format(body='b\'{"ok": true, "value": [\' + b"[]," * 10_000_000'
                                   ' + b"[]]}"')
    script = f'''
import json
from pathlib import Path
from autograder.sandbox import Worker, WorkerFailure
from tests.course import TOKENIZATION
{PEAK}
from tests.security.hostile import submission
code = submission(Path({str(tmp_path)!r}), {source!r})
kind = None
with Worker(TOKENIZATION, code, part=4, timeout=60) as worker:
    try:
        worker.call("merge_pair", ["a"], ["a", "b"])
    except WorkerFailure as exc:
        kind = exc.kind
print(json.dumps({{"kind": kind, "peak": peak_kib()}}))
'''
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["kind"] == "protocol"
    assert outcome["peak"] * 1024 < 300 * MIB, f"the scorer side peaked at {outcome['peak']} KiB"


def test_a_deeply_nested_reply_is_a_protocol_failure(tmp_path):
    code = raw_reply(tmp_path, 'b\'{"ok": true, "value": \' + b"[" * 100_000 + b"]" * 100_000'
                               ' + b"}"')
    with Worker(TOKENIZATION, code, part=4, timeout=30) as worker, \
            pytest.raises(WorkerFailure) as failure:
        worker.call("merge_pair", ["a"], ["a", "b"])
    assert failure.value.kind == "protocol"


def test_a_reply_with_too_many_values_is_a_protocol_failure(tmp_path):
    # 1.5 million zeros fit in 3 MB: under the size cap, over the count.
    code = raw_reply(tmp_path, 'b\'{"ok": true, "value": [\' + b"0," * 1_500_000 + b"0]}"')
    with Worker(TOKENIZATION, code, part=4, timeout=30) as worker, \
            pytest.raises(WorkerFailure) as failure:
        worker.call("merge_pair", ["a"], ["a", "b"])
    assert failure.value.kind == "protocol"


def _scorer_pids() -> list[int]:
    """The scoring processes of this process's graders: the runs their zygotes forked."""
    pids = []
    for warm in list(zygote._zygotes.values()):
        pid = warm.process.pid
        with contextlib.suppress(OSError):
            pids += map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    return pids


@pytest.mark.slow
def test_the_scoring_process_has_its_own_memory_limit(tmp_path):
    # The reference, graded while this test reads the scoring process's limits.
    path = tmp_path / "scorer_limits.py"
    path.write_text(reference_source(TOKENIZATION), encoding="utf-8")
    result: dict = {}
    grading = threading.Thread(
        target=lambda: result.update(grade_file(path, "x", assignment=TOKENIZATION)))
    grading.start()
    seen = None  # the last reading; the limit is set just after the process starts
    while grading.is_alive() and seen != str(SCORER_MEMORY):
        for pid in _scorer_pids():
            try:
                lines = Path(f"/proc/{pid}/limits").read_text().splitlines()
            except OSError:
                continue
            seen = next(line.split()[3] for line in lines if line.startswith("Max address"))
        time.sleep(0.02)
    grading.join()
    assert result["score"] == 100.0
    assert seen == str(SCORER_MEMORY)


HUGE_LITERAL = "X = [" + "1," * 600_000 + "]\ndef merge_pair(tokens, pair):\n    return tokens\n"


def _grade_in_child(path: Path, timeout: float) -> dict:
    """``grade_file`` in a child process: its result, wall time and own peak memory."""
    script = f'''
import json, time
from autograder.assignment import load
from autograder.suite.run import grade_file
{PEAK}
start = time.monotonic()
result = grade_file({str(path)!r}, "x", assignment=load("tokenization"), timeout={timeout})
print(json.dumps({{"status": result["status"], "error": result["error"],
                  "seconds": time.monotonic() - start,
                  "peak": peak_kib()}}))
'''
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_file_too_big_to_parse_is_an_error_row_and_the_grader_stays_small(tmp_path):
    path = tmp_path / "huge_literal.py"
    path.write_text(HUGE_LITERAL, encoding="utf-8")
    outcome = _grade_in_child(path, timeout=120)
    assert outcome["status"] == "error"
    assert "MiB" in outcome["error"], outcome["error"]
    assert outcome["peak"] * 1024 < 200 * MIB, f"the grader peaked at {outcome['peak']} KiB"


def test_extraction_counts_towards_the_grading_timeout(tmp_path):
    path = tmp_path / "huge_literal.py"
    path.write_text(HUGE_LITERAL, encoding="utf-8")
    outcome = _grade_in_child(path, timeout=2)
    assert outcome["status"] == "error"
    assert outcome["seconds"] < 6, outcome
