"""The warm scoring process (``autograder/suite/zygote.py``), on a suite of its own.

Each test forks runs of a small pytest folder from a real zygote and looks at what the
runs saw and left: the folder's module was imported once, in the zygote; no run sees
another's changes nor what the zygote printed; a run over its time, what it leaves behind
in its process group and its workers in sessions of their own are killed; a dead zygote
is a grading error and is replaced, and its runs' workers die with it.
"""

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from autograder.sandbox import cleanup
from autograder.suite import run as runner
from autograder.suite import zygote
from tests.course import TOKENIZATION

SUITE = '''
import os, subprocess, sys, time

import hypothesis  # noqa: F401 - imported by the zygote, as the hidden suites do

from autograder.suite.ahead import ahead

LOADED_IN = os.getpid()  # the process that imported this module
SEEN = []
print("printed while loading")  # left in the zygote's buffer unless it is flushed


def test_record():
    SEEN.append(1)
    with open(os.environ["OUT"], "w") as out:
        out.write(f"{LOADED_IN} {os.getpid()} {len(SEEN)}")


@ahead([(3,)])
def worked_out_in(n):  # the process that computed it
    return os.getpid()


def test_ahead():
    if os.environ.get("AHEAD"):
        with open(os.environ["AHEAD"], "w") as out:
            out.write(f"{worked_out_in(3)} {worked_out_in(4)} {os.getpid()}")


def test_linger():
    if os.environ.get("LINGER"):  # a child in the run's process group, outliving the run
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(os.environ["OUT"], "w") as out:
            out.write(str(child.pid))
        if os.environ.get("HANG"):
            time.sleep(60)


def test_warm():
    if os.environ.get("WARM"):  # what the zygote settled before forking this run
        import gc

        from hypothesis.core import threadlocal

        registered = threadlocal._hypothesis_global_random is not None
        with open(os.environ["WARM"], "w") as out:
            out.write(f"{gc.get_freeze_count()} {registered}")


def test_worker():
    if os.environ.get("WORKER"):  # like a sandboxed worker: a session of its own
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                 start_new_session=True)
        with open(os.environ["WORKER"], "w") as out:
            out.write(str(child.pid))
        if os.environ.get("HANG"):
            time.sleep(60)
'''


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "test_zygote_suite.py").write_text(SUITE, encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return folder


def start(folder: Path, env: dict[str, str], name: str,
          zygote_env: dict[str, str] | None = None) -> tuple[zygote.Zygote, zygote.Run]:
    """Fork one run of ``folder``'s suite; its stdout, stderr and OUT files are named
    ``name``; ``zygote_env`` is added to the zygote's environment."""
    request = {"job": "pytest", "cwd": str(folder.parent), "env": env,
               "args": [str(folder), "-q", "-p", "no:cacheprovider", "-c",
                        str(folder / "pytest.ini"), "--rootdir", str(folder)],
               "stdout": str(folder.parent / f"{name}.stdout"),
               "stderr": str(folder.parent / f"{name}.err"),
               "memory": runner.SCORER_MEMORY, "cpu": 60}
    return zygote.run(folder, {**runner.scorer_env(), **(zygote_env or {})}, request)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone_soon(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def written_pid(path: Path, seconds: float = 30.0) -> int:
    """The pid a run writes into ``path``, once it is there."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError(f"nothing written into {path}")


def run_to_end(folder: Path, env: dict[str, str], name: str, **zygote_env: str) -> int:
    """Fork one run, wait for it and finish it: its exit code."""
    warm, started = start(folder, env, name, zygote_env)
    try:
        return started.wait(60)
    finally:
        zygote.finish(warm, started)


def test_each_run_starts_from_the_zygote_and_sees_no_other_run(suite):
    seen = []
    for name in ("first", "second"):
        out = suite.parent / f"{name}.out"
        warm, started = start(suite, {"OUT": str(out)}, name)
        try:
            assert started.wait(60) == 0, (suite.parent / f"{name}.err").read_text()
        finally:
            zygote.finish(warm, started)
        loaded_in, ran_in, count = map(int, out.read_text().split())
        seen.append((loaded_in, ran_in, count))
    # The module was imported once, by the zygote, before either run: not in the runs.
    assert seen[0][0] == seen[1][0] == warm.process.pid
    assert seen[0][1] != seen[1][1] and warm.process.pid not in (seen[0][1], seen[1][1])
    # The first run's change to the module is not in the second run.
    assert seen[0][2] == seen[1][2] == 1


def what_a_run_writes(suite: Path, variable: str) -> tuple[zygote.Zygote, str]:
    """Fork one run with ``variable`` naming a file, wait for it: its zygote, the file."""
    name = variable.lower()
    out = suite.parent / f"{name}.out"
    warm, started = start(suite, {variable: str(out), "OUT": str(suite.parent / "x.out")},
                          name)
    try:
        assert started.wait(60) == 0, (suite.parent / f"{name}.err").read_text()
    finally:
        zygote.finish(warm, started)
    return warm, out.read_text()


def test_the_calls_ahead_are_made_once_in_the_zygote(suite):
    """``ahead.py``: a call listed ahead was made by the zygote, before the run forked; any
    other call of the same function is made in the run."""
    warm, text = what_a_run_writes(suite, "AHEAD")
    listed, other, run = map(int, text.split())
    assert listed == warm.process.pid
    assert other == run != warm.process.pid


def test_a_run_starts_with_the_zygotes_objects_frozen_and_hypothesis_registered(suite):
    """Per run, a full collection walked the zygote's whole heap (about 30 ms in
    production's runs) and hypothesis's first seeded test registered its generator with
    another one: both are settled in the zygote (``_warm_run_imports``, ``gc.freeze``)."""
    _, text = what_a_run_writes(suite, "WARM")
    frozen, registered = text.split()
    assert int(frozen) > 10_000 and registered == "True"


def test_what_a_run_leaves_in_its_group_is_killed(suite):
    out = suite.parent / "linger.out"
    assert run_to_end(suite, {"OUT": str(out), "LINGER": "1"}, "linger") == 0
    assert gone_soon(int(out.read_text()))


@pytest.mark.parametrize("child", ["LINGER", "WORKER"])  # in the run's group; in a session
def test_a_run_over_its_time_is_stopped_with_what_it_started(suite, child):
    pid_file = suite.parent / f"{child}.pid"
    env = {"OUT": str(suite.parent / "hang.out"), child: "1", "HANG": "1"}
    env["OUT" if child == "LINGER" else child] = str(pid_file)
    warm, started = start(suite, env, f"hang-{child}")
    try:
        pid = written_pid(pid_file)
        assert started.wait(0.5) is None  # still running
    finally:
        zygote.finish(warm, started)  # what grade_file does past its timeout
    assert gone_soon(started.pid) and gone_soon(pid)


def test_a_runs_workers_are_killed_when_it_ends(suite):
    # A worker starts a session of its own: the run's process group does not hold it.
    pid_file = suite.parent / "worker.pid"
    env = {"OUT": str(suite.parent / "worker.out"), "WORKER": str(pid_file)}
    assert run_to_end(suite, env, "worker") == 0, (suite.parent / "worker.err").read_text()
    assert gone_soon(int(pid_file.read_text()))


def test_a_run_that_ends_leaves_another_runs_workers_alone(suite):
    # Two gradings served by one zygote at once: the sweep after the first one ends takes
    # only orphans, never the second one's run or its workers.
    pid_file = suite.parent / "busy.pid"
    warm, busy = start(suite, {"OUT": str(suite.parent / "busy.out"),
                               "WORKER": str(pid_file), "HANG": "1"}, "busy")
    try:
        worker = written_pid(pid_file)
        other, quick = start(suite, {"OUT": str(suite.parent / "quick.out")}, "quick")
        assert other is warm
        try:
            assert quick.wait(60) == 0
        finally:
            zygote.finish(other, quick)
        time.sleep(0.5)  # the zygote has swept by now
        assert busy.wait(0) is None and alive(worker)
    finally:
        zygote.finish(warm, busy)
    assert gone_soon(worker)


HOPPER = """
import os, sys, time
end = time.time() + 8
while time.time() < end:  # a new pid every fork, the old one gone at once
    try:
        if os.fork():
            os._exit(0)
    except OSError:
        time.sleep(0.001)
    with open(sys.argv[1], "w") as beat:
        beat.write(str(time.time()))
"""
SWEEP = """
import os, subprocess, sys, time
from autograder.sandbox import cleanup
cleanup.become_reaper()  # as the zygote is
if os.fork() == 0:  # a run whose worker starts the hopper in a session of its own
    os.setsid()
    subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]])
    time.sleep(0.5)
    os._exit(0)
