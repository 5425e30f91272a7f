"""Each grading of a batch keeps to cores of its own (``batch.Cores``): the CPUs are dealt
into one group per job, a grading takes the least used group, every process of a
grading, the sandboxed workers included, runs on the cores its grading was given, and
student code cannot leave them (the workers' filter refuses ``sched_setaffinity``). The
toy assignment is graded for real; its submission's ``count_words`` answers with the
CPUs its worker may run on after trying to take them all, which the test's failure
message carries out."""

import json
import os
import sys
import threading

import pytest

from autograder import batch
from autograder.collect import Submission
from autograder.sandbox import limits
from autograder.suite import run as runner
from tests.course import TOY
from tests.threads import errors_at_once

# A Part 1 that tries to run on every CPU, then tells where its worker runs (and loses
# the points for it).
WHERE = '''
SEPARATOR = " "

def count_words(text):
    import os
    try:
        os.sched_setaffinity(0, range(os.cpu_count()))
        moved = "moved"
    except OSError as exc:
        moved = type(exc).__name__
    return {"cpus": sorted(os.sched_getaffinity(0)), "moved": moved}
'''


def test_gradings_at_once_get_cores_of_their_own_and_give_them_back():
    cores = batch.Cores([[0], [1]])
    with cores.take() as first, cores.take() as second:
        assert (first, second) == ([0], [1])
        with cores.take() as third:  # more gradings than groups: shared, evenly
            assert third == [0]
            assert cores.running == {(0,): 2, (1,): 1}
    assert cores.running == {(0,): 0, (1,): 0}
    with pytest.raises(RuntimeError), cores.take():
        raise RuntimeError("a grading that fails still gives its core back")
    assert cores.running == {(0,): 0, (1,): 0}
    with cores.take() as first:  # the least used, not the next in turn
        with cores.take() as second:
            assert (first, second) == ([0], [1])
        with cores.take() as again:
            assert again == [1]


def test_the_least_used_core_is_taken_from_many_threads():
    cores = batch.Cores([[0], [1], [2], [3]])
    barrier = threading.Barrier(8, timeout=20)
    taken: list[int] = []

    def grading() -> None:
        with cores.take() as cpus:
            taken.extend(cpus)
            barrier.wait()  # all eight hold a core at once

    assert not errors_at_once(grading, 8)
    assert sorted(taken) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_the_cpus_are_dealt_one_group_per_job_when_workers_cannot_leave(monkeypatch):
    monkeypatch.setattr(limits, "can_keep_to_cpus", lambda: True)
    assert batch.Cores.for_jobs(1, [0, 1]) is None  # one at a time: every core
    assert batch.Cores.for_jobs(2, [0, 1]).running == {(0,): 0, (1,): 0}
    assert batch.Cores.for_jobs(3, [0, 1]) is None  # more jobs than cores: the scheduler's
    assert batch.Cores.for_jobs(2, range(8)).running == {(0, 2, 4, 6): 0, (1, 3, 5, 7): 0}
    assert list(batch.Cores.for_jobs(3, range(8)).running) == [(0, 3, 6), (1, 4, 7), (2, 5)]
    monkeypatch.setattr(batch.os, "sched_getaffinity", lambda pid: {4, 5})
    assert batch.Cores.for_jobs(2).running == {(4,): 0, (5,): 0}  # this process's CPUs
    monkeypatch.setattr(limits, "can_keep_to_cpus", lambda: False)
    assert batch.Cores.for_jobs(2) is None  # workers that could leave their core


def test_this_machine_can_keep_a_grading_to_a_core():
    """The probe starts a worker with the filter required; the filter installs here, so
    batches here are graded kept (and the end-to-end test below is not vacuous), except
    at the basic level, which grades one at a time."""
    level, python = limits.isolation()
    assert limits.can_keep_to_cpus() == (level != "basic")
    assert limits._works(level, python, kept=True)  # the probe itself, at basic too


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_gradings_workers_run_on_the_core_it_was_given(monkeypatch, tmp_path):
    given: dict[str, list[int] | None] = {}
    grade_file = runner.grade_file

    def noting(path, student_id, **options):
        given[student_id] = options.get("cpus")
        return grade_file(path, student_id, **options)

    monkeypatch.setattr(runner, "grade_file", noting)
    subs = []
    for name in ("ann", "ben"):
        path = tmp_path / f"{name}.py"
        path.write_text(WHERE + f"# {name}\n", encoding="utf-8")
        subs.append(Submission(name, path, f"{name}.py"))
    results = batch.grade_all(subs, TOY, jobs=2, show_hidden_inputs=True)
    one_at_a_time = limits.isolation()[0] == "basic"  # then every core, as with jobs=1
    for result in results:
        cpus = given[result["student_id"]]
        if one_at_a_time:
            assert cpus is None
            cpus = sorted(os.sched_getaffinity(0))
        else:
            assert cpus is not None and set(cpus) < os.sched_getaffinity(0)  # a share
        outputs = " ".join(t["output"] for t in result["tests"])
        # Kept to a core, it must not leave; with every core, the filter refuses it anyway
        # wherever it could be installed (a "try" at the basic level).
        refused = f"{{'cpus': {cpus}, 'moved': 'PermissionError'}}"
        assert refused in outputs or one_at_a_time and "'moved': 'moved'" in outputs, outputs


def test_a_process_kept_to_a_core_starts_workers_only_with_the_filter(monkeypatch):
    def setup() -> str:
        return json.loads(limits.setup("userns", sys.executable))["filter"]

    monkeypatch.setattr(limits, "_KEPT", [])
    assert setup() == "try"
    assert json.loads(limits.setup("userns", sys.executable, kept=True))["filter"] == "required"

    def refused(pid, cpus):
        raise OSError(22, "a CPU gone offline")

    monkeypatch.setattr(limits.os, "sched_setaffinity", refused)
    assert not limits.keep_to([7])
    assert setup() == "try"  # not kept: as before
    monkeypatch.setattr(limits.os, "sched_setaffinity", lambda pid, cpus: None)
    assert limits.keep_to([0])
    assert setup() == "required"  # a worker that could leave its core does not start
