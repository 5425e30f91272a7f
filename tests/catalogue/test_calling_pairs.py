"""The catalogue grades, for every pair of parts where one reaches the other, a bug of the
callee with every other part clean: a leak through a third part shows
only when that part passes (a Part 4 ``build_vocab`` bug cost Part 5 through the
student's own Part 2 constructor, hidden while bundles held a Part 2 bug as well)."""

import pytest

from autograder.assignment import load

from .calls import defined, reached
from .catalogue import catalogues
from .grading import plan_bundles


def test_the_pairs_come_from_the_reference_and_the_methods_other_parts_grade():
    pairs = reached(load("tokenization"))
    assert pairs[2, 4] == {"CharTokenizer.build_vocab"}  # the class holds Part 4's method
    assert "CharTokenizer" in pairs[5, 2] and "CharTokenizer.build_vocab" in pairs[5, 4]
    assert {"count_pairs", "merge_pair"} <= pairs[3, 4] and (4, 3) not in pairs
    assert pairs[4, 2] == {"CharTokenizer"}  # build_vocab uses the rest of its class


@pytest.mark.parametrize("name", sorted(catalogues()))
def test_every_calling_pair_is_graded_apart(name):
    jobs = plan_bundles(catalogues()[name])
    missing = [pair for pair, names in sorted(reached(load(name)).items()) if not any(
        job.bug_parts == {pair[1]} and any(defined(e.code) & names for e in job.entries)
        for job in jobs)]
    assert not missing, f"no bug of the callee graded alone for (caller, callee) {missing}"
