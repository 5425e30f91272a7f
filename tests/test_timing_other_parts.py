"""A timing test of Part 3 measures the student's code whatever state Part 4 is in.

When a Part 4 function fails its own tests, Part 3 calls the grader's (a stand-in, one
round trip to the scoring process per new call; the worker remembers answers by
arguments, so a repeated call is a lookup). A trainer that walks every word occurrence
then measured 3.3x on a corpus repeated 8 times instead of about 8x, just over the fail
line of 3, and passed once in CI: in that bundle only ``build_vocab`` was wrong, but its
tests judged every Part 4 name, so ``merge_pair`` became a stand-in too. They now judge
``CharTokenizer.build_vocab`` alone (``judged.judged_in``), and Part 4's functions stay
the student's own. Graded here (``timing_variants``):

- with ``build_vocab`` wrong, the every-occurrence trainer fails the duplication test by
  far (about 8x or stopped; 3.3x before), and the reference passes every timing test;
- with ``merge_pair`` wrong, Part 3 runs on the stand-in and the reference still passes
  every timing test.

Why the memo stays on in timed runs: without it, an encoder that calls ``merge_pair``
once per word (no cache: correct, and common) pays a round trip per word, 414 us each at
load 5, so 16,000 words took 6.6 s, past a request's 5 s: a false failure under load.
A trainer over every occurrence that calls a wrong part's stand-in can still look
faster than it is; that is lenient, and documented in docs/grading.md.
"""

from pathlib import Path

import pytest

from autograder.suite.run import grade_file
from autograder.validity.timing_stability import RATIO, submission
from tests.course import TOKENIZATION

pytestmark = pytest.mark.slow  # three gradings, timing tests included


def graded_part3(tmp_path: Path, name: str) -> dict[str, dict]:
    """Grade the timing variant ``name`` (Part 4 wrong in it); its Part 3 tests by id."""
    from autograder.hidden.tokenization.timing_variants import VARIANTS

    path = tmp_path / "variant.py"
    path.write_text(submission(TOKENIZATION, VARIANTS[name][0]), encoding="utf-8")
    result = grade_file(path, "variant", assignment=TOKENIZATION)
    assert result["status"] == "graded", result["error"]
    assert result["parts"]["4"]["score"] < result["parts"]["4"]["max_score"]
    return {t["id"]: t for t in result["tests"] if t["part"] == 3}


@pytest.mark.parametrize("name", ["reference, build_vocab wrong", "reference, merge_pair wrong"])
def test_the_reference_passes_every_timing_test_with_part_4_wrong(tmp_path, name):
    tests = graded_part3(tmp_path, name)
    assert {t["status"] for t in tests.values()} == {"passed"}, tests


def test_with_build_vocab_wrong_the_every_occurrence_trainer_is_caught_by_far(tmp_path):
    tests = graded_part3(tmp_path, "trainer over every occurrence, build_vocab wrong")
    failed = {test for test, t in tests.items() if t["status"] == "failed"}
    assert failed == {"part3::test_training_time_ignores_duplication"}, tests
    # 8 times the work: about 8x, or stopped; far above the fail line of 3
    found = RATIO.search(tests["part3::test_training_time_ignores_duplication"]["output"])
    assert found and (found.group(1) or float(found.group(2)) >= 6), found
