"""How a worker is confined: resource limits, environment, namespaces, clean-up.

Three levels, the strongest this machine allows (probed once per process):

- ``root``: the grader runs as root (CI, Gradescope). The worker starts in new
  PID, mount and network namespaces; the repository (solutions, hidden suite),
  the submissions and the reports are covered by empty tmpfs mounts, ``/tmp`` is
  a private tmpfs, and the worker drops to ``nobody`` with no capabilities.
- ``userns``: an ordinary user whose kernel allows user namespaces gets the same
  namespaces and mounts, without the change of user.
- ``basic``: neither works; the worker only gets its own session, limits and a
  scrubbed environment (the reports say so).

In every level the worker sets its own resource limits (CPU seconds, address
space, file size, processes) before it reads any student code.
"""

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534
LIMITS = {
    "cpu_seconds": 60,
    "address_space": 2 * 1024**3,
    "file_size": 16 * 1024**2,
    "processes": 64,  # applied only when the worker runs as its own user
}
# Directories the worker must not see, in addition to the repository.
HIDDEN_DIRS: list[Path] = []


def worker_env(hash_seed: int = 0) -> dict[str, str]:
    """A minimal environment: nothing of the grader's (tokens, paths) leaks in."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _interpreters() -> list[str]:
    """Pythons that can run the worker, the grader's own first (it has the same version)."""
    own = os.path.realpath(sys.executable)
    return [own, "/usr/bin/python3"] if own != "/usr/bin/python3" else [own]


def _wrap(level: str, python: str, args: list[str]) -> list[str]:
    """The command that starts ``python args`` confined at ``level``."""
    command = [python, "-I", "-", *args]
    if level == "basic":
        return command
    hidden = [REPO, *HIDDEN_DIRS]
    mounts = ["mount -t tmpfs -o mode=1777,size=64m tmpfs /tmp"]
    mounts += [f"mount -t tmpfs -o size=4k,mode=000 tmpfs {shlex.quote(str(d))}" for d in hidden]
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
            "--no-new-privs", "--"] if level == "root" else []
    script = " && ".join([*mounts, "cd /tmp", "exec " + shlex.join([*drop, *command])])
    flags = ["--mount", "--net", "--pid", "--fork", "--kill-child", "--propagation", "private"]
    if level == "userns":
        flags.insert(0, "--map-root-user")
    return ["unshare", *flags, "--", "/bin/sh", "-c", script]


def _works(command: list[str]) -> bool:
    try:
        done = subprocess.run(command, input=b"import os\n", capture_output=True, timeout=20,
                              env=worker_env())
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@cache
def isolation() -> tuple[str, str]:
    """The strongest level that works here, and the interpreter it uses."""
    levels = ["root", "userns", "basic"] if os.geteuid() == 0 else ["userns", "basic"]
    if not (shutil.which("unshare") and shutil.which("setpriv")):
        levels = ["basic"]
    for level in levels:
        for python in _interpreters():
            if level == "basic" or _works(_wrap(level, python, [])):
                return level, python
    return "basic", sys.executable


def command(args: list[str]) -> list[str]:
    """The full command line for a worker with ``args``, at the strongest level."""
    level, python = isolation()
    return _wrap(level, python, args)


def kill_group(process: subprocess.Popen) -> None:
    """Kill the worker's process group and reap it.

    Under namespaces the worker is PID 1 of its own PID namespace, so its death
    (or that of ``unshare`` with ``--kill-child``) takes every descendant with
    it, even ones that left the process group.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
