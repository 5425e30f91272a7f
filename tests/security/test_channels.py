"""Red team: no channel between workers, to the host, or out of grading.

Each test is an attack of its own and runs at the level of the session
(``AUTOGRADER_ISOLATION=root|drop|basic`` forces one); what a level cannot promise
is skipped with the reason, as the threat model says (``docs/threat-model.md``).

- Workers of one submission share nothing: files in /dev/shm and /tmp, System V
  IPC, signals, /proc (category 2).
- No network (category 2) and nothing but the standard library, numpy and regex to
  import.
- Nothing outlives a worker: no process (even one that cleared its environment and
  left the session), no /dev/shm file, no System V object (category 4).
"""

import contextlib
import socket
import threading
import uuid

import pytest

from autograder.sandbox import Worker, limits, users
from autograder.sandbox.cleanup import tree as _descendants
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

from .hostile import submission
from .leftovers import LEAVE_BEHIND, NOTHING, ipc_key, leftovers

LEVEL = limits.isolation()[0]
SEPARATE = LEVEL != "basic"  # basic: the workers run as the grader's user, nothing between


def test_nothing_outlives_a_worker(tmp_path):
    token = f"outlive{uuid.uuid4().hex}"
    code = submission(tmp_path, LEAVE_BEHIND)
    keys = [ipc_key(token, n) for n in range(3)]
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        made = worker.call("_leave", token, keys)
    assert made, "the attack did not run"
    assert leftovers(token) == NOTHING or LEVEL == "basic" and not leftovers(token)["ipc"]


@pytest.mark.slow
def test_nothing_outlives_grading(tmp_path):
    # Through the scoring process, as a batch grades: at the basic level too, where the
    # child that cleared its environment is found as an orphan of the scoring process.
    token = f"outlive{uuid.uuid4().hex}"
    keys = [ipc_key(token, n) for n in range(3)]
    path = tmp_path / "leaver.py"
    path.write_text(reference_without(TOKENIZATION, 0)[0] + LEAVE_BEHIND + f"""
def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    _leave({token!r}, {keys!r})
    return vocab_size * embed_dim * bytes_per_param
""", encoding="utf-8")
    result = grade_file(path, "leaver", assignment=TOKENIZATION, timeout=200)
    assert result["status"] == "graded", result["error"]
    assert leftovers(token) == NOTHING


SHARER = '''
import ctypes, os
def share(token, key):
    """Leave a secret in every place another worker might look; say which worked."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = []
    for folder in ("/dev/shm", "/tmp"):
        try:
            with open(f"{folder}/{token}", "w") as handle:
                handle.write("secret")
            os.chmod(f"{folder}/{token}", 0o666)
            done.append(folder)
        except OSError as exc:
            done.append(f"{folder}: {exc.errno}")
    shm = libc.shmget(key, 4096, 0o1666)
    if shm >= 0:
        address = ctypes.c_void_p(libc.shmat(shm, None, 0))
        ctypes.memmove(address, b"secret", 6)
        done.append("shm")
    return done

def peek(token, key, pids):
    """Everything of the other worker this one can reach."""
    libc = ctypes.CDLL(None, use_errno=True)
    seen = []
    for folder in ("/dev/shm", "/tmp"):
        try:
            with open(f"{folder}/{token}") as handle:
                seen.append(folder + ": " + handle.read())
        except OSError:
            pass
    shm = libc.shmget(key, 0, 0)
    if shm >= 0:
        seen.append("shm")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                seen.append(f"environ of {pid}: {len(handle.read())} bytes")
        except OSError:
            pass
        try:
            os.kill(pid, 0)
            seen.append(f"can signal {pid}")
        except OSError:
            pass
    return seen
'''


