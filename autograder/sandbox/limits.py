"""Resource limits and clean-up for worker processes.

Applied in the child between fork and exec: CPU seconds, address space, size of
files written, and core dumps off. The worker also gets its own session (process
group) so that killing it kills everything it started, and an environment with
nothing of the grader's in it.
"""

import contextlib
import os
import resource
import signal
import subprocess

CPU_SECONDS = 60
ADDRESS_SPACE = 2 * 1024**3
FILE_SIZE = 16 * 1024**2


def apply() -> None:
    """Lower this (child) process's limits; runs as ``preexec_fn``."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def worker_env(workdir: str, hash_seed: int = 0) -> dict[str, str]:
    """A minimal environment: no tokens, paths or settings of the grader leak in."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": workdir,
        "TMPDIR": workdir,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def kill_group(process: subprocess.Popen) -> None:
    """Kill the worker's whole process group and reap the worker."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
