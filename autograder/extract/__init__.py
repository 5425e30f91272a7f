"""Step 1 of grading: turn a notebook or ``.py`` file into the statements that are graded.

Extraction knows no assignment: which part a statement belongs to is decided later,
from the names it defines and the assignment's ``PART_OF`` (``StudentCode.for_part``).

``extract`` does the work in the calling process. The grader calls ``extract_limited``:
the same work in a child process under memory and CPU limits and a wall-clock timeout,
because parsing is not cheap on hostile input (a 2 MB list literal once took 5.5 GB to
parse). A file that needs more becomes that student's ``SubmissionError``, never the
grader's crash. The child (``python -m autograder.extract``) sends the result back as
JSON; nothing of the submission runs anywhere.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from .read import Chunk, SubmissionError, read_submission
from .split import Statement, StudentCode, split_code

# Limits of the extraction process. A real notebook takes about 30 MB and 0.1 s.
EXTRACT_MEMORY = 512 * 1024**2  # bytes of address space
EXTRACT_CPU = 20  # seconds
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


def extract_limited(path: Path, timeout: float = EXTRACT_TIMEOUT) -> StudentCode:
    """``extract(path)`` in a child process with ``EXTRACT_MEMORY`` of address space,
    ``EXTRACT_CPU`` seconds of CPU and ``min(timeout, EXTRACT_TIMEOUT)`` of wall time.

    Raises ``SubmissionError`` saying which limit the file hit, or why it is unreadable.
    """
    command = [sys.executable, "-S", "-m", "autograder.extract", str(Path(path).resolve())]
    env = {**os.environ, "PYTHONPATH": str(_PACKAGE_ROOT)}
    wall = max(0.1, min(timeout, EXTRACT_TIMEOUT))
    try:
        done = subprocess.run(command, capture_output=True, timeout=wall, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise SubmissionError(f"reading the file took over {wall:g} s") from None
    if done.returncode == 0 and len(done.stdout) <= EXTRACT_OUTPUT:
        try:
            return from_json(done.stdout.decode("utf-8"))
        except ValueError:
            pass
    if done.returncode == _UNREADABLE:
        raise SubmissionError(done.stdout.decode("utf-8", "replace")[:500])
    if done.returncode in (_OUT_OF_MEMORY, -9, -6) or b"MemoryError" in done.stderr:
        raise SubmissionError(f"reading the file needed over {EXTRACT_MEMORY >> 20} MiB")
    if done.returncode in (-24, 152):  # SIGXCPU
        raise SubmissionError(f"reading the file took over {EXTRACT_CPU} s of CPU")
    raise SubmissionError(f"the file could not be read (exit status {done.returncode})")


_UNREADABLE = 3  # the child's exit status with a SubmissionError message on stdout
_OUT_OF_MEMORY = 4


def _main(argv: list[str]) -> int:
    """The child: set the limits, extract, print JSON."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (EXTRACT_MEMORY, EXTRACT_MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (EXTRACT_CPU, EXTRACT_CPU))
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
           "extract_limited", "from_json", "split_code", "to_json"]
