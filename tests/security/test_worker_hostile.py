"""Red-team tests of the worker boundary: hostile code costs only its own calls.

Each test plays a submission that misbehaves at load or inside a graded call and
checks what the scoring process sees: a ``StudentError`` or ``WorkerFailure``
(never a hang, never a crash of this process), plain data only, and no process
left behind.
"""

import shutil
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from autograder.sandbox import Remote, StudentError, Worker, WorkerFailure, cleanup, limits, users
from autograder.sandbox.limits import REPO
from tests.course import TOKENIZATION

from .hostile import processes_with, submission

LEVEL = limits.isolation()[0]
CONFINED = LEVEL != "basic"  # the worker's escaped children are found and killed
NAMESPACES = LEVEL in ("root", "userns")  # the repository is hidden, no network


def test_os_exit_at_import_is_a_crash_not_a_hang(tmp_path):
    # Bare calls are dropped by extraction; a constant's value still runs at load.
    source = "import os\nEXIT = os._exit(0)\ndef merge_pair(t, p):\n    return t\n"
    code = submission(tmp_path, source)
    with pytest.raises(WorkerFailure) as failure:
        Worker(TOKENIZATION, code, part=4, timeout=5)
    assert failure.value.kind == "crash"


def test_sys_exit_at_import_is_reported_and_the_rest_loads(tmp_path):
    code = submission(tmp_path, """
        import sys
        EXIT = sys.exit(3)
        def merge_pair(tokens, pair):
            return list(tokens)
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        assert any("SystemExit" in e for e in worker.load_errors)
        assert worker.call("merge_pair", ["a"], ("a", "b")) == ["a"]


@pytest.mark.parametrize("exc", ["SystemExit(0)", "KeyboardInterrupt()", "GeneratorExit()"])
def test_base_exceptions_from_a_call_are_student_errors(tmp_path, exc):
    code = submission(tmp_path, f"""
        def merge_pair(tokens, pair):
            if pair:
                raise {exc}
            return list(tokens)
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        with pytest.raises(StudentError) as error:
            worker.call("merge_pair", ["a"], ("a", "b"))
        assert not error.value.is_a("Exception")
        assert worker.alive  # and it keeps serving
        assert worker.call("merge_pair", ["a"], ()) == ["a"]


def test_infinite_loop_at_import_times_out_and_dies(tmp_path):
    # A bare loop is dropped by extraction (not a definition); a class body runs.
    code = submission(tmp_path, "class Hang:\n    while True:\n        pass\n")
    start = time.monotonic()
    with pytest.raises(WorkerFailure) as failure:
        Worker(TOKENIZATION, code, part=4, timeout=1.5)
    assert failure.value.kind == "timeout"
    assert time.monotonic() - start < 10


def test_infinite_loop_in_a_call_times_out_and_the_worker_is_killed(tmp_path):
    code = submission(tmp_path, "def merge_pair(tokens, pair):\n    while True:\n        pass\n")
    worker = Worker(TOKENIZATION, code, part=4, timeout=1.0)
    pid = worker.process.pid
    with pytest.raises(WorkerFailure) as failure:
        worker.call("merge_pair", ["a"], ("a", "b"))
    assert failure.value.kind == "timeout"
    assert not worker.alive
    assert not __import__("os").path.exists(f"/proc/{pid}")
    with pytest.raises(WorkerFailure):
        worker.call("merge_pair", ["a"], ("a", "b"))


def test_memory_beyond_the_limit_fails_the_call_only(tmp_path):
    code = submission(tmp_path, """
        def merge_pair(tokens, pair):
            hog = bytearray(8 * 1024 ** 3)
            return [len(hog)]
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=20) as worker:
        with pytest.raises((StudentError, WorkerFailure)) as error:
            worker.call("merge_pair", ["a"], ("a", "b"))
        if isinstance(error.value, StudentError):
            assert error.value.is_a("MemoryError")


def test_children_that_leave_the_session_do_not_outlive_grading(tmp_path):
    token = f"outlive-{uuid.uuid4().hex}"
    code = submission(tmp_path, f"""
        import subprocess
        def merge_pair(tokens, pair):
            for _ in range(3):  # each in a new session, outside the worker's process group
                sleeper = ["/usr/bin/python3", "-c", "import time; time.sleep(60)", "{token}"]
                subprocess.Popen(sleeper, start_new_session=True)
            return list(tokens)
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        assert worker.call("merge_pair", ["a"], ("a", "b")) == ["a"]
        deadline = time.monotonic() + 3
        while len(processes_with(token)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(token), "the children never started: the test would prove nothing"
    deadline = time.monotonic() + 5
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = processes_with(token)
    if not CONFINED:
        for pid in survivors:  # basic level cannot promise this; clean up and say so
            import os
            import signal

            os.kill(pid, signal.SIGKILL)
        pytest.skip("no PID namespace here: escaped children are not reaped")
    assert survivors == []


# What the child of Part 3's class does first: nothing, leave the trial's process group, or
# fork again (a grandchild that only comes to the worker once its parent is killed).
ESCAPES = {"stays": "pass", "setsid": "__import__('os').setsid()",
           "chain": "__import__('os').fork()"}


@pytest.mark.parametrize("escape", ESCAPES)
def test_another_parts_class_leaves_no_process_behind(tmp_path, escape):
    """Part 3's class is quiet code in Part 4's worker (``worker.quietly``): tried in a
    forked copy, then run for real. A process either one starts, in a session of its own or
    a child of another, is killed once the statement is done; it used to live on through
    the whole part, spending cores (a review's class that forked four spinners held five
    workers' trees). A process the graded part's own code started at load is kept."""
    graded = ("def merge_pair(tokens, pair):\n    return list(tokens)\n\n\n"
              "SLEEPER = __import__('subprocess').Popen(['/usr/bin/python3', '-c', "
              "'import time; time.sleep(60)'])\n\n\n")
    leaver = graded + textwrap.dedent(f"""
        class BPETokenizer:
            if __import__("os").fork() == 0:
                {ESCAPES[escape]}
                __import__("time").sleep(60)
                __import__("os")._exit(0)
    """)
    trees = []  # processes in the worker's tree after its load
    for source in (graded.split("SLEEPER")[0], graded, leaver):
        with Worker(TOKENIZATION, submission(tmp_path, source), part=4, timeout=5) as worker:
            assert worker.call("merge_pair", ["a"], ("a", "b")) == ["a"]  # it still serves
            trees.append(len(cleanup.tree(worker.process.pid)))
    assert trees[1] == trees[0] + 1 and trees[2] == trees[1], trees  # the sleeper alone


def test_objects_that_claim_to_equal_anything_arrive_as_handles(tmp_path):
    code = submission(tmp_path, """
        class Anything(list):
            def __eq__(self, other):
                return True
        class Liar:
            def __eq__(self, other):
                return True
            __hash__ = None
        def merge_pair(tokens, pair):
            return Liar()
        def count_pairs(word_tokens, word_freq):
            return Anything()
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        liar = worker.call("merge_pair", ["a"], ("a", "b"))
        assert isinstance(liar, Remote) and liar != ["a"]
        fake_list = worker.call("count_pairs", {}, {})
        assert type(fake_list) is list and fake_list != ["anything"]


def test_flooding_output_is_capped(tmp_path):
    code = submission(tmp_path, """
        def merge_pair(tokens, pair):
            for _ in range(100_000 if pair else 0):
                print("x" * 1000)
            return list(tokens)
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=20) as worker:
        try:
            worker.call("merge_pair", ["a"], ("a", "b"))
        except StudentError as error:
            assert error.is_a("OSError")  # the file-size limit stops the flood
        assert len(worker.output()) <= 4000
        assert worker.call("merge_pair", ["a"], ()) == ["a"]


@pytest.mark.skipif(not NAMESPACES, reason="needs namespaces (root or user namespaces)")
def test_the_grader_and_the_reference_are_invisible(tmp_path):
    code = submission(tmp_path, """
        import os
        def merge_pair(tokens, pair):
            seen = []
            for root, dirs, files in os.walk("/"):
                dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr", "lib")]
                seen += [os.path.join(root, f) for f in files
                         if f.startswith("test_part") or f in ("bpe_steps.py", "grades.csv")]
            return seen
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=30) as worker:
        found = worker.call("merge_pair", [], ("a", "b"))
        assert [p for p in found if str(REPO) in p or "solutions" in p] == []


@pytest.mark.skipif(not NAMESPACES, reason="needs namespaces (root or user namespaces)")
def test_writes_outside_the_private_tmp_are_refused(tmp_path):
    target = REPO / "out" / f"results-{uuid.uuid4().hex}.json"
    code = submission(tmp_path, f"""
        import os
        def merge_pair(tokens, pair):
            outcome = []
            for path in [{str(target)!r}, "/tmp/ok.txt"]:
                try:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as handle:
                        handle.write("score: 100")
                    outcome.append("wrote")
                except OSError as exc:
                    outcome.append(type(exc).__name__)
            return outcome
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        outcome = worker.call("merge_pair", [], ("a", "b"))
    # Under /tmp (a clone there) the write may land in the worker's private /tmp: what
    # matters is that nothing appears on the grader's side.
    assert outcome[1] == "wrote"
    assert not target.exists()


@pytest.mark.skipif(not NAMESPACES, reason="needs namespaces (root or user namespaces)")
def test_no_network(tmp_path):
    code = submission(tmp_path, """
        import socket
        def merge_pair(tokens, pair):
            try:
                socket.create_connection(("127.0.0.1", 9), timeout=1)
            except OSError as exc:
                return [type(exc).__name__, str(exc.errno)]
            return ["connected"]
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        outcome = worker.call("merge_pair", [], ("a", "b"))
    # EPERM from the system-call filter, or ENETUNREACH (no interfaces up) without it.
    assert outcome[0] != "connected" and outcome[1] in ("1", "101")


@pytest.mark.skipif(LEVEL != "drop", reason="file modes guard the secrets only at the drop level")
def test_without_namespaces_readable_secrets_are_reported(monkeypatch):
    # A checkout is world-readable (as a clone is), so the grader must say the secrets are
    # exposed, until close_secrets (the CLI's, at this level) closes them.
    checkout = Path(tempfile.mkdtemp(prefix="open-checkout-"))  # pytest's tmp_path is closed
    try:
        (checkout / "source" / "tokenization").mkdir(parents=True, mode=0o755)
        (checkout / "source" / "tokenization" / "tokenization.ipynb").write_text("{}")
        checkout.chmod(0o755)
        monkeypatch.setattr(limits, "REPO", checkout)
        assert limits.exposed_secrets() == ["source/tokenization/tokenization.ipynb"]
        assert limits.close_secrets() == ["source"]
        assert limits.exposed_secrets() == []
    finally:
        shutil.rmtree(checkout)


@pytest.mark.skipif(LEVEL not in ("root", "drop"), reason="only root can change user")
def test_the_worker_runs_as_nobody(tmp_path):
    # At the drop level: a user of its own from the pool, never one the system knows.
    source = "import os\ndef merge_pair(tokens, pair):\n    return [os.getuid()]\n"
    code = submission(tmp_path, source)
    with Worker(TOKENIZATION, code, part=4, timeout=5) as worker:
        (uid,) = worker.call("merge_pair", [], ())
    assert uid == limits.NOBODY if LEVEL == "root" else uid in users.pool()