@pytest.mark.skipif(not SEPARATE, reason="basic: the workers are one user, nothing between")
def test_two_workers_of_a_submission_share_nothing(tmp_path):
    token = f"channel{uuid.uuid4().hex}"
    key = ipc_key(token)
    code = submission(tmp_path, SHARER)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as one, \
            Worker(TOKENIZATION, code, part=6, timeout=10) as other:
        wrote = one.call("share", token, key)
        assert wrote, "the attack did not run"
        pids = _descendants(one.process.pid)
        seen = other.call("peek", token, key, pids)
    assert seen == []
    assert leftovers(token, wait=0) == NOTHING


def _listen() -> tuple[socket.socket, int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(5)
    return server, server.getsockname()[1]


@pytest.mark.slow
def test_no_network_at_any_level(tmp_path):
    # Without namespaces (drop, basic) the system-call filter refuses every socket.
    server, port = _listen()
    accepted = []

    def accept() -> None:
        with contextlib.suppress(OSError):  # nobody came
            accepted.append(server.accept())

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    code = submission(tmp_path, f"""
        import socket
        def merge_pair(tokens, pair):
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=2).send(b"hello")
                return ["connected"]
            except OSError as exc:
                return [type(exc).__name__]
    """)
    try:
        with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
            outcome = worker.call("merge_pair", [], ())
    finally:
        thread.join(6)
        server.close()
    assert outcome != ["connected"] and not accepted


def test_numpy_and_regex_import_and_nothing_else_of_the_grader(tmp_path):
    code = submission(tmp_path, """
        def merge_pair(tokens, pair):
            import numpy, regex
            found = [float(numpy.arange(5).sum()), regex.sub(r"\\p{L}", "x", "ab1")]
            for name in ("solutions", "autograder", "pytest", "hypothesis", "nbgrader",
                         "tqdm", "matplotlib", "_pytest"):
                try:
                    __import__(name)
                    found.append(name)
                except ImportError:
                    pass
            return found
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=20) as worker:
        assert worker.call("merge_pair", [], ()) == [10.0, "xx1"]


def test_numpy_is_bound_at_the_import_and_loaded_at_first_use(tmp_path):
    """``worker.LazyPackages``: the submission's ``import numpy`` runs in every worker of
    its grading, and most never use it; its code runs at the first attribute used, and a
    ``from`` import loads it at once. A package that is not there still fails at once."""
    code = submission(tmp_path, """
        import sys
        import numpy as np
        def loaded():
            return type(sys.modules["numpy"]).__name__
        def merge_pair(tokens, pair):
            before = loaded()
            total = int(np.arange(5).sum())
            return [before, loaded(), total, np.__name__]
        def missing():
            try:
                import scipy
            except ImportError as exc:
                return type(exc).__name__
            return "imported"
        def import_from():
            import sys
            del sys.modules["numpy"]
            from numpy import uint16
            return [type(sys.modules["numpy"]).__name__, int(uint16(7))]
        def in_threads():
            import sys
            from concurrent.futures import ThreadPoolExecutor
            del sys.modules["numpy"]
            import numpy
            with ThreadPoolExecutor(3) as pool:  # three threads read it first, at once
                return list(pool.map(lambda n: int(numpy.arange(n).sum()), range(6)))
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=20) as worker:
        assert worker.call("merge_pair", [], ()) == ["_LazyModule", "module", 10, "numpy"]
        assert worker.call("missing") == "ModuleNotFoundError"
        assert worker.call("import_from") == ["module", 7]
        assert worker.call("in_threads") == [0, 0, 1, 3, 6, 10]


@pytest.mark.skipif(LEVEL != "drop", reason="the user pool is the drop level's wall")
def test_at_the_drop_level_each_running_worker_has_its_own_user(tmp_path):
    source = "import os\ndef merge_pair(tokens, pair):\n    return [os.getuid()]\n"
    code = submission(tmp_path, source)
    workers = [Worker(TOKENIZATION, code, part=4, timeout=10) for _ in range(3)]
    try:
        uids = [w.call("merge_pair", [], ())[0] for w in workers]
    finally:
        for worker in workers:
            worker.close()
    assert len(set(uids)) == 3 and set(uids) <= set(users.pool())
    assert not users.unleased_processes()
