"""Run the hidden suite on one submission file and return its ``SubmissionResult``.

CONTRACT (owned by the suite; the CLI and the repository's tests call only this):

    grade_file(path, student_id, *, assignment, source_label=None, timeout=300.0,
               hidden_visibility="after_published", show_hidden_inputs=False, cpus=None)
        -> SubmissionResult

- ``path``: a notebook (.ipynb) or .py file; ``assignment``: an ``Assignment``
  (``autograder.assignment.load``), whose folder holds the hidden tests.
- ``show_hidden_inputs``: messages of hidden tests keep their inputs (off: "…"; see plugin.py).
- ``cpus``: the CPUs the grading's processes (extraction, scoring, workers) may run on;
  None: any (a batch gives each grading cores of its own: ``batch.Cores``).
- Runs pytest on the assignment's folder in a *separate* process (the scoring
  process), which itself starts one sandboxed worker per part.
- Never raises for a bad submission: an unreadable file, a crash or a timeout of
  the whole run gives ``status="error"`` with ``error`` saying why, all parts 0.
  So does a sandbox that cannot start on this machine (``error="environment: ..."``):
  the grader's failure is never reported as the student's zero.

How (the details a TA may need):

- The submission is extracted first (``autograder.extract``, parsing only, in a
  limited child process), to fail fast on an unreadable file or one that defines none
  of the graded names, and to collect the extraction warnings (cells that do not parse).
- The scoring process runs ``pytest.main([FOLDER, -p autograder.suite.plugin, -p
  autograder.suite.fixtures, --assignment=FOLDER, --submission=PATH, --results-json=TMP,
  --assert=plain, ...])`` in a temporary directory, in a session of its own, with plugin
  autoloading off and the repository's pytest configuration ignored. ``--assert=plain``
  matters: pytest's assertion rewriting would put test source into the messages
  students read.
- Both child processes are forks of the assignment's *zygote* (``zygote.py``): a process
  that imported pytest, hypothesis, the engine and the hidden tests once, so that a
  grading does not pay half a second of imports. A zygote that dies is replaced; the
  grading it was serving is a grading error (``error="environment: ..."``).
- Over ``timeout`` seconds, the run gets SIGTERM (the plugin then kills its workers),
  then SIGKILL for its whole process group; the result is ``error="timeout"``.
- The plugin's JSON is validated (types, ids, parts, and every part's tests must
  add up to exactly the part's points); a suite that is incomplete or a JSON that does
  not validate is a grader error, reported as ``status="error"``.
- ``warnings``: extraction warnings, then the statements that raised when a worker
  loaded them (``load_errors``), each once.
- ``parts``/``score``/``max_score`` are computed here from the tests and the points;
  ``seconds`` is the wall time of the whole call.

A little over 300 lines: the scoring process's options, environment and the validation
of its JSON are kept beside the one function that uses them.
"""

import contextlib
import functools
import json
import math
import os
import signal
import sys
import tempfile
import time
from collections.abc import Collection
from pathlib import Path

from autograder.assignment import Assignment
from autograder.extract import EXTRACT_OUTPUT, SubmissionError, extract_limited, to_json
from autograder.results import (
    MACHINE_FAILED,
    VISIBILITIES,
    SubmissionResult,
    TestResult,
    new_result,
)
from autograder.safe import safe_result
from autograder.sandbox import limits, users
from autograder.suite import zygote
from autograder.suite.handover import ENVIRONMENT_EXIT, EXTRACTED_ENV

# The tree this runner belongs to: the scoring process imports the suite, the grader and
# the reference from here, whatever another install of the package points to.
REPO_ROOT = Path(__file__).resolve().parents[2]
# The scoring process's own address space. It peaks at 0.7 GB of it (most of it thread
# stacks and malloc arenas reserved, not used), and a worker's reply is capped
# (``client.MAX_REPLY``), so this is never reached by grading; it stops the unforeseen.
SCORER_MEMORY = 2 * 1024**3
# Seconds between SIGTERM and SIGKILL when a run is over time.
GRACE = 3.0
# pytest's exit code when it collected no test at all.
NO_TESTS = 5
# ``_run``'s code when the scoring process could not be started or its zygote died.
LOST = -1000
# Options of the scoring process's pytest, apart from the paths.
PYTEST_INI = """[pytest]
addopts =
timeout = 60
"""


def pytest_args(
    assignment: Assignment, path: Path, results: Path, ini: Path, hidden_visibility: str,
    show_hidden_inputs: bool = False,
) -> list[str]:
    """The options of the scoring process's ``pytest.main``."""
    reveal = ["--show-hidden-inputs"] if show_hidden_inputs else []
    folder = str(assignment.folder)
    return [
        folder,
        "-c", str(ini), "--rootdir", folder, "--confcutdir", folder,
        "-p", "autograder.suite.plugin", "-p", "autograder.suite.fixtures",
        "-p", "pytest_timeout", f"--assignment={folder}",
        "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:doctest",
        "-p", "no:unraisableexception",
        f"--submission={path}", f"--results-json={results}",
        f"--hidden-visibility={hidden_visibility}",
        "-q", "--assert=plain", "--no-header", "--tb=no", "-W", "ignore", *reveal,
    ]  # fmt: skip


