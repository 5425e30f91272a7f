"""How a worker is confined, and what each level promises (the threat model).

(About 570 lines on purpose: every level's promise and the code that keeps it sit in
one file, so the threat model can be read and checked in one place.)

Student code is hostile. It runs only in workers; a worker holds one part of one
submission and talks to its scoring process over two pipes. The strongest level
this machine allows is probed once per batch (``isolation``; ``AUTOGRADER_ISOLATION``
forces one, and the CLI says which one it got, see ``autograder.cli``):

- ``root`` (the grader runs as root with namespaces: CI, a VM). Each worker gets new
  PID, mount, IPC and network namespaces and a fresh ``/proc``; everything outside
  the system and its interpreter (the repository, the submissions, the reports,
  home folders) is covered by empty tmpfs mounts; ``/tmp``, ``/dev/shm`` and
  ``/dev/mqueue`` are private; it runs as ``nobody`` with no capabilities under a
  system-call filter (``worker._filter``: no sockets, no System V or POSIX message
  IPC, no ptrace, no changing file modes, no new namespaces, no moving to other CPUs;
  the cgroup tree is covered too). Holds: no worker can see, signal or
  read another (other students' included), reach the network, the grader's files
  or another worker's files or IPC; everything it made dies with its namespaces.
- ``userns`` (an ordinary user whose kernel allows user namespaces): the same
  namespaces and mounts; the worker stays the grader's user outside its namespace,
  so it drops every capability (it cannot undo a mount) instead of changing user.
  Holds what ``root`` holds, except against kernel bugs reachable from a user
  namespace.
- ``drop`` (root without namespaces: Docker, Gradescope). Each running worker is a
  user of its own from a pool (``users``): it cannot signal, trace or read another
  worker; its work folder is its own (0700); the filter keeps it off the network
  and IPC; its umask is 077 and it cannot change modes, so what it writes in a
  shared folder stays its own; after it, everything of its user is removed
  (processes, however they left, IPC objects, files). File modes guard the rest:
  ``exposed_secrets`` must be empty (the CLI closes them, ``close_secrets``, as
  Gradescope's ``setup.sh`` does)
  and the CLI refuses a submissions tree other users can read. Does not hold:
  world-writable folders (``users.shared_writable``) still let two workers that run
  at once see each other's file *names*; Gradescope's setup closes them, the CLI
  warns elsewhere. Students of a batch are graded in parallel, each worker under
  its own user.
- ``basic`` (none of the above; only with the CLI's ``--allow-basic``). The worker
  runs as the grader's own user with limits, a scrubbed environment and the filter
  where the kernel allows it (no network, no IPC). Holds little: student code can
  read whatever the grader can (other submissions, the reference, the hidden
  tests) and signal the grader. What is done against it: students are graded one
  at a time, everything below the batch is killed after each student and before
  the reports are written, files it leaves in /dev/shm and its escaped children (the
  scoring process adopts orphans) are removed, and every report says "graded at the
  basic level". Files it leaves in /tmp stay.

At every level the worker sets its own resource limits (CPU seconds, address space,
file size, processes) before it reads any student code, and can import the standard
library, numpy and regex (``ALLOWED_PACKAGES``) and nothing else of the grader's
environment: under namespaces the two packages are bound read-only into
``/tmp/.packages``; without, ``package_view`` is a folder that holds only them.
"""

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from functools import cache
from pathlib import Path

from . import cleanup, users

