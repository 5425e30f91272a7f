"""BPE-dropout's statistical tests, judged: a correct implementation passes them, and each
wrong reading of BPE-dropout that the contract names fails them, both except with
probability below 1e-9.

The hidden tests (``autograder/hidden/tokens_to_vectors/test_part4.py``) call a submission
``n`` times on a word and compare the frequencies ``q`` of its segmentations with the exact
distribution ``P`` of the spec's loop (``dropout_cases.exact_distribution``); they fail it
when ``|q - P|_1 >= eps`` (``L1_THRESHOLD``). Two numbers make such a test honest:

* its *false-failure* probability: a correct implementation's ``q`` is the empirical
  distribution of ``n`` draws from ``P``, so by the Bretagnolle-Huber-Carol inequality
  ``Pr(|q - P|_1 >= eps) <= 2^k exp(-n eps^2 / 2)``, ``k`` the size of ``P``'s support;
* its *miss* probability for a wrong variant whose own distribution ``P'`` lies ``D`` from
  ``P``: it passes only if ``|q - P|_1 < eps``, which by the triangle inequality needs
  ``|q - P'|_1 > D - eps``, at most ``2^k' exp(-n (D - eps)^2 / 2)`` (``k'`` the size of
  ``P'``'s support) when ``D > eps``.

How ``P'`` is known. Every variant decides a drop by comparing one draw with ``p``, so it
can be run on a *script* of outcomes (a draw below ``p``, or one above) instead of a
generator: starting from the empty script, a run that asks for one more draw than the
script holds is run again with each outcome appended, and a run that ends adds the
probability of its script, ``p^drops (1 - p)^merges``, to its segmentation. This walks
every path of the variant's own code, so ``P'`` and ``D`` are exact: the allowance ``delta``
for an error of ``D`` in the miss bound ``2^k' exp(-n (D - delta - eps)^2 / 2)`` is zero.
The same walk over the reference reproduces ``exact_distribution``, an independent check of
both. A seeded Monte-Carlo run of each variant then checks the walk against the variant
itself: its frequencies must lie within the BHC radius ``r(k', N)`` of ``P'``, the distance
that ``N`` draws exceed with probability at most 1e-9. Were ``D`` taken from that run
instead, ``r(k', N)`` would be the allowance ``delta`` (the table shows it: 0.07 to 0.08 at
10,000 draws, which would leave "keeps drops after a merge", ``D`` = 0.28 to 0.29, with a
bound of 1e-8 to 1e-7, not below 1e-9; 200,000 draws would bring ``delta`` under 0.02;
the walk needs none). The reference itself is sampled as often as BHC needs to promise
that its frequencies come within 0.02 of ``P`` (``draws_for``), and they must.

The variants are the catalogue's entries (``tests/catalogue/tokens_to_vectors/
wrong_part4.py``), edited into the flattened reference as the catalogue grades them.

The variant that draws from the global ``random`` has the spec's distribution (its draws
are as uniform as the generator's): no statistical test can catch it, and none needs to.
The fixed-seed test does, with certainty: it compares the passed generator's state after
the call with the reference's, and the variant never touches it.

``pytest -s`` prints the table: each variant, each case, ``D`` and the bound on a miss.
"""

import importlib
import math
import random
import warnings
from collections import Counter, defaultdict
from functools import cache

import pytest

import solutions.tokens_to_vectors as ref
from autograder.assignment import load
from autograder.hidden.tokens_to_vectors.dropout_cases import (
    DISTRIBUTION_CASES,
    L1_THRESHOLD,
    exact_distribution,
    false_failure_bound,
    l1_distance,
)
from tests.catalogue.catalogue import load as run_source
from tests.catalogue.catalogue import submission_source
from tests.catalogue.tokens_to_vectors import CATALOGUE

CONFIDENCE = 1e-9  # every failure or miss the tests below allow is rarer than this
REFERENCE_TOLERANCE = 0.02  # how close the reference's sampled frequencies must come to P
VARIANT_DRAWS = 10_000  # the Monte-Carlo run that checks each variant's walk, per case

# The contract's wrong readings of BPE-dropout, each written by a catalogue entry.
VARIANTS = {
    "drops a merge type": "p4_drops_a_merge_type",
    "merges every occurrence": "p4_merges_every_occurrence",
    "stops at the first drop": "p4_stops_at_the_first_drop",
    "keeps drops after a merge": "p4_keeps_drops_after_a_merge",
    "replays the list once": "p4_replays_the_list_skipping_merges",
    "draws from global random": "p4_draws_from_the_global_random",
}
GLOBAL = "draws from global random"
CASES = {f"{word} p={p}": (word, merges, p, trials, seed)
         for word, merges, p, trials, seed in DISTRIBUTION_CASES}