time.sleep(0.8)
os.waitpid(-1, os.WNOHANG)
cleanup.kill_tree(*cleanup.children(os.getpid()), adopted=True)  # the zygote's sweep
"""


def test_the_sweep_kills_a_process_that_hops_from_pid_to_pid(tmp_path):
    beat = tmp_path / "beat"
    subprocess.run([sys.executable, "-c", SWEEP, HOPPER, str(beat)], check=True, timeout=60,
                   cwd=Path(__file__).resolve().parents[1])
    time.sleep(0.3)
    last = beat.read_text()
    time.sleep(0.5)
    assert beat.read_text() == last, "the hopper is still alive"


def test_what_the_zygote_printed_while_loading_is_in_no_runs_output(suite):
    # A zygote of its own (a fresh environment key) whose stdout is buffered, as it is
    # unless the grader's environment sets PYTHONUNBUFFERED (an empty value unsets it).
    env = {"OUT": str(suite.parent / "quiet.out")}
    assert run_to_end(suite, env, "quiet", PYTHONUNBUFFERED="") == 0
    output = (suite.parent / "quiet.stdout").read_text()
    assert "passed" in output and "printed while loading" not in output


def test_the_hypothesis_folder_is_private(tmp_path, monkeypatch):
    # Someone else's folder at the shared name (here: one anyone may write in) is not used.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / f"autograder-hypothesis-{os.getuid()}"
    planted.mkdir()
    planted.chmod(0o777)
    runner.hypothesis_cache.cache_clear()
    try:
        folder = runner.hypothesis_cache()
        info = folder.lstat()
        assert folder != planted and info.st_uid == os.getuid() and not info.st_mode & 0o077
        # A folder that is ours and only readable by others is closed and used.
        planted.rmdir()
        planted.mkdir()
        planted.chmod(0o755)
        runner.hypothesis_cache.cache_clear()
        assert runner.hypothesis_cache() == planted and not planted.stat().st_mode & 0o077
    finally:
        runner.hypothesis_cache.cache_clear()


def test_a_dead_zygote_is_replaced(suite):
    out = suite.parent / "again.out"
    warm, started = start(suite, {"OUT": str(out)}, "before")
    started.wait(60)
    zygote.finish(warm, started)
    os.kill(warm.process.pid, signal.SIGKILL)
    warm.process.wait()
    second, started = start(suite, {"OUT": str(out)}, "after")
    try:
        assert started.wait(60) == 0
    finally:
        zygote.finish(second, started)
    assert second.process.pid != warm.process.pid


@pytest.mark.slow
def test_a_zygote_lost_while_grading_is_a_grading_error(tmp_path):
    # A submission that keeps its worker busy, so that the run is still going when the
    # zygote dies; the student gets no score, the TA an environment error.
    path = tmp_path / "slow.py"
    path.write_text("class Tokenizer:\n    def encode(self, text):\n        while True:\n"
                    "            pass\n", encoding="utf-8")
    result: dict = {}
    grading = threading.Thread(
        target=lambda: result.update(runner.grade_file(path, "x", assignment=TOKENIZATION)))
    grading.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and grading.is_alive():
        for warm in list(zygote._zygotes.values()):
            pid = warm.process.pid
            children = Path(f"/proc/{pid}/task/{pid}/children")
            if not (warm.active and children.exists()):
                continue
            # The zygote's child with processes below it is the scoring run, its workers
            # started: an extraction child, which starts none, may be listed first, and a
            # loaded machine takes a while to start the workers (a fixed second after the
            # first child appeared was not always enough).
            runs = [(int(child), cleanup.tree(int(child))[1:])
                    for child in children.read_text().split()]
            started = [(run, below) for run, below in runs if below]
            if started:
                scoring, workers = started[0]
                os.kill(pid, signal.SIGKILL)
                killed = pid
        time.sleep(0.05)
    grading.join()
    assert killed is not None
    assert result["status"] == "error" and result["error"].startswith("environment:"), result
    assert gone_soon(scoring)  # the orphaned run was killed with its group
    assert workers and all(gone_soon(pid) for pid in workers)  # and its workers
    # The next grading gets a new zygote.
    plain = tmp_path / "plain.py"
    plain.write_text("class Tokenizer:\n    pass\n", encoding="utf-8")
    again = runner.grade_file(plain, "y", assignment=TOKENIZATION, timeout=60)
    assert again["status"] == "graded", again


def test_a_call_ahead_is_found_however_its_arguments_are_written():
    """``ahead``: a call is known by its arguments bound to the parameters, defaults
    filled in, so a test that writes a default out (or names an argument) still finds the
    value made first, the zygote's in a grading (``functools.cache`` would make it again)."""
    from autograder.suite import ahead

    made = []

    @ahead.ahead([(1, 2)])
    def case(seed, count, plain=False):
        made.append((seed, count, plain))
        return [seed, count, plain]

    first = case(1, 2)
    assert case(1, 2, False) is case(1, count=2) is first
    assert made == [(1, 2, False)]
    assert case(1, 2, plain=True) == [1, 2, True]
    assert made == [(1, 2, False), (1, 2, True)]


def test_the_reference_servers_are_built_for_the_runs_to_find(tmp_path):
    """``_warm_reference_servers``: the zygote builds each part's reference server for the
    ``Assignment`` a run's plugin loads from the same folder, so the run's lookups are
    cache hits (a key that differed, a path resolved another way, would build them again
    in every run)."""
    from autograder.assignment import load
    from autograder.sandbox import standin

    toy = Path(__file__).parent / "toy"
    zygote._warm_reference_servers(toy)
    before = standin.server.cache_info()
    assignment = load(str(toy))  # what the plugin does with --assignment
    for part in assignment.parts:
        standin.server(assignment, part)
    after = standin.server.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + len(assignment.parts)
    zygote._warm_reference_servers(tmp_path)  # not an assignment: nothing, no error
