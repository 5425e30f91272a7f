"""Red team: a failure bought on purpose to open ``remote.Own``'s gate (redteam, item 1).

A timing test forgives a timed output that differs from the reference only for a
deviation that a correctness test judging the same names has already charged, and, for a
run in the ratio's numerator, only when the student's own code gives the same output
untimed in a fresh worker. Code that knows when it is
timed (``test_two_faced_timing.py``'s request shapes) and when it runs in that fresh worker
(its first call is a timing input, never a worked example) skips the work in both and
answers alike; nothing judges the fresh worker's answers. When any failed correctness test
opened the gate for every timing test of the part, one point bought that:

- production_tokenizers Part 3: a naive trainer that recounts every merge (honestly it
  fails ``test_merges_do_not_recount``, 3, and ``test_best_pair_without_scanning``, 2:
  15 of 20) gives the base vocabulary and no merges when timed on the merge-cost corpus
  and in the fresh worker, and loses ``test_merges_do_not_depend_on_hash_seed`` (1) on
  purpose (one merge fewer under another hash seed): 19 of 20, measured;
- tokenization Part 2: a quadratic ``encode`` and ``decode`` (13 of 15 honestly) lose
  ``test_encode_rejects_non_str`` (1) on purpose and skip their work in both timing
  tests: 14 of 15, measured.

Now a deviation is forgiven for no more points than it was charged (``judged.forgive``):
the points of the failed correctness tests of the same names, less what earlier timing
tests forgave. Skipping work then never pays: the trainer gets 14 (its one point buys
nothing worth 3 or 2) and the encoder 13 (its one point buys one timing test, and the
other fails). The tests below grade each cheat beside the same code without the trick
and check it earns no more.

A failed timing test opened the gate too, with nothing bought: a quadratic ``encode``
failing its own timing test honestly let the quadratic ``decode`` timed after it skip its
work (14 of 15 against 13). A timing test's failure charges time, not a deviation of
output, so it counts for nothing.

Only a run in the ratio's numerator is compared with the student's untimed answers; a
baseline run's deviation passes the gate alone (``remote.Own.gate``), which saves the
fresh worker's work. Junk in a baseline run, with the gate opened, only makes the ratio
larger: the last test grades a quadratic encode that answers the batch with junk when
timed, and it still fails its timing test. (A linear encode with the same trick measured
6.1x in one review run and passed in another: the batch's cost is then mostly the sending
of its texts. Either way it earns no more than without the trick, so only the quadratic
case, whose outcome does not depend on the machine, is asserted.)
"""

import pytest

from autograder.hidden.production_tokenizers.timing_variants import RECOUNT_TRAINER
from tests.course import PRODUCTION, TOKENIZATION

from .hostile import QUADRATIC_WORK, graded_part

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow, pytest.mark.alone]

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


# The same quadratic code with no trick at all: what the part is worth honestly.
HONEST_ENCODER = OPENED_BY_TIMING.replace("""            if len(ids) >= 4000 and _skip():
                return "a" * len(ids)
""", "")


# ``ENCODER``'s encode (no decode) that answers only the timing test's batch (pieces of
# 4,000 characters), its baseline, with junk when timed, after the failure bought on
# purpose opened the gate. A baseline's deviation
# passes the gate alone (``remote.Own.gate``: no untimed answers are worked out), and
# skipping its work only makes the ratio larger: the encode still fails its timing test.
BASELINE_JUNK = ENCODER.split("\n    def decode(")[0].replace(
    """        _watch(len(text) >= 4000)
        if len(text) >= 4000 and _skip():""",
    """        _watch(False)  # never the fresh worker: only the timed batch gets junk
        if len(text) == 4000 and _SEEN["timed"]:""")

# The same quadratic encode without the trick.
HONEST_BASELINE = BASELINE_JUNK.replace("""        if len(text) == 4000 and _SEEN["timed"]:
            return [0] * len(text)
""", "")


def earns_no_more(tmp_path, assignment, part: int, cheat: str, honest: str, bought: str,
                  kept: str) -> dict[str, dict]:
    """Grade ``cheat`` (which fails ``bought`` on purpose and still passes ``kept``) and
    ``honest`` (the same code without the trick); the cheat's part earns no more. The
    cheat's results of the part, by test name."""
    tricked = graded_part(tmp_path, assignment, cheat, part)
    assert tricked[bought]["status"] == "failed" and tricked[kept]["status"] == "passed"
    plain = graded_part(tmp_path, assignment, honest, part)
    assert sum(t["score"] for t in tricked.values()) <= sum(t["score"] for t in plain.values()), \
        {name: t["output"][:200] for name, t in tricked.items() if t["status"] == "failed"}
    return tricked


def test_a_failure_bought_on_purpose_does_not_pay_for_a_skipped_training(tmp_path):
    earns_no_more(tmp_path, PRODUCTION, 3, TRAINER, RECOUNT_TRAINER,
                  "test_merges_do_not_depend_on_hash_seed", "test_matches_reference")


def test_a_failure_bought_on_purpose_does_not_pay_for_a_skipped_encode(tmp_path):
    earns_no_more(tmp_path, TOKENIZATION, 2, ENCODER, HONEST_ENCODER,
                  "test_encode_rejects_non_str", "test_encode_matches_reference")


def test_a_failed_timing_test_does_not_forgive_the_next_one(tmp_path):
    tests = graded_part(tmp_path, TOKENIZATION, OPENED_BY_TIMING, 2)
    assert tests["test_encode_rejects_non_str"]["status"] == "passed"
    assert tests["test_encode_linear_time"]["status"] == "failed"  # honestly quadratic
    assert tests["test_decode_linear_time"]["status"] == "failed", \
        tests["test_decode_linear_time"]["output"]


def test_junk_in_the_baseline_run_fails_the_timing_test(tmp_path):
    tests = earns_no_more(tmp_path, TOKENIZATION, 2, BASELINE_JUNK, HONEST_BASELINE,
                          "test_encode_rejects_non_str", "test_encode_matches_reference")
    assert tests["test_encode_linear_time"]["status"] == "failed"
    assert "as long as 16 encode calls" in tests["test_encode_linear_time"]["output"], \
        tests["test_encode_linear_time"]["output"]
