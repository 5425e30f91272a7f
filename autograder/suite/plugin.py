"""The pytest plugin of the hidden suite: options, markers, and one ``TestResult`` per test.

Loaded with ``-p autograder.suite.plugin`` by ``run.py`` (with ``-p autograder.suite.fixtures``,
the fixtures the hidden tests use). It adds

- ``--assignment=FOLDER``: the assignment's folder (``autograder.assignment``), required;
- ``--submission=PATH``: the notebook or ``.py`` file to grade (read by ``fixtures.py``);
- ``--results-json=PATH``: where to write the results (nothing is written without it);
- ``--hidden-visibility=V``: Gradescope visibility of tests without a ``visibility`` marker;
- ``--show-hidden-inputs``: keep the evidence of hidden tests in their messages (see below);
- the markers ``points(n)`` (required on every test), ``visibility(v)`` and
  ``grades(*names)``: the spec names of its own part a test judges, or ``Class.method``
  for a method of another part's class that its part grades (without it, every name of
  its part). A name whose tests have all passed runs as the student wrote it
  when the parts graded after it use it (``fully_passed_names``).

Every collected test becomes one ``TestResult``: id ``partN::test_name``, name = the
first line of the test's docstring, score = points when it passed. ``output`` is a
message for the student, built from the exception only:

- ``AssertionError``: its message (the suite writes every message itself; with
  ``--assert=plain`` pytest adds no source);
- ``StudentError``: "your code raised ValueError: ...";
- ``WorkerFailure``: "timed out after N s" / "your code crashed the worker (...)";
- ``MissingName``: "X is not defined";
- an exception carrying a ``student_message`` attribute: that message;
- anything else: a generic "the grader could not run this test (InternalError)",
  with the real traceback on stderr for the TA.

Never a traceback, never test source, never hypothesis' notes (its "Falsifying
example" would print the generated input).

Hidden inputs: a message marks its *evidence* (the input and every value computed from
it, the student's exception message included; ``evidence.py``). For a test whose
visibility is ``visible``, or with ``--show-hidden-inputs``, the evidence stays;
otherwise each piece gives way to its outline ("a list of 5 items") and a note says
why, unless the test's name spells the value out (then it is no secret). Load warnings
follow the same rule: those of a worker loaded before any test ran are the student's
own code speaking and stay; a worker loaded later (after a crash, or with another hash
seed) has lived beside hidden inputs, so its new warnings are evidence.
"""

import contextlib
import functools
import json
import os
import re
import signal
import sys
import traceback
from pathlib import Path

import pytest

from autograder.assignment import UnknownAssignment, load
from autograder.results import VISIBILITIES
from autograder.sandbox import MissingName, StudentError, WorkerFailure
from autograder.suite.checks import raised_at
from autograder.suite.evidence import (
    exception_detail,
    is_all_evidence,
    render,
    type_label,
)
from autograder.suite.judged import (
    ASSIGNMENT_KEY,
    CHARGED_KEY,
    OUTCOMES_KEY,
    assignment_of,
    is_timing,
    judged_in,
    judged_names,
    part_of,
    points_of,
)

MESSAGE_LIMIT = 1500
# fixtures.py appends worker load errors here; they become the result's warnings.
WARNINGS_KEY = pytest.StashKey[list]()
# fixtures.py registers every worker here, so that SIGTERM can kill them all.
WORKERS_KEY = pytest.StashKey[list]()
# fixtures.py puts here why the sandbox could not start (the run then stops at once).
ENVIRONMENT_KEY = pytest.StashKey[str]()
# True once any of the submission's code was sent to a worker of this session.
CODE_RAN_KEY = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder", "hidden autograder suite")
    group.addoption("--assignment", default=None, help="the assignment's folder")
    group.addoption("--submission", default=None, help="notebook or .py file to grade")
    group.addoption("--results-json", default=None, help="write the TestResults here")
    group.addoption(
        "--hidden-visibility",
        default="after_published",
        choices=VISIBILITIES,
        help="visibility of tests without a visibility marker",
    )
    group.addoption(
        "--show-hidden-inputs",
        action="store_true",
        default=False,
        help="keep the inputs of hidden tests (and values computed from them) in messages",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "points(n): points the test is worth (required)")
    config.addinivalue_line("markers", "visibility(v): Gradescope visibility of the test")
    config.addinivalue_line("markers", "grades(*names): the spec names (or Class.method) "
                            "the test judges")
    config.stash[WARNINGS_KEY] = []
    config.stash[WORKERS_KEY] = []
    folder = config.getoption("--assignment")
    try:
        config.stash[ASSIGNMENT_KEY] = load(folder or "")
    except UnknownAssignment as exc:
        raise pytest.UsageError(f"--assignment: {exc}") from None
    path = config.getoption("--results-json")
    if path:
        config.pluginmanager.register(Recorder(config, Path(path)), "autograder-recorder")
        # run.py stops a run that is over time with SIGTERM: take the workers down too
        # (each runs in a session of its own, out of reach of a process-group kill).
        signal.signal(signal.SIGTERM, functools.partial(_terminate, config))