@functools.cache
def hypothesis_cache() -> Path:
    """Where the scoring processes' Hypothesis keeps the tables it builds: one folder per
    user for every batch, if that folder is this user's alone; else a new private one
    (someone else made it, or can write in it: what it holds would be read as ours)."""
    try:
        return users.private_folder(
            Path(tempfile.gettempdir()) / f"autograder-hypothesis-{os.getuid()}")
    except OSError:
        return Path(tempfile.mkdtemp(prefix="autograder-hypothesis-"))


def scorer_env() -> dict[str, str]:
    """The environment of the scoring processes (their zygote's)."""
    env = {
        **os.environ,
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": str(REPO_ROOT),
        # Hypothesis caches tables it builds (Unicode categories, constants of the
        # suite's modules) on disk; a fresh working directory each run would rebuild
        # them every time. The example database stays off (conftest).
        "HYPOTHESIS_STORAGE_DIRECTORY": str(hypothesis_cache()),
    }
    for name in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "COVERAGE_PROCESS_START"):
        env.pop(name, None)
    return env


def _forked(assignment: Assignment, request: dict, timeout: float) -> int | None:
    """Run ``request`` forked from the assignment's warm scoring process (``zygote.py``):
    its exit code, ``None`` past ``timeout`` seconds (then it gets SIGTERM, and after
    ``GRACE`` SIGKILL for its whole process group), or ``LOST``."""
    try:
        warm, started = zygote.run(assignment.folder, scorer_env(), request)
    except (zygote.ZygoteLost, OSError) as exc:
        _note(request, f"autograder: the scoring process did not start: {exc}")
        return LOST
    try:
        code = started.wait(timeout)
        if code is None:
            started.signal(signal.SIGTERM)  # the plugin then kills its workers
            started.wait(GRACE)
        return code
    except zygote.ZygoteLost as exc:
        _note(request, f"autograder: {exc}")
        return LOST
    finally:
        zygote.finish(warm, started)


def _note(request: dict, line: str) -> None:
    with contextlib.suppress(OSError), open(request["stderr"], "a", encoding="utf-8") as err:
        err.write(line + "\n")


def _tail(path: Path, size: int = 20_000) -> str:
    """The end of a text file (``""`` if unreadable)."""
    with contextlib.suppress(OSError), open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        handle.seek(max(0, handle.tell() - size))
        return handle.read().decode("utf-8", "replace")
    return ""


def _run(assignment: Assignment, args: list[str], cwd: Path, timeout: float,
         extracted: Path, cpus: list[int] | None) -> tuple[int | None, str]:
    """The scoring process, ``pytest.main(args)``: ``(exit code or None on timeout, the
    end of its stderr)``."""
    stderr = cwd / "stderr.txt"
    code = _forked(assignment, {
        "job": "pytest", "args": args, "cwd": str(cwd), "env": {EXTRACTED_ENV: str(extracted)},
        "stderr": str(stderr), "memory": SCORER_MEMORY, "cpu": math.ceil(timeout) + 1,
        "cpus": cpus,
    }, timeout)
    return code, _tail(stderr)


def _extract_runner(assignment: Assignment, cwd: Path, cpus: list[int] | None):
    """``extract_limited``'s ``run``: the extraction forked like the scoring process."""

    def run(path: Path, wall: float) -> tuple[int | None, bytes, bytes]:
        out, err = cwd / "extract.out", cwd / "extract.err"
        request = {"job": "extract", "path": str(path), "cwd": str(cwd), "env": {},
                   "stdout": str(out), "stderr": str(err), "cpus": cpus}
        code = _forked(assignment, request, wall)
        if code == LOST:
            raise zygote.ZygoteLost(_tail(err).strip()[-300:] or "the scoring zygote is gone")
        with contextlib.suppress(OSError):
            if out.stat().st_size <= EXTRACT_OUTPUT:
                return code, out.read_bytes(), _tail(err).encode()
        return code, b"", _tail(err).encode()

    return run


def _valid_test(test: object, points: dict[int, int]) -> bool:
    if type(test) is not dict:
        return False
    keys = set(TestResult.__annotations__)
    return (
        set(test) == keys
        and type(test["id"]) is str
        and type(test["name"]) is str
        and test["part"] in points
        and type(test["part"]) is int
        and all(type(test[k]) in (int, float) and math.isfinite(test[k])
                for k in ("score", "max_score"))
        and test["max_score"] > 0
        and test["status"] in ("passed", "failed")
        and test["score"] == (test["max_score"] if test["status"] == "passed" else 0)
        and type(test["output"]) is str
        and test["visibility"] in VISIBILITIES
    )  # fmt: skip


