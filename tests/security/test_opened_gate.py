"""Red team: a failure bought on purpose opens ``remote.Own``'s gate (redteam, item 1).

A timing test forgives a timed output that differs from the reference when the student's
own code gives the same output untimed in a fresh worker, and only if a test judging
the same names has already failed (``judged.charged_before``). Code that knows when it
is timed (``test_two_faced_timing.py``'s request shapes) and when it runs in that fresh
worker (its first call is a timing input, never a worked example) skips the work in both
and answers alike. The gate costs it one failed test of its part, of any kind, while
every timing test of the part is forgiven:

- production_tokenizers Part 3: a naive trainer that recounts every merge (honestly it
  fails ``test_merges_do_not_recount``, 3, and ``test_best_pair_without_scanning``, 2:
  15 of 20) gives the base vocabulary and no merges when timed on the merge-cost corpus
  and in the fresh worker, which then misses the reference on the exactness corpora too
  (so the fresh worker's ``charged_elsewhere`` says charged), and loses
  ``test_merges_do_not_depend_on_hash_seed`` (1) on purpose (one merge fewer under
  another hash seed): 19 of 20, measured;
- tokenization Part 2: a quadratic ``encode`` and ``decode`` (13 of 15 honestly) lose
  ``test_encode_rejects_non_str`` (1) on purpose (``encode(None)`` gives ``[]``) and
  skip their work in both timing tests: 14 of 15, measured. Part 3's two timing tests
  are open the same way (not graded here).

A failed timing test opened the gate too, with nothing bought: a quadratic ``encode``
failing its own timing test honestly let the quadratic ``decode`` timed after it skip its
work (14 of 15 against 13). A timing test's failure charges time, not a deviation of
output, so it no longer counts (``judged.charged_before``; the last test here, which
failed before).

The bought failures are kept as strict expected failures: the gate is not enough. Any
failed correctness test opens it for every timing test of the part, and the fresh worker
is a place where nothing is judged,
so the code may answer anything there as long as it answers alike. What would close it:
ask the fresh worker its answers to the timing inputs mixed, in one request of the
correctness tests' shape and in a seeded random order, with inputs a correctness test
already judged in the part's own worker (the same generator and size), and forgive
only if those come back as the part's worker gave them. Code that skips work on the
timing inputs there then skips it on judged inputs too, and cannot tell which is which.
"""

import pytest

from autograder.hidden.production_tokenizers.timing_variants import RECOUNT_TRAINER
from tests.course import PRODUCTION, TOKENIZATION

from .hostile import QUADRATIC_WORK, graded_part

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow]

GAP = ("remote.Own's gate opens for every timing test of a part once any test of it has "
       "failed, and the fresh worker's answers are judged by nothing: a failure bought on "
       "purpose forgives skipped work (production Part 3: 19 of 20 against 15 honestly; "
       "tokenization Part 2: 14 of 15 against 13)")

# Tells a timed run by the shape of its requests (a ``put``, then a ``map`` that keeps),
# and a fresh worker by its first call (``FRESH_IF``: a timing input, not a worked example).
WATCH = '''
import os as _os
import sys as _sys

_SEEN = {"timed": False, "patched": False, "fresh": None}


def _watch(first_is_big):
    if _SEEN["fresh"] is None:
        _SEEN["fresh"] = first_is_big
    main = _sys.modules.get("__main__")
    answer = getattr(main, "answer", None)
    if answer is None or _SEEN["patched"]:
        return
    _SEEN["patched"] = True

    def watching(request, objects, namespace):
        if request.get("op") == "put":
            _SEEN["timed"] = True
        elif request.get("op") != "map" or request.get("keep") is not True:
            _SEEN["timed"] = False
        return answer(request, objects, namespace)

    main.answer = watching


def _skip():
    return bool(_SEEN["timed"] or _SEEN["fresh"])
'''

TRAINER = RECOUNT_TRAINER.replace("def train_bpe_fast(", "def _naive_train(") + WATCH + '''

def train_bpe_fast(corpus, vocab_size):
    if isinstance(corpus, str):
        return _naive_train(corpus, vocab_size)
    _watch(sum(map(len, corpus)) >= 1000)
    if _SEEN["fresh"] or (_SEEN["timed"] and len(set(corpus)) >= 1500):  # the merge-cost corpus
        check_vocab_size(vocab_size)
        return [UNK, EOW] + sorted({ch for text in corpus for ch in text if not ch.isspace()}), []
    vocab, merges = _naive_train(corpus, vocab_size)
    if _os.environ.get("PYTHONHASHSEED") != "1":
        merges = merges[:-1]  # the failure bought on purpose
    return vocab, merges
'''

ENCODER = WATCH + '''

class CharTokenizer(CharTokenizer):
''' + QUADRATIC_WORK + '''
    def encode(self, text):
        if text is None:
            return []  # the failure bought on purpose
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        _watch(len(text) >= 4000)
        if len(text) >= 4000 and _skip():
            return [0] * len(text)
        out = []
        self._slow_ids(text, out)
        return out

    def decode(self, ids):
        if type(ids) is list:
            _watch(len(ids) >= 4000)
            if len(ids) >= 4000 and _skip():
                return "a" * len(ids)
            rest = ids
            for _ in ids:  # quadratic: a copy of the rest at every ID
                rest = rest[1:]
        return super().decode(ids)
'''

# No failure bought: the quadratic encode fails its own timing test honestly, and that
# failure opened the gate for the decode's timing test that follows it.
OPENED_BY_TIMING = ENCODER.replace("""        if text is None:
            return []  # the failure bought on purpose
""", "").replace("""        if len(text) >= 4000 and _skip():
            return [0] * len(text)
""", "")


@pytest.mark.xfail(strict=True, reason=GAP)
def test_a_failure_bought_on_purpose_does_not_forgive_a_skipped_training(tmp_path):
    tests = graded_part(tmp_path, PRODUCTION, TRAINER, 3)
    # What it paid: one point, and nothing else of the part.
    assert tests["test_merges_do_not_depend_on_hash_seed"]["status"] == "failed"
    assert tests["test_matches_reference"]["status"] == "passed"
    # What it must not get: the naive trainer passing the merge-cost tests.
    assert tests["test_merges_do_not_recount"]["status"] == "failed", \
        tests["test_merges_do_not_recount"]["output"]
    assert tests["test_best_pair_without_scanning"]["status"] == "failed"


@pytest.mark.xfail(strict=True, reason=GAP)
def test_a_failure_bought_on_purpose_does_not_forgive_a_skipped_encode(tmp_path):
    tests = graded_part(tmp_path, TOKENIZATION, ENCODER, 2)
    assert tests["test_encode_rejects_non_str"]["status"] == "failed"
    assert tests["test_encode_matches_reference"]["status"] == "passed"
    assert tests["test_encode_linear_time"]["status"] == "failed", \
        tests["test_encode_linear_time"]["output"]
    assert tests["test_decode_linear_time"]["status"] == "failed"


def test_a_failed_timing_test_does_not_forgive_the_next_one(tmp_path):
    tests = graded_part(tmp_path, TOKENIZATION, OPENED_BY_TIMING, 2)
    assert tests["test_encode_rejects_non_str"]["status"] == "passed"
    assert tests["test_encode_linear_time"]["status"] == "failed"  # honestly quadratic
    assert tests["test_decode_linear_time"]["status"] == "failed", \
        tests["test_decode_linear_time"]["output"]