def close_workers(config: pytest.Config) -> None:
    """Kill every worker this session started."""
    for worker in config.stash.get(WORKERS_KEY, []):
        with contextlib.suppress(Exception):
            worker.close()


def _terminate(config: pytest.Config, signum: int, frame: object) -> None:
    close_workers(config)
    os._exit(128 + signum)


def pytest_unconfigure(config: pytest.Config) -> None:
    # Normally every fixture has closed its workers by now; not after ``pytest.exit``.
    close_workers(config)



def display_name(item: pytest.Item) -> str:
    doc = getattr(getattr(item, "obj", None), "__doc__", None) or ""
    lines = [line.strip() for line in doc.strip().splitlines()]
    return lines[0] if lines and lines[0] else item.name


def _leaf(exc: BaseException) -> BaseException:
    """The first concrete exception inside (nested) exception groups."""
    # Duck-typed: BaseExceptionGroup is not a builtin before Python 3.11.
    while isinstance(getattr(exc, "exceptions", None), (list, tuple)) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown_warnings(warnings: list[str], reveal: bool) -> list[str]:
    """Load warnings as the student reads them (see the module docstring)."""
    kept, withheld = [], 0
    for warning in dict.fromkeys(warnings):
        plain = render(warning, True, MESSAGE_LIMIT)
        if reveal or not is_all_evidence(warning):
            kept.append(render(warning, reveal, MESSAGE_LIMIT))
        elif plain not in kept:
            withheld += 1
    kept = list(dict.fromkeys(kept))
    if withheld:
        kept.append(f"{withheld} more warning{'s' * (withheld != 1)} from reloading your code "
                    "during hidden tests (not shown: they may hold hidden inputs)")
    return kept


def student_message(exc: BaseException, where: str = "") -> str:
    """What the student reads for a test that failed with ``exc``, evidence still marked."""
    original = exc
    exc = _leaf(exc)
    message = getattr(exc, "student_message", None)
    if isinstance(message, str) and message:
        return _clip(message)
    if isinstance(exc, StudentError):
        detail = exception_detail(exc.type_name, exc.message, MESSAGE_LIMIT)
        return _clip(f"your code raised {type_label(exc.type_name)}{raised_at(exc)}{detail}")
    if isinstance(exc, WorkerFailure):
        if exc.kind == "timeout" and exc.detail.startswith("one call "):
            return _clip(f"timed out: {exc.detail}")  # ``budget.py``, ``asleep.py``
        if exc.kind == "timeout":
            seconds = re.search(r"within ([\d.]+) s", exc.detail)
            limit = f"{float(seconds.group(1)):.2g} s" if seconds else "its time limit"
            return f"timed out after {limit}"
        if exc.kind == "crash":
            return _clip(f"your code crashed the worker ({exc.detail})")
        return _clip(f"the grader could not read your code's answer ({exc.detail})")
    if isinstance(exc, MissingName):
        return _clip(str(exc))
    if isinstance(exc, AssertionError):
        text = str(exc)
        return _clip(text) if text else "the result does not match the specification"
    if isinstance(exc, pytest.fail.Exception):
        text = str(getattr(exc, "msg", "") or "")
        if text.startswith("Timeout"):
            return "the test took too long and was stopped"
        return _clip(text) or "failed"
    if _is_flaky(exc) or _is_flaky(original):
        return "your code gave different answers for the same input (is it deterministic?)"
    print(f"autograder: internal error in {where or 'a test'}:", file=sys.stderr)
    traceback.print_exception(original, file=sys.stderr)
    return f"the grader could not run this test (InternalError: {type(exc).__name__})"


