"""A warm scoring process: each grading's pytest run is forked from a process that has
imported pytest, hypothesis, the engine and the assignment's hidden tests once.

Started cold, ``python -m pytest`` spends about half a second before its first test
(imports 0.3 s, the hidden tests' modules and their reference inputs 0.1 s, collection);
a fork of this process starts its first test in milliseconds. The zygote also makes the
calls the hidden tests list ``ahead`` (``ahead.py``: seeded inputs and the reference's
answers on them, the same in every grading), so each fork starts with them in memory.
Nothing else changes: the run is the same ``pytest.main`` with the same options, in a
process of its own, under the same limits, and it starts the submission's sandboxed
workers as a cold one would.

Trust. The zygote runs only the grader's code and never sees a submission: a request
holds the run's pytest options, working folder, stderr file and limits, all chosen by
``run.py``. Each run is a fork, a private copy of the zygote's memory taken before any
grading, so one grading cannot leave anything for the next (the zygote itself never runs
a test). Student code still runs only in the workers a run starts.

Protocol, over one ``AF_UNIX``/``SOCK_SEQPACKET`` socket (``Zygote`` is the grader's
side, ``serve`` the zygote's):

- request: a JSON object with one file descriptor attached, the write end of a pipe that
  belongs to this run. ``job`` is ``"pytest"`` (a scoring run: ``args``, ``memory`` and
  ``cpu``) or ``"extract"`` (``autograder.extract`` of ``path``, under its own limits);
  every job has ``cwd``, ``env``, ``stderr`` and optionally ``stdout`` and ``cpus`` (the
  CPUs it and every process it starts may run on);
- the zygote forks. The child starts a session of its own, moves to ``cwd``, adds
  ``env``, reads nothing (stdin is ``/dev/null``), writes stdout to ``stdout`` (or
  nowhere) and stderr to ``stderr``, closes every other descriptor, keeps to ``cpus``
  (``limits.keep_to``; a refusal is said on its stderr), sets its limits, runs the job
  (``pytest.main(args)``) and exits with its code;
- the zygote writes ``"<pid>\\n"`` into the run's pipe; once it has reaped the child, it
  kills whatever is left in the child's process group and writes ``"<exit code>\\n"``
  (negative: the signal that ended it), then closes the pipe;
- end of file on the socket (the grader closed it, or died): the zygote kills every
  run's process tree and exits.

Nothing outlives a run. A run's sandboxed workers start sessions of their own, so the
run's process group does not hold them, and when a run ends first (killed past its
time) they lose their parent. The zygote is therefore the reaper of its descendants'
orphans (``cleanup.become_reaper``): a worker whose run has ended becomes the zygote's
child, and the zygote kills every child that is not a live run (``sweep``) each time it
reaps one. On the grader's side, ``Run.close`` kills the run's whole tree unless the
zygote has reported its end already.

The file is longer than most (about 400 lines) because it holds both ends of one
protocol, the zygote's and the grader's, which change together.
"""

import atexit
import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

from autograder.assignment import load
from autograder.sandbox import cleanup, limits, standin

MAX_REQUEST = 1 << 16  # bytes of one request
PRELOAD_THREADS = 120.0  # seconds a hidden test module's loading thread may take
START_TIMEOUT = 180.0  # seconds a new zygote may take to load and fork the first run
KEEP = 3  # idle zygotes kept (one per assignment and environment the grader has used)


class ZygoteLost(Exception):
    """The zygote stopped before it could report a run's end."""


# --- the zygote's side ---------------------------------------------------------------