REPO = Path(__file__).resolve().parents[2]
WORKER_SOURCE = Path(__file__).with_name("worker.py").read_bytes()
# A probe's answer holds only for the worker program it probed (a grader updated in the
# middle of a batch must probe again, not trust its parent's answer).
WORKER_DIGEST = hashlib.sha256(WORKER_SOURCE).hexdigest()[:16]
NOBODY = 65534
# Memory is bounded per submission, not per process: the scoring process runs at most
# WORKERS_AT_ONCE workers of a submission at a time (six parts and two spare Part 3
# workers, see the suite's conftest), and each gets an equal share of the address space.
# (No cgroup: Docker and Gradescope rarely let a grader make one.) The reference's
# workers peak at 36 MB.
SUBMISSION_MEMORY = 2 * 1024**3
WORKERS_AT_ONCE = 8
LIMITS = {
    "cpu_seconds": 60,
    "address_space": SUBMISSION_MEMORY // WORKERS_AT_ONCE,
    "file_size": 16 * 1024**2,
    "processes": 64,  # applied only when the worker runs as its own user
}
MARKER = "AUTOGRADER_WORKER"
PROBED_ENV = "AUTOGRADER_ISOLATION_PROBED"
TAG_ENV = "AUTOGRADER_WORKER_TAG"  # the worker interpreter's compiled-module tag, once known
LEVELS = ("root", "drop", "userns", "basic")
# What each level promises, in one line: printed by the CLI and written into every report.
PROMISES = {
    "root": "namespaces (PID, mount, IPC, network), a private /tmp and /dev/shm, "
            "user nobody, no capabilities, system-call filter",
    "userns": "namespaces (PID, mount, IPC, network) of an unprivileged user, a private /tmp "
              "and /dev/shm, no capabilities, system-call filter",
    "drop": "no namespaces: a user of its own per worker, private work folder, "
            "system-call filter (no network, no IPC), clean-up by user",
    "basic": "graded at the basic level: student code ran as the grader's user",
}
# The packages graded code may import besides the standard library (with the folders of
# shared libraries their wheels ship, such as numpy.libs).
ALLOWED_PACKAGES = ("numpy", "regex")
# Where the packages appear inside a worker's namespaces.
PACKAGES_MOUNT = "/tmp/.packages"
# Directories the worker must not see besides the repository (submissions, reports). An
# environment variable, so that scoring processes started by the CLI inherit it.
HIDE_ENV = "AUTOGRADER_HIDE"


def hide(*paths: Path) -> None:
    """Hide ``paths`` from every worker started by this process or its children."""
    known = [p for p in os.environ.get(HIDE_ENV, "").split(os.pathsep) if p]
    known += [str(Path(p).resolve()) for p in paths if str(Path(p).resolve()) not in known]
    os.environ[HIDE_ENV] = os.pathsep.join(known)


# What a worker under namespaces may see: the system and its own interpreter, nothing else
# (another checkout of the course, home folders, other courses' files are all covered).
VISIBLE = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/dev",
           "/proc", "/sys", "/tmp")
CGROUPS = Path("/sys/fs/cgroup")


def _outside_view(keep: set[Path]) -> list[Path]:
    """Folders to cover so that only ``keep`` (and what leads to it) stays visible."""
    covered = []

    def walk(folder: Path) -> None:
        try:
            children = sorted(folder.iterdir())
        except OSError:
            return
        for child in children:
            if child.is_symlink() or not child.is_dir() or child in keep:
                continue  # a symlink is never mounted over: that would cover its target
            if any(k.is_relative_to(child) for k in keep):
                walk(child)
            else:
                covered.append(child)

    walk(Path("/"))
    return covered


def hidden_dirs(python: str) -> list[Path]:
    """Every folder to cover: all outside the system and the interpreter's prefix, then
    the repository and the folders passed to ``hide`` wherever they are."""
    prefix = Path(python).resolve().parent.parent
    named = [Path(p) for p in os.environ.get(HIDE_ENV, "").split(os.pathsep) if p]
    covered = _outside_view({Path(p) for p in VISIBLE} | {prefix})
    # The cgroup tree: where one is delegated to the grader's user (a desktop's systemd),
    # a worker at the userns level could move into a cgroup of its own, and so off the
    # CPUs its grading keeps to (``keep_to``).
    cgroups = [CGROUPS] if CGROUPS.is_dir() else []
    extra = [d for d in (REPO, *named, *cgroups)
             if d.is_dir() and not prefix.is_relative_to(d) and
             not any(d.is_relative_to(c) for c in covered)]
    # A folder inside another hidden one (reports written next to the graded file) is
    # covered with it; mounting over it too would fail once its parent is covered.
    return covered + [d for d in extra if not any(d != o and d.is_relative_to(o) for o in extra)]


