"""Step 1 of grading: turn a notebook or ``.py`` file into the statements that are graded.

Extraction knows no assignment: which part a statement belongs to is decided later,
from the names it defines and the assignment's ``PART_OF`` (``StudentCode.for_part``).

``extract`` does the work in the calling process. The grader calls ``extract_limited``:
the same work in a child process under memory and CPU limits and a wall-clock timeout,
because parsing is not cheap on hostile input (a 2 MB list literal once took 5.5 GB to
parse). A file that needs more becomes that student's ``SubmissionError``, never the
grader's crash. The child (``python -m autograder.extract``, or a fork of the grader's warm
scoring process) sends the result back as JSON; nothing of the submission runs anywhere.
"""

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .read import Chunk, SubmissionError, read_submission
from .split import Statement, StudentCode, split_code

# Limits of the extraction process. A real notebook takes about 30 MB and 0.1 s; one with
# a 10 MB corpus pasted in, about 150 MB and 1 s (extraction is linear in the size of the
# source; a notebook's outputs are stepped over, never held: ``notebook.py``; the size
# limits in ``read.py`` refuse what is absurd before any of it is parsed).
EXTRACT_MEMORY = 512 * 1024**2  # bytes of address space
EXTRACT_CPU = 20  # seconds: SIGXCPU ends the child then (its hard limit is a little later)
EXTRACT_TIMEOUT = 30.0  # seconds of wall time, at most
EXTRACT_OUTPUT = 64 * 1024**2  # bytes of JSON sent back
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def extract(path: Path) -> StudentCode:
    """Read ``path`` and cut it into parts; raises ``SubmissionError`` if unreadable."""
    return split_code(read_submission(Path(path)))


def to_json(code: StudentCode) -> str:
    """``code`` as JSON (``from_json`` reads it back)."""
    return json.dumps({"statements": [[s.source, s.origin, list(s.names)]
                                      for s in code.statements],
                       "warnings": code.warnings})


def from_json(text: str) -> StudentCode:
    """A ``StudentCode`` from ``to_json``'s text; ``ValueError`` if it is not one."""
    data = json.loads(text)
    try:
        statements = [Statement(str(source), str(origin), tuple(str(n) for n in names))
                      for source, origin, names in data["statements"]]
        return StudentCode(statements, [str(w) for w in data["warnings"]])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an extracted submission ({exc})") from None


Runner = Callable[[Path, float], "tuple[int | None, bytes, bytes]"]


def run_module(module: str, args: list[str], wall: float) -> tuple[int | None, bytes, bytes]:
    """``python -S -m MODULE ARGS`` with this package importable and no site-packages (the
    limited children: extraction, the similarity report's shortening): ``(exit code or None
    past wall, stdout, stderr)``."""
    command = [sys.executable, "-S", "-m", module, *args]
    env = {**os.environ, "PYTHONPATH": str(_PACKAGE_ROOT)}
    try:
        done = subprocess.run(command, capture_output=True, timeout=wall, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return done.returncode, done.stdout, done.stderr


def _child_process(path: Path, wall: float) -> tuple[int | None, bytes, bytes]:
    """``python -m autograder.extract PATH`` (``run_module``)."""
    return run_module("autograder.extract", [str(path)], wall)


def extract_limited(path: Path, timeout: float = EXTRACT_TIMEOUT,
                    run: Runner = _child_process) -> StudentCode:
    """``extract(path)`` in a child process with ``EXTRACT_MEMORY`` of address space
    (beyond what the child has when it starts), ``EXTRACT_CPU`` seconds of CPU and
    ``min(timeout, EXTRACT_TIMEOUT)`` of wall time.

    ``run(path, wall)`` starts the child, which runs ``_main``, and returns its exit
    code (``None`` past ``wall``), stdout and stderr: by default a new
    ``python -m autograder.extract``; the grader forks its warm scoring process instead
    (``suite/zygote.py``), which saves the interpreter's start.

    Raises ``SubmissionError`` saying which limit the file hit, or why it is unreadable.
    """
    wall = max(0.1, min(timeout, EXTRACT_TIMEOUT))
    code, out, err = run(Path(path).resolve(), wall)
    if code is None:
        raise SubmissionError(f"reading the file took over {wall:g} s")
    if code == 0 and len(out) <= EXTRACT_OUTPUT:
        try:
            return from_json(out.decode("utf-8"))
        except ValueError:
            pass
    if code == _UNREADABLE:
        raise SubmissionError(out.decode("utf-8", "replace")[:500])
    raise SubmissionError(_killed(code, err))


def _killed(code: int, err: bytes) -> str:
    """Why the child ended without a result, from its exit status: the soft CPU limit
    sends SIGXCPU (the hard one, SIGKILL, comes later and is never reached first); the
    address-space limit makes allocation fail, a ``MemoryError`` or an abort."""
    if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return f"reading the file took over {EXTRACT_CPU} s of CPU"
    if code in (_OUT_OF_MEMORY, -signal.SIGABRT) or b"MemoryError" in err:
        return f"reading the file needed over {EXTRACT_MEMORY >> 20} MiB of memory"
    if code in (-signal.SIGKILL, 128 + signal.SIGKILL):
        return "the process reading the file was killed (SIGKILL) from outside"
    return f"the file could not be read (exit status {code})"


_UNREADABLE = 3  # the child's exit status with a SubmissionError message on stdout
_OUT_OF_MEMORY = 4


def _address_space() -> int:
    """Bytes of address space this process holds now."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def set_limits() -> None:
    """This process's limits: ``EXTRACT_MEMORY`` more address space, ``EXTRACT_CPU`` s of CPU.

    The hard CPU limit is 2 s past the soft one. Linux sends SIGKILL, not SIGXCPU, when
    both are reached at once, and a SIGKILL cannot be told from any other kill.
    """
    import resource

    memory = _address_space() + EXTRACT_MEMORY
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (EXTRACT_CPU, EXTRACT_CPU + 2))


def _main(argv: list[str]) -> int:
    """The child: set the limits, extract, print JSON."""
    set_limits()
    try:
        text = to_json(extract(Path(argv[0])))
    except SubmissionError as exc:
        sys.stdout.write(str(exc))
        return _UNREADABLE
    except MemoryError:
        return _OUT_OF_MEMORY
    sys.stdout.write(text)
    return 0


__all__ = ["Chunk", "Statement", "StudentCode", "SubmissionError", "extract",
           "extract_limited", "from_json", "run_module", "split_code", "to_json"]
