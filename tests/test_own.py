"""``remote.Own``: a timing test's untimed answers, and the gate in front of them.

A timed output that differs from the reference passes only if the deviation is already
charged (``spawn.forgive()``). A run in the ratio's numerator must also match the
student's own answers, worked out in a fresh worker; a baseline run needs the gate only
(``Own.gate``, which starts no worker): work it skipped makes the ratio larger.
The spawn here is a stand-in that records what it was asked; the real one is graded in
``tests/security/test_opened_gate.py``.
"""

import pytest

from autograder.sandbox import StudentError
from autograder.suite.remote import Own


class Spawn:
    """Records each worker asked for; ``why_not`` is what ``forgive`` answers."""

    def __init__(self, why_not: str | None) -> None:
        self.why_not, self.seeds = why_not, []

    def __call__(self, hash_seed: int) -> str:
        self.seeds.append(hash_seed)
        return f"worker {hash_seed}"

    def forgive(self) -> str | None:
        return self.why_not


def test_a_baseline_deviation_passes_the_gate_without_a_worker():
    spawn = Spawn(why_not=None)
    Own(spawn, 7, "the encode tests").gate()
    assert spawn.seeds == []


def test_the_gate_fails_a_deviation_not_charged():
    spawn = Spawn(why_not="all passed")
    with pytest.raises(AssertionError, match="while the encode tests all passed"):
        Own(spawn, 7, "the encode tests").gate()
    assert spawn.seeds == []


def test_untimed_answers_come_from_one_fresh_worker_of_the_seed():
    spawn, seen = Spawn(why_not=None), []
    own = Own(spawn, 7, "the encode tests")
    assert own(lambda worker: seen.append(worker) or 1) == 1
    assert own(lambda worker: seen.append(worker) or 2) == 2
    assert spawn.seeds == [7] and seen == ["worker 7", "worker 7"]


def test_no_worker_is_started_behind_a_closed_gate():
    spawn = Spawn(why_not="all passed")
    with pytest.raises(AssertionError):
        Own(spawn, 7, "the encode tests")(lambda worker: 1)
    assert spawn.seeds == []


def test_code_that_raises_untimed_says_where_it_is_charged():
    def work(worker):
        raise StudentError("ValueError", ["ValueError", "Exception"], "no")

    with pytest.raises(AssertionError, match="already charged by the encode tests"):
        Own(Spawn(why_not=None), 7, "the encode tests")(work)
