"""What feedback shows of a hidden test's failure (the policy is "What feedback shows" in
``docs/grading.md``), against a submission that tries to smuggle hidden inputs.

Shown now (hidden as "…" before): the name in a ``NameError`` when the submission's own
source uses it and binds it nowhere (a helper left in a dropped statement; one of at most
16 such names, see test_name_error_channel.py), and how far off a number is, as
a power of ten (a price 1,000 times too high). Still hidden: a name the code made from an
input (a ``NameError`` raised by hand, an exception class built at run time) and the
exact ratio of a reply to the expected value, which would give the expected value away.
"""

import re
import textwrap

import pytest

from autograder.safe import WARNING_CHARS, cap_warnings
from autograder.sandbox.reference import reference_without
from autograder.suite import evidence as evidence_module
from autograder.suite.evidence import compared, exception_detail, is_all_evidence, load_error
from autograder.suite.run import grade_file
from tests.course import PRODUCTION, TOKENIZATION

from .hostile import submission

HOSTILE = '''

def _smuggle(value):
    return "_smuggled_" + "".join(c if c.isalnum() else "_" for c in repr(value))[:60]


def analyze_tokenization(*args, **kwargs):
    return _missing_helper_in_source(*args, **kwargs)


def word_frequencies(*args, **kwargs):
    raise NameError(f"name '{_smuggle(args)}' is not defined")


def count_pairs(*args, **kwargs):
    raise type(_smuggle(args), (ValueError,), {})("boom")


def attention_speedup(*args, **kwargs):
    return _reference_attention_speedup(*args, **kwargs) * 1.2345 * 10 ** (len(repr(args)) % 4 + 1)
'''

OVERPRICED = '''

def estimate_cost(*args, **kwargs):
    return _reference_estimate_cost(*args, **kwargs) * 1000
'''


def renamed(source: str, *names: str) -> str:
    """The reference with each ``def name(`` renamed ``_reference_name``."""
    for name in names:
        source, count = re.subn(rf"^def {name}\(", f"def _reference_{name}(", source, flags=re.M)
        assert count == 1, name
    return source


def outputs(result: dict) -> dict[str, str]:
    assert result["status"] == "graded", result["error"]
    return {t["id"]: t["output"] for t in result["tests"]}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[dict[str, str], str]:
    source = renamed(reference_without(TOKENIZATION, 0)[0], "attention_speedup") + HOSTILE
    path = tmp_path_factory.mktemp("policy") / "hostile.py"
    path.write_text(source, encoding="utf-8")
    return outputs(grade_file(path, "hostile", assignment=TOKENIZATION, timeout=240)), source


@pytest.mark.slow
def test_a_missing_helper_is_named(hostile):
    found, _ = hostile
    assert any("name '_missing_helper_in_source' is not defined" in text
               for key, text in found.items() if key.startswith("part5::")), found


@pytest.mark.slow
def test_no_name_the_code_made_from_an_input_is_shown(hostile):
    found, source = hostile
    named = {n for text in found.values() for n in re.findall(r"name '(\w+)' is not defined",
                                                                text)}
    assert named and all(re.search(rf"\b{n}\b", source) for n in named), named
    assert not [k for k, text in found.items() if "_smuggled_" in text]
    part4 = [text for key, text in found.items() if key.startswith("part4::") and text != "passed"]
    assert part4 and all("…" in text for text in part4)


@pytest.mark.slow
def test_a_number_says_its_power_of_ten_not_its_ratio(hostile):
    found, _ = hostile
    speedup = found["part6::test_attention_speedup"]
    assert re.search(r"about [\d,]+ times the expected value", speedup), speedup
    assert not re.search(r"1[.,]?2345|12[.,]?345|123[.,]?45", speedup), speedup


@pytest.mark.slow
def test_a_price_a_thousand_times_too_high_says_so(tmp_path):
    source = renamed(reference_without(PRODUCTION, 0)[0], "estimate_cost") + OVERPRICED
    path = tmp_path / "overpriced.py"
    path.write_text(source, encoding="utf-8")
    found = outputs(grade_file(path, "overpriced", assignment=PRODUCTION, timeout=240))
    assert "about 1,000 times the expected value" in found["part6::test_estimate_cost"], found


def test_the_warning_that_names_a_dropped_helper_is_whole(tmp_path):
    code = submission(tmp_path, textwrap.dedent('''
        import collections
        a_rather_long_helper_table_name_for_counting = collections.Counter("abc")


        def word_frequencies(corpus):
            return a_rather_long_helper_table_name_for_counting


        def count_pairs(word_tokens):
            return a_rather_long_helper_table_name_for_counting


        def merge_pair(tokens, pair):
            return a_rather_long_helper_table_name_for_counting
        '''))
    (warning,) = [w for w in code.warnings if "NameError" in w]
    assert len(warning) > 300
    assert cap_warnings([warning]) == [warning]
    long = cap_warnings([warning * 3])[0]
    assert len(long) <= WARNING_CHARS and long.endswith("…") and long[-2] != " "
    assert (warning * 3).startswith(long[:-1]) and (warning * 3)[len(long) - 1] == " "


@pytest.mark.parametrize(("got", "expected", "said"), [
    (3200.0, 3.2, "a float about 1,000 times the expected value"),
    (0.0032, 3.2, "a float about 1,000 times smaller than the expected value"),
    (-1.0, 2.0, "a float of the opposite sign to the expected value"),
    (2.0, 3.0, "a float other than expected, of the same order of magnitude"),
    (1e300, 1e-300, "a float over 10^12 times larger than expected"),
    (0.0, 3.0, "a float other than expected"),
    (float("inf"), 3.0, "a float other than expected"),
    (5, 50, "an int about 10 times smaller than the expected value"),
    (10**400, 3, "an int over 10^12 times larger than expected"),
    (True, 1.0, "a bool, expected a float"),
])
def test_a_number_is_told_by_its_power_of_ten(got, expected, said):
    assert compared(got, expected) == said


def test_a_name_error_shows_only_names_the_source_leaves_undefined(monkeypatch):
    monkeypatch.setattr(evidence_module, "UNBOUND_NAMES", {"helper", "cost"})
    assert exception_detail("NameError", "name 'helper' is not defined") == (
        ": name 'helper' is not defined")
    for kind, message in [("NameError", "name 'secret' is not defined"),
                          ("ValueError", "name 'helper' is not defined"),
                          ("NameError", "name 'helper' is not defined; secret")]:
        assert is_all_evidence(exception_detail(kind, message)[2:]), (kind, message)
    assert exception_detail("NameError", "name 'cost' is not defined. Did you mean: 'secret'?"
                            ) == ": name 'cost' is not defined"
    assert load_error("line 2: NameError: name 'cost' is not defined. Did you mean: 'secret'?"
                      ) == "line 2: NameError: name 'cost' is not defined"
    assert load_error("cell 3, line 1: NameError: name 'helper' is not defined") == (
        "cell 3, line 1: NameError: name 'helper' is not defined")
    assert is_all_evidence(load_error("cell 3: NameError: name 'secret' is not defined"))
