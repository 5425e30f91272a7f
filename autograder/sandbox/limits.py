"""How a worker is confined: resource limits, environment, namespaces, clean-up.

Three levels, the strongest this machine allows (probed once per process):

- ``root``: the grader runs as root (CI, Gradescope). The worker starts in new
  PID, mount and network namespaces; the repository (solutions, hidden suite),
  the submissions and the reports are covered by empty tmpfs mounts, ``/tmp`` is
  a private tmpfs, and the worker drops to ``nobody`` with no capabilities.
- ``drop``: root without namespaces (a Docker container, as on Gradescope): the
  worker still runs as ``nobody`` in a private work directory; the secrets are
  then protected by file modes, so ``exposed_secrets`` must come back empty
  (the Gradescope ``setup.sh`` removes other users' access to the grader).
- ``userns``: an ordinary user whose kernel allows user namespaces gets the
  namespaces and mounts of ``root``, without the change of user.
- ``basic``: neither works; the worker only gets its own session, limits and a
  scrubbed environment (the reports say so).

In every level the worker sets its own resource limits (CPU seconds, address
space, file size, processes) before it reads any student code.
"""

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

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
LEVELS = ("root", "drop", "userns", "basic")
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
    extra = [d for d in (REPO, *named)
             if d.is_dir() and not prefix.is_relative_to(d) and
             not any(d.is_relative_to(c) for c in covered)]
    return covered + extra


def worker_env(hash_seed: int = 0, home: str = "/tmp", marker: str = "") -> dict[str, str]:
    """A minimal environment: nothing of the grader's (tokens, paths) leaks in.

    ``marker`` tags the worker's processes so that, without a PID namespace,
    children that left its process group can still be found and killed.
    """
    return {
        MARKER: marker,
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _interpreters() -> list[str]:
    """Pythons that can run the worker, the grader's own first (it has the same version)."""
    own = os.path.realpath(sys.executable)
    return [own, "/usr/bin/python3"] if own != "/usr/bin/python3" else [own]


def setup(level: str, python: str) -> str:
    """The worker's SETUP argument at ``level``: what to cover, whom to become, limits."""
    namespaces = level in ("root", "userns")
    return json.dumps({
        "mounts": [str(d) for d in hidden_dirs(python)] if namespaces else [],
        "drop_to": NOBODY if level == "root" else None,
        "limits": LIMITS,
    })


def _wrap(level: str, python: str, args: list[str]) -> list[str]:
    """The command that starts the worker ``python ... args`` confined at ``level``."""
    command = [python, "-I", "-S", "-", *args]  # the worker needs the standard library only
    if level == "basic":
        return command
    if level == "drop":
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                "--no-new-privs", "--", *command]
    # The worker itself mounts and drops privileges (worker.confine) inside the namespaces.
    flags = ["--mount", "--net", "--pid", "--fork", "--kill-child", "--propagation", "private"]
    if level == "userns":
        flags.insert(0, "--map-root-user")
    return ["unshare", *flags, "--", *command]


def _works(level: str, python: str) -> bool:
    """Start a worker that only confines itself and exits: does ``level`` work here?"""
    command = _wrap(level, python, ["probe", "-", setup(level, python)])
    try:
        done = subprocess.run(command, input=WORKER_SOURCE, capture_output=True, timeout=20,
                              env=worker_env())
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


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


def command(in_fd: int, out_fd: int) -> list[str]:
    """The full command line of a worker talking on these pipes, at the strongest level."""
    level, python = isolation()
    return _wrap(level, python, [str(in_fd), str(out_fd), setup(level, python)])


def prepare_workdir(path: str) -> str:
    """Give the worker its directory; return the HOME/TMPDIR it should use."""
    level = isolation()[0]
    if level == "drop":
        os.chown(path, NOBODY, NOBODY)
        return path
    return path if level == "basic" else "/tmp"


SECRETS = ("solutions", "autograder/suite")


def exposed_secrets() -> list[str]:
    """Secrets a worker could read here: empty under namespaces or with tight file modes."""
    level = isolation()[0]
    if level in ("root", "userns"):
        return []
    exposed = []
    for name in SECRETS:
        for path in [REPO / name, *(REPO / name).rglob("*")]:
            if level == "basic" or path.stat().st_mode & 0o004:
                exposed.append(str(path.relative_to(REPO)))
                break
    return exposed


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
    it. Without them, descendants that left the group are found by ``marker``
    (best effort: a child that clears its environment escapes this search).
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if marker and isolation()[0] in ("drop", "basic"):
        for pid in _marked(marker):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