def worker_env(hash_seed: int = 0, home: str = "/tmp", marker: str = "") -> dict[str, str]:
    """A minimal environment: nothing of the grader's (tokens, paths) leaks in.

    ``marker`` tags the worker's processes so that, without a PID namespace,
    children that left its process group can still be found and killed. numpy's
    maths libraries use one thread: the timing harness counts CPU, and a worker's
    threads count towards its user's process limit.
    """
    return {
        MARKER: marker,
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _interpreters() -> list[str]:
    """Pythons that can run the worker, the grader's own first (it has the same version)."""
    own = os.path.realpath(sys.executable)
    return [own, "/usr/bin/python3"] if own != "/usr/bin/python3" else [own]


@cache
def package_dirs(python: str) -> dict[str, str]:
    """The folders of the allowed packages (name -> folder), for the worker's ``python``.

    Only an interpreter of the grader's own version (the same compiled-module tag) can
    load the grader's compiled packages; a worker run by another gets none (its imports
    then fail like any unavailable one).
    """
    if python != os.path.realpath(sys.executable):
        known = os.environ.get(TAG_ENV, "").split(":", 1)  # asked by a parent process
        tag = known[0] if known[-1] == python else ""
        if not tag:
            try:
                tag = subprocess.run([python, "-I", "-S", "-c",
                                      "import sys; print(sys.implementation.cache_tag)"],
                                     capture_output=True, text=True, timeout=20).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                return {}
            os.environ[TAG_ENV] = f"{tag}:{python}"
        if tag != sys.implementation.cache_tag:
            return {}
    found = {}
    for name in ALLOWED_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.submodule_search_locations:
            continue
        folder = Path(spec.origin).resolve().parent
        found[name] = str(folder)
        libs = folder.with_name(f"{name}.libs")
        if libs.is_dir():
            found[libs.name] = str(libs)
    return found


@cache
def package_view(python: str) -> str:
    """A folder holding the allowed packages and nothing else, for workers without mounts.

    It belongs to the grader and only it can change it; workers of other users read it.
    It holds links to the packages, or copies of them where the packages themselves are
    closed to other users (Gradescope closes the grader's folder), made once per machine.
    """
    wanted = package_dirs(python)
    digest = hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:12]
    final = Path(tempfile.gettempdir()) / f"autograder-packages-{os.geteuid()}-{digest}"
    if _is_view(final, wanted):
        return str(final)
    build = Path(tempfile.mkdtemp(prefix="autograder-packages-"))
    for name, folder in wanted.items():
        if users.open_to_others(Path(folder)):
            (build / name).symlink_to(folder)
        else:
            shutil.copytree(folder, build / name, symlinks=True)
            for path in [build / name, *(build / name).rglob("*")]:
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode | 0o444 | (0o111 if path.is_dir() else 0))
    build.chmod(0o755)
    try:
        build.rename(final)
    except OSError:  # a stale or foreign folder has the name: keep ours under its own
        return str(build)
    return str(final)


def _is_view(folder: Path, wanted: dict[str, str]) -> bool:
    """Is ``folder`` our finished view of ``wanted``, closed to writes by anyone else?"""
    try:
        info = folder.lstat()
        names = {p.name for p in folder.iterdir()}
    except OSError:
        return False
    return (folder.is_dir() and not folder.is_symlink() and info.st_uid == os.geteuid()
            and not info.st_mode & 0o022 and names == set(wanted))


# The CPUs this process and its workers keep to (``keep_to``); empty: any.
_KEPT: list[int] = []


