"""Fixtures of the hidden tests: the submission, one sandboxed worker per part, limits.

A pytest plugin (``-p autograder.suite.fixtures``, next to ``plugin.py``), so that the
hidden tests of any assignment's folder get them.

- ``code`` (session): the submission cut into parts (``autograder.extract``), read from
  ``--submission``. Extraction only parses; nothing of the student's runs here.
- ``student``: the worker of the test module's part, wrapped in a ``Student``. One worker
  per part per session; a worker that died (timeout, crash) is replaced for the next test.
- ``spawn``: ``spawn(hash_seed)`` starts an extra worker of the same part with another
  ``PYTHONHASHSEED``; it is closed when the test ends.

Limits (their values and ``Student`` are in ``student.py``), so that a hanging submission
costs seconds, not minutes, and only in its part:

- every request to a worker has ``CALL_TIMEOUT`` seconds (loading: ``LOAD_TIMEOUT``, and
  ``LOAD_CPU`` seconds of CPU), and
  is stopped sooner if its worker sits still (sleeps) for a second (``asleep.py``); a
  function or method that has timed out in the part also gets, in later tests, a CPU
  budget of a multiple of what correct code needs in that test (``budget.py``);
- after ``MAX_TIMEOUTS`` timeouts in one part, the remaining tests of that part fail at once;
- a worker that cannot even load fails every test of its part at once (loading is
  deterministic, so there is no point in retrying);
- a worker that fails before it is ready (the sandbox itself does not start) stops the
  whole run: ``grade_file`` reports a grading error instead of a score;
- a test may spend ``TEST_BUDGET`` seconds and a part ``PART_BUDGET`` seconds in calls;
- at most ``limits.WORKERS_AT_ONCE`` workers run at a time (their memory limits add up to
  the submission's budget, ``limits.SUBMISSION_MEMORY``).

Inside one test, a failure of the worker is sticky: every later call of that test raises
the same exception at once, so hypothesis reproduces it instantly while shrinking.
"""

import contextlib
import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from autograder.extract import StudentCode, extract_limited, from_json
from autograder.sandbox import (
    Worker,
    WorkerFailure,
    cleanup,
    limits,
)
from autograder.suite.asleep import Asleep
from autograder.suite.budget import FIRST_LOOK, CpuBudget, Meter, Recording, budget
from autograder.suite.evidence import PENDING_SOURCES, STATIC_NAMES, load_error
from autograder.suite.handover import ENVIRONMENT_EXIT, EXTRACTED_ENV
from autograder.suite.judged import (
    assignment_of,
    forgive,
    fully_passed_names,
    part_of,
)
from autograder.suite.plugin import (
    CODE_RAN_KEY,
    ENVIRONMENT_KEY,
    WARNINGS_KEY,
    WORKERS_KEY,
    close_workers,
)
from autograder.suite.student import (
    CALL_TIMEOUT,
    LOAD_CPU,
    LOAD_TIMEOUT,
    MAX_TIMEOUTS,
    GradingStopped,
    Student,
    worker_cpu,
)

# PYTHONHASHSEED of every part's own worker; ``spawn`` starts workers with the others
# the assignment lists (``EXTRA_WORKERS``), started with the rest.
HASH_SEED = 1