def fixed_seed_cases() -> list[tuple]:
    """The hidden fixed-seed test's cases, ``(word, merges, p, seed)``. Its module is
    imported quietly: the ``points`` mark it uses is the autograder plugin's, unknown here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
        return importlib.import_module("autograder.hidden.tokens_to_vectors.test_part4").FIXED


def bhc_radius(support: int, draws: int, confidence: float = CONFIDENCE) -> float:
    """The L1 distance that the frequencies of ``draws`` samples from a distribution on
    ``support`` outcomes exceed with probability at most ``confidence`` (Bretagnolle-Huber-
    Carol, ``2^k exp(-N r^2 / 2) = confidence`` solved for ``r``)."""
    return math.sqrt(2 * (support * math.log(2) + math.log(1 / confidence)) / draws)


def draws_for(support: int, radius: float, confidence: float = CONFIDENCE) -> int:
    """The fewest draws whose frequencies stray ``radius`` (in L1) from their distribution on
    ``support`` outcomes with probability at most ``confidence``: ``bhc_radius`` inverted."""
    return math.ceil(2 * (support * math.log(2) + math.log(1 / confidence)) / radius ** 2)


def miss_bound(support: int, trials: int, distance: float) -> float:
    """At most the probability that ``trials`` samples of a distribution ``distance`` away
    from the spec's (in L1) pass a test with threshold ``L1_THRESHOLD``; 1 when the
    distance is within the threshold (no bound)."""
    if distance <= L1_THRESHOLD:
        return 1.0
    return min(1.0, 2.0 ** support * math.exp(-trials * (distance - L1_THRESHOLD) ** 2 / 2))


class Exhausted(Exception):
    """The script has no outcome left: this path needs one more draw."""


class Script:
    """A generator whose draws are scripted outcomes: ``True`` is a draw below ``p`` (a drop),
    ``False`` one at or above it. It counts what it hands out."""

    def __init__(self, outcomes: tuple[bool, ...], p: float):
        # 0.0 is below any p > 0; (1 + p) / 2 is at or above p and below 1, like a draw
        self.values = [0.0 if drop else (1 + p) / 2 for drop in outcomes]
        self.used = 0

    def random(self) -> float:
        if self.used == len(self.values):
            raise Exhausted
        self.used += 1
        return self.values[self.used - 1]


@cache
def namespace(variant: str | None) -> dict:
    """The flattened reference, with the catalogue entry of ``variant`` in it (or none)."""
    codes = [e.code for e in CATALOGUE.entries if e.name == VARIANTS.get(variant)]
    return run_source(submission_source(load("tokens_to_vectors"), *codes))


def run(ns: dict, word: str, merges: list, p: float, source) -> tuple[str, ...]:
    """One call of ``ns``'s ``bpe_dropout`` whose every draw, from the generator passed in
    or from the module ``random``, comes from ``source``."""
    module = ns["random"]
    ns["random"] = source
    try:
        return tuple(ns["bpe_dropout"](word, merges, p, source))
    finally:
        ns["random"] = module


@cache
def walked(variant: str | None, case: str) -> dict[tuple[str, ...], float]:
    """The exact distribution of ``variant``'s segmentations (the reference's for
    ``None``): every script of outcomes its code asks for, each with its probability."""
    word, merges, p, _, _ = CASES[case]
    ns = namespace(variant)
    found: dict[tuple[str, ...], float] = defaultdict(float)
    scripts: list[tuple[bool, ...]] = [()]
    while scripts:
        outcomes = scripts.pop()
        script = Script(outcomes, p)
        try:
            pieces = run(ns, word, merges, p, script)
        except Exhausted:
            scripts += [outcomes + (True,), outcomes + (False,)]
            continue
        assert script.used == len(outcomes), "a path ended before its script"
        drops = sum(outcomes)
        found[pieces] += p ** drops * (1 - p) ** (len(outcomes) - drops)
    return dict(found)


@cache
def sampled(variant: str | None, case: str, draws: int) -> Counter:
    """``draws`` calls of ``variant`` sharing one generator seeded with the case's seed; the
    global ``random`` is seeded too (and restored after), for the variant that uses it."""
    word, merges, p, _, seed = CASES[case]
    ns, rng, state = namespace(variant), random.Random(seed), random.getstate()
    random.seed(seed + 1)
    try:
        return Counter(tuple(ns["bpe_dropout"](word, merges, p, rng)) for _ in range(draws))
    finally:
        random.setstate(state)


@pytest.mark.parametrize("case", list(CASES))
def test_a_correct_implementation_fails_with_probability_below_1e9(case):
    word, merges, p, trials, _ = CASES[case]
    truth = exact_distribution(word, merges, p)
    assert abs(sum(truth.values()) - 1) < 1e-12
    assert false_failure_bound(len(truth), trials) < CONFIDENCE
    # the hidden tests' exact distribution is the reference's own, walked path by path
    walk = walked(None, case)
    assert walk.keys() == truth.keys()
    assert max(abs(walk[key] - truth[key]) for key in truth) < 1e-12
    # and the reference, sampled as often as BHC needs to promise 0.02 (121,000 and 156,000
    # draws here), lands that close
    draws = draws_for(len(truth), REFERENCE_TOLERANCE)
    distance = l1_distance(sampled(None, case, draws), truth)
    assert distance < REFERENCE_TOLERANCE, (f"{case}: {draws:,} draws of the reference lie "
                                            f"{distance:.4f} from the exact distribution")


WRONG = [name for name in VARIANTS if name != GLOBAL]


@pytest.mark.parametrize("variant", WRONG)
def test_a_wrong_variant_is_missed_with_probability_below_1e9(variant):
    for case, (word, merges, p, trials, _) in CASES.items():
        own = walked(variant, case)
        assert abs(sum(own.values()) - 1) < 1e-12, "the walk missed a path"
        # the walk is the variant's behaviour: its samples stay within BHC's radius of it
        sample = sampled(variant, case, VARIANT_DRAWS)
        assert l1_distance(sample, own) < bhc_radius(len(own), VARIANT_DRAWS)
        distance = l1_distance(own, exact_distribution(word, merges, p))
        # each distribution test alone catches it (the suite misses it only if all miss)
        bound = miss_bound(len(own), trials, distance)
        assert bound < CONFIDENCE, f"{variant} on {case}: D = {distance:.3f}, miss <= {bound}"


def test_the_global_generator_variant_is_caught_by_the_generator_state():
    for case, (word, merges, p, _, _) in CASES.items():
        # exactly the spec's distribution: the statistical tests cannot see it
        own, truth = walked(GLOBAL, case), exact_distribution(word, merges, p)
        assert own.keys() == truth.keys()
        assert max(abs(own[key] - truth[key]) for key in truth) < 1e-12
    # the fixed-seed test checks the passed generator's state: the reference draws from it
    # in these cases, the variant never does, so its state differs whatever the global one
    drawn = []
    for word, merges, p, seed in fixed_seed_cases():
        rng = random.Random(seed)
        ref.bpe_dropout(word, merges, p, rng)
        drawn.append(rng.getstate() != random.Random(seed).getstate())
    assert any(drawn), "no fixed-seed case draws: the generator's state shows nothing"
    state = random.getstate()
    try:
        for word, merges, p, seed in fixed_seed_cases():
            rng = random.Random(seed)
            namespace(GLOBAL)["bpe_dropout"](word, merges, p, rng)
            assert rng.getstate() == random.Random(seed).getstate()
    finally:
        random.setstate(state)


def test_print_the_power_table():
    """The numbers behind ``dropout_cases.py``'s claim (``pytest -s`` shows them)."""
    rows = [f"{'variant':<28}{'case':<14}{'k':>3}{'D':>8}{'miss bound':>12}"
            f"{'D (MC)':>9}{'delta':>7}"]
    for variant in VARIANTS:
        for case, (word, merges, p, trials, _) in CASES.items():
            own, truth = walked(variant, case), exact_distribution(word, merges, p)
            distance = l1_distance(own, truth)
            estimate = l1_distance(sampled(variant, case, VARIANT_DRAWS), truth)
            rows.append(f"{variant:<28}{case:<14}{len(own):>3}{distance:>8.3f}"
                        f"{miss_bound(len(own), trials, distance):>12.1e}{estimate:>9.3f}"
                        f"{bhc_radius(len(own), VARIANT_DRAWS):>7.3f}")
    print("\nthreshold", L1_THRESHOLD, "| D exact (walked); D (MC) from", VARIANT_DRAWS,
          "draws, delta its BHC radius at 1e-9\n" + "\n".join(rows))