def keep_to(cpus: list[int]) -> bool:
    """Run this process, and every worker it starts from now on, on ``cpus`` only: a
    batch gives each grading its own cores (``batch.Cores``). Its workers must then
    carry the system-call filter (``setup``), which refuses ``sched_setaffinity``, so
    that student code cannot move its processes onto another student's cores. False,
    and any CPU as before, when the kernel refuses (a CPU gone offline, a bad number)."""
    try:
        os.sched_setaffinity(0, cpus)
    except (OSError, ValueError):
        return False
    _KEPT[:] = cpus
    return True


def setup(level: str, python: str, kept: bool = False) -> str:
    """The worker's SETUP argument at ``level`` (see ``worker.confine``); ``kept``: as for
    a worker of a process kept to some CPUs (``keep_to``)."""
    namespaces = level in ("root", "userns")
    packages = ({"path": PACKAGES_MOUNT, "binds": package_dirs(python)} if namespaces
                else {"path": package_view(python), "binds": {}})
    return json.dumps({
        "mounts": [str(d) for d in hidden_dirs(python)] if namespaces else [],
        "private": namespaces,
        "drop_to": NOBODY if level == "root" else None,
        "own_user": level in ("root", "drop"),
        "limits": LIMITS,
        "packages": packages,
        # Without namespaces the filter is the only wall against the network and IPC;
        # on a core of its own (``keep_to``), the only wall against leaving it.
        "filter": "required" if level == "drop" or kept or _KEPT else "try",
    })


# How the worker's interpreter starts. ``-I`` (isolated mode) used to stand here; it is
# ``-E -s -P`` and ``-E`` ignores ``PYTHONHASHSEED``, so every worker got a random hash seed
# and set or dict order could change a grade from one run to the next. The same isolation,
# kept otherwise: ``-s`` (no user site-packages) and ``-P`` (neither the script's folder nor
# the working folder on ``sys.path``) are given as they are, plus ``-S`` (no site-packages
# at all); what ``-E`` guarded against, ``PYTHON*`` variables from the grader's environment
# (``PYTHONPATH``, ``PYTHONHOME``, ``PYTHONSTARTUP``...), cannot reach the worker because its
# environment is ``worker_env`` alone, built from nothing: its only ``PYTHON*`` variables
# are the hash seed the grader chose and ``PYTHONDONTWRITEBYTECODE``. ``-P`` needs
# Python 3.11, the grader's minimum.
WORKER_FLAGS = ("-s", "-S", "-P")
# The worker's program goes to its standard input as bytecode that its own interpreter
# made (``program``): compiling the source took a third of a worker's start (22 of 63 ms,
# eight workers per grading).
_BOOT = "import marshal,sys;exec(marshal.loads(sys.stdin.buffer.read()))"
_COMPILE = ("import marshal,sys;sys.stdout.buffer.write(marshal.dumps(compile("
            "sys.stdin.buffer.read(),'<worker>','exec')))")


_PROGRAM_LOCK = threading.Lock()


def program(python: str) -> tuple[list[str], bytes]:
    """How ``python`` reads the worker's program, and the program: its bytecode, made
    once per process by ``python`` itself (the format is the interpreter's own); else
    the source, read from standard input. One answer per process, even when the scoring
    process's threads start their workers at once (a worker is started with the flags of
    one answer and fed the program of the same)."""
    with _PROGRAM_LOCK:
        return _program(python)


@cache
def _program(python: str) -> tuple[list[str], bytes]:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run([python, *WORKER_FLAGS, "-c", _COMPILE], input=WORKER_SOURCE,
                              capture_output=True, timeout=30, env=worker_env())
        if done.returncode == 0 and done.stdout:
            return ["-c", _BOOT], done.stdout
    return ["-"], WORKER_SOURCE


def warm_program() -> None:
    """Make the worker's bytecode now if this process already knows its interpreter (the
    zygote does, so that the scoring processes it forks have it)."""
    probed = os.environ.get(PROBED_ENV, "").split(":", 2)
    if len(probed) == 3 and probed[1] == WORKER_DIGEST and Path(probed[2]).is_file():
        program(probed[2])