def preload(folder: Path) -> None:
    """Import what every run of ``folder``'s suite imports: pytest and its default
    plugins, the engine's plugins, and the hidden test modules, under the names
    pytest itself will give them (so its collection finds them imported)."""
    import pytest  # noqa: F401
    from _pytest.config import default_plugins
    from _pytest.pathlib import ImportMode, import_path

    for name in default_plugins:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"_pytest.{name}")
    importlib.import_module("pytest_timeout")
    from autograder.suite import ahead, fixtures, plugin  # noqa: F401
    from autograder.suite.timers import timing_tests

    timing_tests(folder)  # read at every run's collection (60-100 ms): once, here
    for path in sorted(folder.glob("test_*.py")):
        try:
            import_path(path, mode=ImportMode.prepend, root=folder,
                        consider_namespace_packages=False)
        except Exception:  # noqa: BLE001 - the run's own collection reports it
            continue
    # A module may prepare its data in a thread (production's GPT-2 files): let it finish,
    # since a fork copies only the thread that forks.
    for thread in threading.enumerate():
        if thread is not threading.main_thread():
            thread.join(timeout=PRELOAD_THREADS)
    # The seeded inputs and reference answers every grading uses (``ahead.py``), and the
    # workers' bytecode.
    ahead.fill()
    limits.warm_program()
    _warm_run_imports()
    _warm_reference_servers(folder)


def _warm_reference_servers(folder: Path) -> None:
    """Build the reference without each part (``standin.server``), which every run's
    workers are described by: each part's copy of the reference compiled and run, 35 to
    110 ms of every run of this repository's assignments. A run loads the same
    cached ``Assignment`` (``assignment.load``), so it finds them built. A folder that
    is not an assignment (or whose reference fails) is left to the run, which reports it."""
    if not (folder / "spec.py").is_file():
        return
    with contextlib.suppress(Exception):
        assignment = load(folder)
        for part in assignment.parts:
            standin.server(assignment, part)


# Modules that every run imported anew (each fork's ``sys.modules`` compared with the
# zygote's): pytest's debugging and fault-handler plugins, hypothesis's optimiser.
RUN_IMPORTS = ("_pytest._argcomplete", "pdb", "readline", "faulthandler", "codeop",
               "encodings.unicode_escape", "hypothesis.internal.conjecture.optimiser")


def _warm_run_imports() -> None:
    """Import ``RUN_IMPORTS``, and let hypothesis register its random generator here.

    Its first seeded test in a process registers one (``register_random``), which runs a
    full garbage collection and ``gc.get_referrers``: about 25 ms of every run, the
    zygote's whole heap walked. Done once here, the forks inherit it; each test is still
    seeded the same way."""
    for name in RUN_IMPORTS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    if "hypothesis" in sys.modules:
        from hypothesis.internal.entropy import deterministic_PRNG

        with deterministic_PRNG():
            pass


def _pytest(request: dict) -> int:
    """The scoring run: its own limits, then ``pytest.main``."""
    import resource

    import pytest

    for limit, value in ((resource.RLIMIT_AS, request["memory"]),
                         (resource.RLIMIT_CPU, request["cpu"])):
        resource.setrlimit(limit, (value, value))
    return int(pytest.main(request["args"]))


def _extract(request: dict) -> int:
    """The extraction (``autograder.extract._main`` sets its limits)."""
    from autograder.extract import _main

    return _main([request["path"]])


JOBS = {"pytest": _pytest, "extract": _extract}