def environment_error(path: Path) -> str | None:
    """Why the sandbox did not start, if the plugin recorded that it did not."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        detail = json.loads(path.read_text(encoding="utf-8")).get("environment_error")
        if type(detail) is str and detail:
            return detail[:500]
    return None


def read_results(path: Path, points: dict[int, int]) -> tuple[list[TestResult], list[str]]:
    """The plugin's JSON, validated; raises ``ValueError`` saying what is wrong."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"no readable results ({type(exc).__name__})") from None
    if type(payload) is not dict or type(payload.get("tests")) is not list:
        raise ValueError("results have the wrong shape")
    tests = payload["tests"]
    if not all(_valid_test(t, points) for t in tests):
        raise ValueError("a test result has the wrong shape")
    if len({t["id"] for t in tests}) != len(tests):
        raise ValueError("two tests have the same id")
    for part, worth in points.items():
        total = sum(t["max_score"] for t in tests if t["part"] == part)
        if total != worth:
            raise ValueError(f"the Part {part} tests add up to {total:g} points, not {worth}")
    warnings = payload.get("warnings", [])
    if type(warnings) is not list or not all(type(w) is str for w in warnings):
        raise ValueError("warnings have the wrong shape")
    return tests, warnings


def grade_file(
    path: Path | str,
    student_id: str,
    *,
    assignment: Assignment,
    source_label: str | None = None,
    timeout: float = 300.0,
    hidden_visibility: str = "after_published",
    show_hidden_inputs: bool = False,
    cpus: Collection[int] | None = None,
) -> SubmissionResult:
    """Grade one submission with the hidden suite (see the module docstring)."""
    started = time.monotonic()
    cpus = sorted(cpus) if cpus else None
    path = Path(path).resolve()
    source = source_label if source_label is not None else str(path)
    if hidden_visibility not in VISIBILITIES:
        raise ValueError(f"hidden_visibility must be one of {VISIBILITIES}")

    def finish(**fields) -> SubmissionResult:
        result = new_result(assignment, student_id, source, **fields)
        result["seconds"] = round(time.monotonic() - started, 3)
        return safe_result(result)  # nothing a submission wrote can break a report

    limits.isolation()  # probed once, here: the scoring processes inherit the answer
    with tempfile.TemporaryDirectory(prefix="suite-") as tmp:
        tmp_dir = Path(tmp)
        try:
            code = extract_limited(path, timeout, run=_extract_runner(assignment, tmp_dir, cpus))
        except SubmissionError as exc:
            return finish(status="error", error=f"unreadable submission: {exc}")
        except zygote.ZygoteLost as exc:
            return finish(status="error", error=f"{MACHINE_FAILED}{exc}")
        warnings = list(code.warnings)
        if not code.defined() & set(assignment.part_of):
            return finish(status="error", warnings=warnings,
                          error="no code found: none of the graded names is defined")
        results, ini = tmp_dir / "results.json", tmp_dir / "pytest.ini"
        ini.write_text(PYTEST_INI, encoding="utf-8")
        extracted = tmp_dir / "extracted.json"  # the scoring process reads it, not the file
        extracted.write_text(to_json(code), encoding="utf-8")
        args = pytest_args(assignment, path, results, ini, hidden_visibility,
                           show_hidden_inputs)
        left = timeout - (time.monotonic() - started)
        exit_code, stderr = _run(assignment, args, tmp_dir, left, extracted, cpus)
        if exit_code == LOST:
            detail = stderr.strip().splitlines()[-1][:500] if stderr.strip() else "lost"
            print(f"autograder: grading {source}: {detail}", file=sys.stderr)
            return finish(status="error", error=f"{MACHINE_FAILED}{detail}", warnings=warnings)
        if exit_code is None:
            return finish(status="error", error=f"timeout: grading took over {timeout:g} s",
                          warnings=warnings)
        detail = environment_error(results)
        if exit_code == ENVIRONMENT_EXIT or detail:
            detail = detail or "the sandboxed worker did not start"
            print(f"autograder: grading {source}: {detail}", file=sys.stderr)
            return finish(status="error", error=f"{MACHINE_FAILED}{detail}", warnings=warnings)
        try:
            if exit_code == NO_TESTS:
                raise ValueError(f"{assignment.name} has no hidden tests in {assignment.folder}")
            if exit_code not in (0, 1):
                raise ValueError(f"the test run stopped with exit code {exit_code}")
            tests, load_errors = read_results(results, assignment.points)
        except ValueError as exc:
            print(f"autograder: grading {source} failed: {exc}\n{stderr}", file=sys.stderr)
            return finish(status="error", error=f"crash: {exc}", warnings=warnings)
        if "autograder: internal error" in stderr:
            # A test the grader could not run (the student read "InternalError"): the TA
            # gets the real error.
            print(f"autograder: while grading {source}:\n{stderr}", file=sys.stderr)

    parts = new_result(assignment, student_id, source)["parts"]
    for test in tests:
        parts[str(test["part"])]["score"] += float(test["score"])
    return finish(
        warnings=list(dict.fromkeys([*warnings, *load_errors])),
        tests=tests,
        parts=parts,
        score=float(sum(p["score"] for p in parts.values())),
    )