def _wrap(level: str, python: str, args: list[str], uid: int | None = None) -> list[str]:
    """The command that starts the worker ``python ... args`` confined at ``level``."""
    command = [python, *WORKER_FLAGS, *program(python)[0], *args]
    if level == "basic":
        return command
    if level == "drop":
        return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                "--no-new-privs", "--", *command]
    # The worker itself mounts and drops privileges (worker.confine) inside the namespaces.
    flags = ["--mount", "--net", "--ipc", "--pid", "--fork", "--kill-child",
             "--propagation", "private"]
    if level == "userns":
        flags.insert(0, "--map-root-user")
    return ["unshare", *flags, "--", *command]


def _works(level: str, python: str, kept: bool = False) -> bool:
    """Start a worker that only confines itself and exits: does ``level`` work here
    (``kept``: with the filter that a worker kept to some CPUs needs)?"""
    try:
        lease = users.acquire() if level == "drop" else None
    except OSError:
        return False
    command = _wrap(level, python, ["probe", "-", setup(level, python, kept)],
                    lease.uid if lease else None)
    try:
        done = subprocess.run(command, input=program(python)[1], capture_output=True, timeout=20,
                              env=worker_env())
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        if lease:
            lease.release()
    return done.returncode == 0


def can_keep_to_cpus() -> bool:
    """May a grading here keep to some CPUs (``keep_to``)? Only if its workers cannot
    leave them: the system-call filter must install at this machine's level (a kernel
    without seccomp would otherwise fail every worker of a batch)."""
    return _can_keep(*isolation())


@cache
def _can_keep(level: str, python: str) -> bool:
    if level == "drop":  # every worker there needs the filter: the level's probe had it
        return True
    return level != "basic" and _works(level, python, kept=True)


def best_level() -> str:
    """The level this machine should give: root as root, else user namespaces."""
    return "root" if os.geteuid() == 0 else "userns"


@cache
def isolation() -> tuple[str, str]:
    """The strongest level that works here (or ``$AUTOGRADER_ISOLATION``), and its interpreter."""
    probed = os.environ.get(PROBED_ENV, "").split(":", 2)
    if (len(probed) == 3 and probed[0] in LEVELS and probed[1] == WORKER_DIGEST
            and Path(probed[2]).is_file()):
        return probed[0], probed[2]  # a parent process already probed this machine
    forced = os.environ.get("AUTOGRADER_ISOLATION")
    if forced and forced not in LEVELS:
        raise ValueError(f"AUTOGRADER_ISOLATION must be one of {', '.join(LEVELS)}")
    levels = ["root", "drop", "userns", "basic"] if os.geteuid() == 0 else ["userns", "basic"]
    if not shutil.which("setpriv"):
        levels = [lv for lv in levels if lv not in ("root", "drop")]
    if not shutil.which("unshare"):
        levels = [lv for lv in levels if lv not in ("root", "userns")]
    if forced:
        levels = [forced]
    for level in levels:
        for python in _interpreters():
            if level == "basic" or _works(level, python):
                # Scoring processes started from here inherit the answer instead of probing.
                os.environ[PROBED_ENV] = f"{level}:{WORKER_DIGEST}:{python}"
                return level, python
    if forced:
        raise RuntimeError(f"isolation level {forced!r} does not work on this machine")
    return "basic", sys.executable


def command(in_fd: int, out_fd: int, uid: int | None = None) -> list[str]:
    """The full command line of a worker talking on these pipes, at the strongest level
    (``uid``: the worker's own user at the drop level, from its ``Lease``)."""
    level, python = isolation()
    return _wrap(level, python, [str(in_fd), str(out_fd), setup(level, python)], uid)