def _child(request: dict) -> None:
    """The forked run (never returns)."""
    code = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.update(request["env"])
        null = os.open(os.devnull, os.O_RDWR)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        out = os.open(request["stdout"], flags, 0o600) if request.get("stdout") else null
        err = os.open(request["stderr"], flags, 0o600)
        for fd, target in ((null, 0), (out, 1), (err, 2)):
            os.dup2(fd, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        # The grading's cores (``batch.Cores``): its workers inherit them.
        if request.get("cpus") and not limits.keep_to(request["cpus"]):
            print(f"autograder: cannot keep to CPUs {request['cpus']}; graded on any",
                  file=sys.stderr)
        code = JOBS[request["job"]](request)
    except SystemExit as exc:
        code = exc.code if type(exc.code) is int else 1
    except BaseException:  # noqa: BLE001 - reported on the run's stderr
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _write(fd: int, line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, line.encode() + b"\n")


def serve(sock: socket.socket) -> None:
    """Fork a run per request until the socket closes (see the module docstring)."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the select below
    runs: dict[int, int] = {}  # pid -> the write end of its pipe

    def sweep() -> None:
        """Kill every child that is not a live run: the orphaned workers of ended runs."""
        orphans = [pid for pid in cleanup.children(os.getpid()) if pid not in runs]
        if orphans:
            cleanup.kill_tree(*orphans, adopted=True)

    def reap() -> None:
        ended = False
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            fd = runs.pop(pid, None)
            if fd is None:
                continue  # an orphan adopted and killed by ``sweep``
            ended = True
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)  # what the run left in its group
            _write(fd, str(os.waitstatus_to_exitcode(status)))
            os.close(fd)
        if ended:
            sweep()

    try:
        while True:
            ready, _, _ = select.select([sock, wake_r], [], [])
            if wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 4096)
                reap()
            if sock not in ready:
                continue
            message, fds, _, _ = socket.recv_fds(sock, MAX_REQUEST, 1)
            if not message:
                return  # the grader is gone
            try:
                request = json.loads(message)
            except ValueError:
                request = None
            if len(fds) != 1 or type(request) is not dict:
                for fd in fds:
                    os.close(fd)  # the grader reads end of file: the run is lost
                continue
            pid = os.fork()
            if pid == 0:
                sock.close()
                _child(request)
            runs[pid] = fds[0]
            _write(fds[0], str(pid))
    finally:
        cleanup.kill_tree(*runs, adopted=True)
        sweep()


def main(argv: list[str]) -> None:
    """``python -P -m autograder.suite.zygote FOLDER FD``: preload, then serve on ``FD``."""
    folder, fd = Path(argv[0]), int(argv[1])
    sock = socket.socket(fileno=fd)
    preload(folder)
    if threading.active_count() != 1:  # forking a threaded process is unsafe
        raise SystemExit("autograder: the scoring zygote started a thread while loading")
    # What loading printed stays the zygote's: a buffer left unflushed would be copied
    # into every run and written to its output.
    sys.stdout.flush()
    sys.stderr.flush()
    cleanup.become_reaper()
    # What the zygote holds lives as long as the forks: moved out of the collector's
    # reach, a run's full collection walks the run's own objects only (production's
    # hidden tests and answers made it about 30 ms, once in every run), and the pages
    # the collector would have written stay shared with the zygote.
    gc.collect()
    gc.freeze()
    serve(sock)


# --- the grader's side ---------------------------------------------------------------


class Run:
    """One forked pytest run: its pid, and its exit code once it has ended."""

    def __init__(self, status: int) -> None:
        self._status = status  # the read end of the run's pipe
        self._buffer = b""
        self._eof = False
        self.pid = int(self._next_line(START_TIMEOUT) or 0)
        if not self.pid:
            os.close(self._status)
            raise ZygoteLost("the scoring zygote did not start the run")
        self.exit_code: int | None = None

    def _next_line(self, timeout: float | None) -> str | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buffer and not self._eof:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self._status], [], [], left)[0]:
                return None
            block = os.read(self._status, 4096)
            self._buffer += block
            self._eof = not block
        if b"\n" not in self._buffer:
            return None
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def wait(self, timeout: float) -> int | None:
        """The exit code, or ``None`` if the run is still going after ``timeout`` s;
        ``ZygoteLost`` if the zygote died first."""
        if self.exit_code is None:
            line = self._next_line(timeout)
            if line is None:
                if self._eof:
                    raise ZygoteLost("the scoring zygote stopped during the run")
                return None
            self.exit_code = int(line)
            os.close(self._status)
        return self.exit_code

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the run's process group, unless the run has ended (and
        been reaped: then its group is gone). A run whose zygote died is not reaped yet."""
        if self.exit_code is None:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signum)

    def close(self) -> None:
        """Kill what is left of the run (its group, and its whole tree unless the zygote
        reported its end and so swept it) and let go of its pipe. The tree goes first:
        once the run is dead, its workers belong to whoever adopts them."""
        if self.exit_code is None:
            cleanup.kill_tree(self.pid)
        self.signal(signal.SIGKILL)
        if self.exit_code is None:
            with contextlib.suppress(OSError):
                os.close(self._status)
            self.exit_code = -signal.SIGKILL


