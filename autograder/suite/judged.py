"""What each hidden test judges, and how the student's names have fared so far.

A test judges the names of its ``grades`` marker, else every name its part grades
(``judged_in``: the part's spec names, and ``Class.method`` for a method it grades of
another part's class). The plugin counts, per judged name, the tests collected and
passed (``OUTCOMES_KEY``), and keeps the failed tests that are not timing tests, with the
names they judge and their points (``CHARGED_KEY``; a timing test's failure charges time,
no deviation of output, ``is_timing``). Two decisions read them:

- ``fully_passed_names``: which other parts' names run as the student wrote them;
- ``forgive``: whether a timing test may forgive a timed output that differs from the
  reference (``remote.Own``), and with it spend the points already charged.

It also says which part a test belongs to (``part_of``) and which assignment the session
grades (``assignment_of``). Of the suite it imports only ``timers`` (plain ``ast``): the
plugin and the fixtures both read it.
"""

import re
from pathlib import Path

import pytest

from autograder.assignment import Assignment
from autograder.suite.timers import is_timing_test

# The assignment being graded (``--assignment``), set by the plugin.
ASSIGNMENT_KEY = pytest.StashKey[Assignment]()
# Per judged name: how many of the tests that judge it were collected, and how many have
# passed so far.
OUTCOMES_KEY = pytest.StashKey[dict]()
# Per test node id, ``(names it judges, points)``: the tests that are not timing tests and
# failed (or were not run), and the timing tests that forgave a deviation (``forgive``).
CHARGED_KEY = pytest.StashKey[dict]()
FORGIVEN_KEY = pytest.StashKey[dict]()


def points_of(item: pytest.Item) -> float:
    """The points of a test (its one ``points(n)`` marker, a positive number)."""
    marks = list(item.iter_markers("points"))
    if len(marks) != 1 or len(marks[0].args) != 1:
        raise pytest.UsageError(f"{item.nodeid}: needs exactly one @pytest.mark.points(n)")
    value = marks[0].args[0]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise pytest.UsageError(f"{item.nodeid}: points must be a positive number")
    return float(value)


def assignment_of(config: pytest.Config) -> Assignment:
    """The assignment this session grades."""
    return config.stash[ASSIGNMENT_KEY]


def part_of(item: pytest.Item) -> int:
    """The part a test belongs to: the module's ``PART``, else ``test_partN`` in its name."""
    module = getattr(item, "module", None)
    part = getattr(module, "PART", None)
    if part is None:
        match = re.search(r"test_part(\d+)", Path(str(item.fspath)).name)
        part = int(match.group(1)) if match else None
    if part not in assignment_of(item.config).points:
        raise pytest.UsageError(f"{item.nodeid}: cannot tell which part it belongs to")
    return part


def fully_passed_names(config: pytest.Config, part: int) -> set[str]:
    """Spec names of the other parts that have passed every test that judges them so far:
    they may run as the student wrote them when ``part`` is graded (stand-ins cost a round
    trip to the scoring process per call: 15,000 for one training that calls a helper which
    is right, of a part whose other helper is wrong; a name that is right needs none).
    A test judges the names of its ``grades`` marker, else every name of its part, so a
    part whose tests say nothing trusts a name only once the whole part has passed.

    Trusting a class brings back all of the student's members, those another part grades
    (``METHOD_PART``) included, so a class is trusted only once every such part has
    passed too: else the student's own constructor could call their wrong method of that
    part, and its bug would cost ``part`` as well."""
    outcomes = config.stash.get(OUTCOMES_KEY, {})
    a = assignment_of(config)
    passed = {name for name, o in outcomes.items() if 0 < o["total"] == o["passed"]}

    def whole(other: int) -> bool:
        return other == part or set(judged_in(a, other)) <= passed

    return {name for name in passed if name in a.part_of and a.part_of[name] != part and all(
        whole(p) for (cls, _), p in a.method_part.items() if cls == name)}


def is_timing(item: pytest.Item) -> bool:
    """Whether ``item`` measures time (``timers.timing_tests``: it reaches ``remote.growth``)."""
    return is_timing_test(assignment_of(item.config), f"part{part_of(item)}::{item.name}")


def forgive(item: pytest.Item) -> str | None:
    """May timing test ``item`` forgive a timed output that differs from the reference
    (``remote.Own``)? ``None`` if so (and from then on, for this test); else why not.

    Only a deviation already charged is forgiven, and only up to what it was charged: the
    points of the failed tests that judge a name ``item`` judges and are not timing tests,
    less the points of the timing tests that forgave one before. Forgiving spends ``item``'s
    points. So a mistake costs once, never twice, and skipping work never pays:
    - code that passes every correctness test and still answers differently when timed is
      not showing a charged mistake, it skips work where it is measured;
    - code that fails a cheap test on purpose, to have its skipped work forgiven, gets
      back at most the points it gave (``tests/security/test_opened_gate.py``);
    - a failed timing test charged time, not a deviation, so it opens nothing: else a
      quadratic ``encode``, failing its timing test honestly, let the ``decode`` timed
      after it skip its work.
    """
    stash = item.config.stash
    forgiven = stash.setdefault(FORGIVEN_KEY, {})
    if item.nodeid in forgiven:
        return None
    names, points = set(judged_names(item)), points_of(item)

    def near(tests: dict) -> float:
        return sum(p for test, (judged, p) in tests.items()
                   if judged & names and test != item.nodeid)

    charged, spent = near(stash.get(CHARGED_KEY, {})), near(forgiven)
    if charged <= 0:
        return "all passed"
    if charged - spent < points:
        return (f"took {charged:g} point{'s' * (charged != 1)} from it ({spent:g} already "
                f"forgiven to earlier timing tests), fewer than this test's {points:g}; a "
                "deviation is forgiven for no more points than it was charged")
    forgiven[item.nodeid] = (names, points)
    return None


def judged_in(a: Assignment, part: int) -> tuple[str, ...]:
    """What the tests of ``part`` may judge: its spec names, and ``"Class.method"`` for each
    method it grades of another part's class (``METHOD_PART``). A test of such a method
    that names only it leaves the part's functions trusted when it fails, so the parts
    graded later still run the student's own functions of this part."""
    methods = tuple(f"{cls}.{method}" for (cls, method), p in a.method_part.items() if p == part)
    return (*(name for name, p in a.part_of.items() if p == part), *methods)


def judged_names(item: pytest.Item) -> tuple[str, ...]:
    """What ``item`` judges (``judged_in``): its ``grades`` marker's, else all of its part's."""
    part = part_of(item)
    own = judged_in(assignment_of(item.config), part)
    marks = list(item.iter_markers("grades"))
    if not marks:
        return own
    names = tuple(name for mark in marks for name in mark.args)
    if not names or not set(names) <= set(own):
        raise pytest.UsageError(f"{item.nodeid}: grades() takes spec names of Part {part} "
                                "or the methods it grades (Class.method)")
    return names
