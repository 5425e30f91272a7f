"""Red team: work done on the timing inputs while they arrive, in production_tokenizers
(review; the first review's attack on tokenization, tried again where it was not fixed).

A timed run's inputs are sent (``put``) and kept in the worker; code that has patched
the worker's protocol code (``Objects.keep``) can work on them in that request. The
tokenization timing tests send them inside the clock since the first review; Part 1 of
production_tokenizers sent them before it, so a quadratic ``encode_ordinary`` (a copy of
the IDs per piece; without the trick it measures about 5x, over the fail line of 4) that
encodes every text as it arrives and looks the answer up when called passed its timing
test (100 against 99). Part 3's trainings sent their corpora the same way.

The submission is the reference with one override (a later cell), graded through
``grade_file`` as the CLI does.
"""

import pytest

from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import PRODUCTION

# The timing red team is slow (`make test-all`), like its tokenization siblings: a
# production grading whose quadratic encode is timed (about 13 s).
pytestmark = [pytest.mark.timeout(600), pytest.mark.slow, pytest.mark.alone]

PRECOMPUTE = '''
import sys as _sys


class ByteLevelBPE(ByteLevelBPE):
    MADE, DONE = [], {}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        ByteLevelBPE.MADE.append(self)

    def _slow(self, text):
        self._ready()
        ids = []
        for piece in gpt2_pretokenize(text):
            if piece not in self._cache:
                self._cache[piece] = self._encode_piece(piece)
            ids = ids + self._cache[piece]  # quadratic: a copy per piece
        return ids

    def encode_ordinary(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        done = ByteLevelBPE.DONE.pop((id(self), text), None)
        return done if done is not None else self._slow(text)


def _patch_keep():
    objects = _sys.modules["__main__"].Objects
    keep = objects.keep

    def keep_and_work(self, value):
        if type(value) is list and value and all(type(v) is str for v in value):
            for tok in reversed(ByteLevelBPE.MADE):
                try:
                    done = {(id(tok), text): tok._slow(text) for text in value}
                except Exception:
                    continue
                ByteLevelBPE.DONE.update(done)
        return keep(self, value)

    objects.keep = keep_and_work
    return 1


class _Start:
    PATCHED = _patch_keep()
'''


def test_work_done_while_the_texts_arrive_counts_in_the_timing(tmp_path):
    path = tmp_path / "student.py"
    path.write_text(reference_source(PRODUCTION) + "\n" + PRECOMPUTE, encoding="utf-8")
    result = grade_file(path, "early", assignment=PRODUCTION, timeout=300)
    assert result["status"] == "graded", result["error"]
    tests = {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == 1}
    assert tests["test_encode_linear_time"]["status"] == "failed", \
        tests["test_encode_linear_time"]["output"]
    assert {t["status"] for name, t in tests.items()
            if name != "test_encode_linear_time"} == {"passed"}  # the answers are right