class Zygote:
    """A zygote process for one assignment folder and environment."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-P", "-m", "autograder.suite.zygote", str(folder),
                 str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), env=env, cwd=folder, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        cleanup.HELPERS.add(self.process.pid)  # the grader's own, not graded code
        self._lock = threading.Lock()
        self.active = 0  # runs started and not yet closed

    def start(self, request: dict) -> Run:
        """Fork a run of ``request`` (see the module docstring)."""
        message = json.dumps(request).encode()
        if len(message) > MAX_REQUEST:
            raise ValueError("the scoring request is too long")
        status, theirs = os.pipe()
        try:
            with self._lock:
                socket.send_fds(self._sock, [message], [theirs])
        except OSError as exc:
            os.close(status)
            raise ZygoteLost(f"the scoring zygote is gone ({exc})") from None
        finally:
            os.close(theirs)
        return Run(status)

    def stop(self) -> None:
        """Close the socket (the zygote kills its runs and exits) and reap it."""
        self._sock.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        cleanup.HELPERS.discard(self.process.pid)


_zygotes: dict[tuple, Zygote] = {}  # the most recently used last
_registry = threading.Lock()


def _checkout(folder: Path, env: dict[str, str]) -> Zygote:
    """The live zygote of ``folder`` and ``env``, started if need be, one run busier."""
    key = (str(folder), tuple(sorted(env.items())))
    with _registry:
        zygote = _zygotes.pop(key, None)
        if zygote is None or zygote.process.poll() is not None:
            if zygote is not None:
                zygote.stop()  # reaped
            zygote = Zygote(folder, env)
        _zygotes[key] = zygote
        zygote.active += 1
        idle = [k for k, z in _zygotes.items() if z.active == 0]
        stale = [_zygotes.pop(k) for k in idle[: max(0, len(_zygotes) - KEEP)]]
    for old in stale:
        old.stop()
    return zygote


def run(folder: Path, env: dict[str, str], request: dict) -> tuple[Zygote, Run]:
    """Fork ``request`` from the zygote of ``folder`` and ``env`` (started on first use,
    and again if it died); the caller must ``finish`` it."""
    for attempt in (1, 2):
        zygote = _checkout(folder, env)
        try:
            return zygote, zygote.start(request)
        except ZygoteLost:
            finish(zygote, None)
            _discard(zygote)  # the next checkout starts a new one
            if attempt == 2:
                raise
        except BaseException:
            finish(zygote, None)
            raise
    raise AssertionError("unreachable")


def _discard(zygote: Zygote) -> None:
    """Take a zygote that failed a run out of use: out of the registry, then stopped."""
    with _registry:
        for key, known in list(_zygotes.items()):
            if known is zygote:
                del _zygotes[key]
    zygote.stop()


def finish(zygote: Zygote, started: Run | None) -> None:
    """The run is over: kill what is left of it."""
    if started is not None:
        started.close()
    with _registry:
        zygote.active -= 1


def stop_all() -> None:
    """Stop every zygote (at exit, and for a benchmark that counts their CPU time)."""
    with _registry:
        zygotes = list(_zygotes.values())
        _zygotes.clear()
    for zygote in zygotes:
        zygote.stop()


atexit.register(stop_all)


if __name__ == "__main__":
    main(sys.argv[1:])