def prepare_workdir(path: str, uid: int | None = None) -> str:
    """Give the worker its directory (its own user's, closed to others at the drop level);
    return the HOME/TMPDIR it should use."""
    level = isolation()[0]
    if level == "drop":
        os.chown(path, uid, uid)
        os.chmod(path, 0o700)
        return path
    return path if level == "basic" else "/tmp"


def lease() -> "cleanup.Lease":
    """What a new worker holds while it runs at this machine's level (``cleanup.Lease``)."""
    return cleanup.Lease(isolation()[0])


def survivors() -> list[int]:
    """Processes of graded code still alive: this process's descendants (but its scoring
    zygotes, ``cleanup.HELPERS``), and at the drop level the processes of every pool user
    no grader leases now."""
    found = set(cleanup.descendants()) - cleanup.HELPERS
    if isolation()[0] == "drop":
        found |= set(users.unleased_processes())
    return sorted(found)


# Where a checkout holds the reference or the hidden tests: the reference itself, the
# grader and its suite, the source notebook (solutions included), the sample submissions
# (a correct one among them), built bundles (the Gradescope zip holds the reference) and
# the history of all of them.
SECRETS = ("solutions", "autograder", "source", "samples", "dist", ".git")


def close_secrets() -> list[str]:
    """Close the checkout's secrets to other users (``chmod o-rwx`` on each of
    ``SECRETS``: nobody else can enter the folder, whatever the modes below it), as
    Gradescope's setup does; at the drop level file modes are the only wall between
    the workers and the reference. Returns what it closed."""
    closed = []
    for name in SECRETS:
        with contextlib.suppress(OSError):
            mode = (REPO / name).lstat().st_mode
            if not stat.S_ISLNK(mode) and mode & 0o007:
                (REPO / name).chmod(stat.S_IMODE(mode) & ~0o007)
                closed.append(name)
    return closed


def exposed_secrets() -> list[str]:
    """Secrets a worker could read here (the first readable file of each): empty under
    namespaces, or where file modes close them to other users (a folder they cannot
    enter closes everything below it, whatever the files' own modes)."""
    level = isolation()[0]
    if level in ("root", "userns"):
        return []
    exposed = []
    for name in SECRETS:
        top = REPO / name
        if not top.exists():
            continue
        if level == "basic":
            exposed.append(name)
            continue
        if not all(p.stat().st_mode & 0o001 for p in top.parents):
            continue
        for folder, dirs, files in os.walk(top):
            if not os.stat(folder).st_mode & 0o001:
                dirs.clear()
                continue
            readable = [f for f in sorted(files) if _others_may_read(os.path.join(folder, f))]
            if readable:
                exposed.append(str((Path(folder) / readable[0]).relative_to(REPO)))
                break
    return exposed


def _others_may_read(path: str) -> bool:
    try:
        return bool(os.stat(path).st_mode & 0o004)
    except OSError:  # a dangling link
        return False


def readable_by_workers(paths: list[Path]) -> list[str]:
    """Those of ``paths`` a worker could read here (at the drop level: by file modes)."""
    level = isolation()[0]
    if level in ("root", "userns"):
        return []
    return [str(p) for p in paths if level == "basic" or users.open_to_others(p)]


def _marked(marker: str) -> list[int]:
    """PIDs whose environment carries ``marker`` (those this user may read)."""
    needle = f"{MARKER}={marker}\0".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if needle in (entry / "environ").read_bytes():
                    pids.append(int(entry.name))
    return pids


def kill_group(process: subprocess.Popen, marker: str = "") -> None:
    """Kill the worker, its process group and its marked descendants, and reap it.

    Under namespaces the worker is PID 1 of its own PID namespace, so its death
    (or that of ``unshare`` with ``--kill-child``) takes every descendant with
    it. At the drop level, ``Lease.release`` then kills everything of the worker's
    user. At the basic level, descendants that left the group are found by
    ``marker``, and those that also cleared their environment as orphans of the
    scoring process (``adopt_orphans``, ``Lease.release``).
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if marker and isolation()[0] == "basic":
        for pid in _marked(marker):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
