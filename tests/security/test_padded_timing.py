"""Red team: quadratic code that makes its short inputs as slow as its long one (review).

A timing test compares one call on an input of k n with k calls on inputs of n: linear
code takes about as long either way, quadratic code k times longer. Code that pays on a
short input what the long one will cost it (the quadratic loop run k - 1 more times on
texts up to the size the feedback states, 4,000 characters) makes the batch as slow as
the single run: the ratio is about 1 and the quadratic ``encode`` passes, with no trick of
the sandbox, the clocks or the protocol. The same with the stand-ins: a trainer that
counts pairs over every word occurrence keeps the grader's ``merge_pair`` stand-in even
when Part 4 passed (a class body replaces the worker's ``StandIns.trust`` at load) and
remembers its calls; a round trip per distinct (word, pair) then pads both runs alike,
and its duplication test passed (100, where the same trainer without the trick earns 99).

Both are known gaps of ratio tests, kept here as strict expected failures: a test that
starts to pass says the gap closed. What would close them is a budget relative to the
reference's own time on the short inputs (as hanging calls have: ``suite/budget.py``), or sizes the
feedback does not state.

Each submission is the reference with one override (a later cell), graded through
``grade_file`` as the CLI does.
"""

import pytest

from autograder.hidden.tokenization.timing_variants import EVERY_OCCURRENCE_TRAINER
from tests.course import TOKENIZATION

from .hostile import QUADRATIC_WORK, graded_part

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow, pytest.mark.alone]
GAP = "a ratio test cannot see code that pads its short inputs (no budget from the reference)"


PADDED = '''
class CharTokenizer(CharTokenizer):''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        out = []
        self._slow_ids(text, out)
        if len(text) <= 4000:  # a short text pays what the long one will
            for _ in range(15):
                self._slow_ids(text, [])
        return out
'''

KEEPS_STANDINS = EVERY_OCCURRENCE_TRAINER.replace(
    "tokens = [merge_pair(word, best) for word in tokens]",
    "tokens = [_merged(word, best) for word in tokens]") + '''

_MERGED = {}


def _merged(word, best):
    key = (tuple(word), best)
    found = _MERGED.get(key)
    if found is None:
        found = _MERGED[key] = merge_pair(word, best)
    return found


class _KeepStandIns:
    import sys as _sys
    _kind = getattr(_sys.modules.get("__main__"), "StandIns", None)
    if _kind is not None:
        _kind.trust = lambda self, namespace, names: []
'''


@pytest.mark.xfail(strict=True, reason=GAP)
def test_a_quadratic_encode_that_slows_its_short_inputs_fails_its_timing_test(tmp_path):
    tests = graded_part(tmp_path, TOKENIZATION, PADDED, 2)
    assert tests["test_encode_matches_reference"]["status"] == "passed"
    assert tests["test_encode_linear_time"]["status"] == "failed", \
        tests["test_encode_linear_time"]["output"]


@pytest.mark.xfail(strict=True, reason=GAP)
def test_a_trainer_padded_by_stand_in_round_trips_fails_its_duplication_test(tmp_path):
    tests = graded_part(tmp_path, TOKENIZATION, KEEPS_STANDINS, 3)
    timing = tests["test_training_time_ignores_duplication"]
    assert timing["status"] == "failed", timing["output"]