def _is_flaky(exc: BaseException) -> bool:
    return any(cls.__name__ in ("Flaky", "FlakyFailure") for cls in type(exc).__mro__)


class Recorder:
    """Collects one TestResult per collected test and writes them at the end of the session."""

    def __init__(self, config: pytest.Config, path: Path) -> None:
        self.config, self.path = config, path
        self.hidden = config.getoption("--hidden-visibility")
        self.reveal = bool(config.getoption("--show-hidden-inputs"))
        self.results: dict[str, dict] = {}

    @pytest.hookimpl(trylast=True)  # after -k / -m deselection
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        # Parts run in the assignment's order: a part whose functions others use comes
        # first, so that once it has passed every test they can run the student's own.
        order = assignment_of(self.config).grading_order
        items.sort(key=lambda item: order.index(part_of(item)))
        a = assignment_of(self.config)
        outcomes = self.config.stash[OUTCOMES_KEY] = {
            name: {"total": 0, "passed": 0}
            for part in a.parts for name in judged_in(a, part)}
        for item in items:
            names = judged_names(item)
            for name in names:
                outcomes[name]["total"] += 1
            marks = list(item.iter_markers("visibility"))
            visibility = marks[0].args[0] if marks else self.hidden
            if visibility not in VISIBILITIES:
                raise pytest.UsageError(f"{item.nodeid}: unknown visibility {visibility!r}")
            part = part_of(item)
            test_id = f"part{part}::{item.name}"
            if any(r["id"] == test_id for r in self.results.values()):
                raise pytest.UsageError(f"{item.nodeid}: duplicate test id {test_id}")
            self.results[item.nodeid] = {
                "id": test_id,
                "name": display_name(item),
                "part": part,
                "score": 0.0,
                "max_score": points_of(item),
                "status": "failed",
                "output": "not run",
                "visibility": visibility,
                "_failed": False,
                "_names": names,
                "_timing": is_timing(item),
            }

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        report = yield
        result = self.results.get(item.nodeid)
        if result is None or call.when == "teardown":
            if call.excinfo is not None and call.when == "teardown":
                print(f"autograder: teardown error in {item.nodeid}", file=sys.stderr)
            return report
        if (report.failed or report.skipped) and not result["_failed"] and not result["_timing"]:
            # a deviation charged, which a timing test may forgive once (``judged.forgive``)
            self.config.stash.setdefault(CHARGED_KEY, {})[item.nodeid] = (
                set(result["_names"]), result["max_score"])
        if report.failed and not result["_failed"]:
            result["_failed"] = True
            exc = call.excinfo.value if call.excinfo is not None else None
            message = student_message(exc, item.nodeid) if exc is not None else "failed"
            result["output"] = render(message, self.reveal or result["visibility"] == "visible",
                                      MESSAGE_LIMIT, public=result["name"])
        elif report.skipped and not result["_failed"]:
            result["_failed"] = True
            result["output"] = "not run"
        elif call.when == "call" and report.passed and not result["_failed"]:
            result["status"] = "passed"
            result["score"] = result["max_score"]
            result["output"] = "passed"
            for name in result["_names"]:
                self.config.stash[OUTCOMES_KEY][name]["passed"] += 1
        return report

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        tests = []
        for result in self.results.values():
            result = {k: v for k, v in result.items() if not k.startswith("_")}
            if result["status"] != "passed":
                result["score"] = 0.0
            tests.append(result)
        payload = {
            "version": 1,
            "exitstatus": int(exitstatus),
            "tests": tests,
            "warnings": shown_warnings(self.config.stash.get(WARNINGS_KEY, []), self.reveal),
            "environment_error": self.config.stash.get(ENVIRONMENT_KEY, None),
        }
        tmp = self.path.with_name(self.path.name + ".part")
        tmp.write_text(json.dumps(payload, ensure_ascii=True), encoding="utf-8")
        os.replace(tmp, self.path)