# Grades must be reproducible: the same submission always meets the same examples.
settings.register_profile(
    "grading",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=20,
    print_blob=False,
    # No "explain" phase: it reruns a failing test many times to annotate the report,
    # which the students never see.
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
settings.load_profile("grading")


def _stop_session(config: pytest.Config, detail: str) -> None:
    """The sandbox does not start here: no test result of this run means anything."""
    config.stash[ENVIRONMENT_KEY] = detail  # the results JSON carries it to ``grade_file``
    pytest.exit(detail, returncode=ENVIRONMENT_EXIT)


def _open_worker(config: pytest.Config, code: StudentCode, part: int, hash_seed: int) -> Worker:
    """A worker that is confined and ready for the code (not loaded yet).

    A worker that fails before it is ready is the sandbox's failure, unless the
    submission's code, running in this session's other workers, is what stopped it
    (a signal, a memory hog). So once any code has run, every worker is taken down and
    the start tried once more; only a second failure, with none of the submission
    running, stops the session as an environment error.
    """
    for attempt in (1, 2):
        try:
            worker = Worker(assignment_of(config), code, part, timeout=LOAD_TIMEOUT,
                            hash_seed=hash_seed, load=False)
        except WorkerFailure as exc:
            if attempt == 2 or not config.stash.get(CODE_RAN_KEY, False):
                _stop_session(config, exc.detail)
            close_workers(config)
            continue
        config.stash[WORKERS_KEY].append(worker)
        return worker
    raise AssertionError("unreachable")  # the second failure stopped the session


def _load_failure(exc: WorkerFailure, watch: Asleep, cpu: CpuBudget) -> str:
    if exc.kind == "timeout":
        if watch.asleep:
            return f"loading your code stopped: {watch.failure('it')}"
        if cpu.spent:
            return (f"loading your code stopped: it used over {LOAD_CPU:g} s of CPU time "
                    "(a loop in a class body, or a constant that is costly to compute)")
        return f"loading your code timed out after {LOAD_TIMEOUT:g} s"
    if exc.kind == "crash":
        return f"your code crashed the worker while it was loaded ({exc.detail})"
    return f"your code could not be loaded ({exc.detail})"


class PartState:
    """Everything the session knows about one part: its worker, its timeouts, its time."""

    def __init__(self, part: int, code: StudentCode, config: pytest.Config) -> None:
        self.part, self.code, self.config = part, code, config
        self.worker: Worker | None = None
        self.cache: dict = {}  # what the tests looked up in ``worker`` (handles stay valid)
        self.spares: dict[int, Worker] = {}  # started ahead, by hash seed, for ``spawn``
        self.spare_failures: dict[int, str] = {}  # why a spare could not start
        self.timeouts = 0
        self.hung: set[str] = set()  # the functions and methods that timed out
        self.seconds = 0.0
        self.broken: str | None = None  # why no further test of this part runs

    def new_worker(self, hash_seed: int = HASH_SEED, main: bool = True,
                   opened: Worker | None = None, wall: float = LOAD_TIMEOUT) -> Worker:
        """A worker loaded within ``wall`` seconds (``opened``, or a new one); if it cannot
        load, ``GradingStopped`` (and, for the part's own worker, the part is broken: loading
        again would fail again)."""
        if self.broken is not None:
            if opened is not None:
                opened.close()
            raise GradingStopped(self.broken)
        worker = opened or _open_worker(self.config, self.code, self.part, hash_seed)
        self.config.stash[CODE_RAN_KEY] = True
        # A load that loops is stopped at ``LOAD_CPU``, one that sleeps in a second
        # (``asleep.py``), any other at ``wall``.
        cpu = CpuBudget(LOAD_CPU, lambda: worker_cpu(worker))
        watch = Asleep(worker, cpu)
        worker.timeout, worker.patience, worker.cap = FIRST_LOOK, watch, wall
        try:
            worker.load()
        except WorkerFailure as exc:
            message = _load_failure(exc, watch, cpu)
            if main:
                self.broken = message
            raise GradingStopped(message) from None
        finally:
            worker.patience, worker.cap = None, None
        worker.timeout = CALL_TIMEOUT
        # A worker loaded after tests began may have seen hidden inputs (plugin.py).
        fresh = opened is not None
        self.config.stash[WARNINGS_KEY].extend(
            worker.load_errors if fresh else map(load_error, worker.load_errors))
        return worker

    def prestart(self, hash_seed: int, opened: Worker, wall: float) -> None:
        """Load ``opened`` with ``hash_seed``'s worker now, within ``wall`` seconds, for
        ``spawn`` to hand out later."""
        try:
            self.spares[hash_seed] = self.new_worker(hash_seed, main=False, opened=opened,
                                                     wall=wall)
        except GradingStopped as exc:
            self.spare_failures[hash_seed] = exc.student_message

    def main_worker(self, opened: Worker | None = None) -> Worker:
        if self.worker is None or not self.worker.alive:
            if self.worker is not None:
                self.worker.close()
            self.worker, self.cache = None, {}
            self.worker = self.new_worker(opened=opened)
        return self.worker

    def timed_out(self) -> None:
        self.timeouts += 1
        if self.timeouts >= MAX_TIMEOUTS and self.broken is None:
            self.broken = (
                f"not run: your Part {self.part} code timed out {self.timeouts} times "
                "in earlier tests"
            )

    def close(self) -> None:
        for worker in [self.worker, *self.spares.values()]:
            if worker is not None:
                worker.close()


@pytest.fixture(scope="session")
def code(pytestconfig: pytest.Config) -> StudentCode:
    path = pytestconfig.getoption("--submission")
    if not path:
        raise pytest.UsageError("the hidden suite needs --submission=PATH")
    extracted = os.environ.get(EXTRACTED_ENV)
    if extracted:  # run.py extracted it already, under limits
        code = from_json(Path(extracted).read_text(encoding="utf-8"))
    else:
        code = extract_limited(Path(path))
    # Names fixed before any input exists: the spec's and the submission's own.
    STATIC_NAMES.update(code.defined() | set(assignment_of(pytestconfig).part_of))
    PENDING_SOURCES[:] = [st.source for st in code.statements]  # read at a NameError
    return code


def _quietly(start, *args) -> None:
    with contextlib.suppress(GradingStopped):  # the part's state remembers why
        start(*args)


@pytest.fixture(scope="session")
def parts(code: StudentCode, pytestconfig: pytest.Config):
    """Every part's state; all the workers the session needs are started at once.

    Starting a worker is mostly waiting (process creation, the interpreter, the load
    message), so starting them side by side saves most of a second, and a submission
    that hangs while loading costs one load limit instead of one per part. A part's spares
    load once its own worker has loaded: a load that loops then runs in one worker, not
    three.
    """
    assignment = assignment_of(pytestconfig)
    parts = assignment.grading_order
    # The sandbox gives each worker an equal share of the submission's memory, on the
    # promise that no more than ``WORKERS_AT_ONCE`` run at a time: a worker is replaced
    # only once the one it replaces is closed, and a spawned one takes a spare's place.
    wanted = [(part, HASH_SEED) for part in parts]
    wanted += [(part, seed) for part, seeds in assignment.extra_workers.items() for seed in seeds]
    if len(wanted) > limits.WORKERS_AT_ONCE:
        raise pytest.UsageError(f"{assignment.name} needs {len(wanted)} workers at once; "
                                f"the memory budget is shared among {limits.WORKERS_AT_ONCE}")
    states = {part: PartState(part, code, pytestconfig) for part in parts}
    if limits.isolation()[0] == "basic":  # probed once, before the threads need it
        cleanup.adopt_orphans()  # workers' escaped children stay ours, killed at close
    with ThreadPoolExecutor(max_workers=8) as pool:
        # Every worker confined and ready before any of the submission's code runs, so
        # that a worker that cannot start is surely the sandbox's failure.
        opened = dict(zip(wanted, pool.map(
            lambda job: _open_worker(pytestconfig, code, *job), wanted)))

        def load_part(part: int) -> list:
            """The part's own worker loaded, then its spares side by side, within one
            ``LOAD_TIMEOUT`` for them all (a load just under it is not paid twice); a load
            that fails fails theirs too (loading is deterministic), so they are closed
            unloaded instead of looping as long (``PartState.new_worker``)."""
            started = time.monotonic()
            _quietly(states[part].main_worker, opened[part, HASH_SEED])
            left = max(0.0, LOAD_TIMEOUT - (time.monotonic() - started))
            return [pool.submit(states[part].prestart, seed, opened[part, seed], left)
                    for seed in assignment.extra_workers.get(part, ())]

        for job in [pool.submit(load_part, part) for part in parts]:
            for spare in job.result():
                spare.result()
    yield states
    for state in states.values():
        state.close()


def _trusting(config: pytest.Config, part: int, worker: Worker) -> Worker:
    """``worker``, told to run the student's own functions of the parts that have passed
    every test so far (``fully_passed_names``) instead of their stand-ins."""
    new = fully_passed_names(config, part) - worker.trusted_names
    if new:
        worker.trusted_names |= new
        with contextlib.suppress(WorkerFailure):  # the test's own first call will tell
            worker.trust(sorted(new))
    return worker


@pytest.fixture(scope="session")
def recording() -> Iterator[Recording]:
    """Where ``make call-costs`` collects each test's most costly request (else unused)."""
    kept = Recording()
    yield kept
    kept.write()


def _meter(item: pytest.Item, recording: Recording) -> Meter:
    """The CPU budget of ``item``'s requests, by its test id (the id the results carry)."""
    test_id = f"part{part_of(item)}::{item.name}"
    seconds = budget(assignment_of(item.config).folder, test_id, CALL_TIMEOUT)
    return Meter(test_id, seconds, recording if recording.folder is not None else None)


@pytest.fixture
def student(request: pytest.FixtureRequest, parts: dict[int, PartState],
            recording: Recording) -> Student:
    """The worker that holds this module's part of the submission."""
    state = parts[part_of(request.node)]
    worker = _trusting(state.config, state.part, state.main_worker())
    return Student(state, worker, time.monotonic(), state.cache, _meter(request.node, recording))


class Spawner:
    """``spawn(hash_seed)``: an extra worker of the test's part; ``spawn.forgive()``:
    whether this timing test may forgive a deviation already charged (``judged.forgive``,
    which ``remote.Own`` asks)."""

    def __init__(self, item: pytest.Item, state: PartState, meter: Meter) -> None:
        self.item, self.state, self.meter = item, state, meter
        self.started = time.monotonic()
        self.made: list[Worker] = []

    def __call__(self, hash_seed: int) -> Student:
        state = self.state
        if hash_seed in state.spare_failures:
            raise GradingStopped(state.spare_failures[hash_seed])
        worker = state.spares.pop(hash_seed, None)
        if worker is None or not worker.alive:
            if worker is not None:
                worker.close()  # with whatever it left running
            worker = state.new_worker(hash_seed, main=False)
        self.made.append(_trusting(state.config, state.part, worker))
        return Student(state, worker, self.started, {}, self.meter)

    def forgive(self) -> str | None:
        return forgive(self.item)


@pytest.fixture
def spawn(request: pytest.FixtureRequest, parts: dict[int, PartState], recording: Recording):
    """A ``Spawner`` for the test; its workers are closed after it."""
    spawner = Spawner(request.node, parts[part_of(request.node)], _meter(request.node, recording))
    yield spawner
    for worker in spawner.made:
        worker.close()
