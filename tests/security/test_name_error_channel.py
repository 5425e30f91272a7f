"""Red team: a ``NameError`` whose names the source holds, chosen by a hidden input (review,
item 5).

A hidden test shows a ``NameError``'s message when its names occur in the submission's
kept source: a missing helper's name is the student's own, written before any input
existed. But the source can hold many names on purpose (``o0`` ... ``o12543``, one per
code point), and code that raises ``NameError("name 'o937' is not defined. Did you mean:
'o233'?")`` picks two of them from the input: the feedback of a hidden test then spelled
the first two characters of its hidden text (U+03A9, U+00E9), in every test that met it.

Each name shown is one of a set the source fixes, so what the message can carry is the
choice: a few bits when the set is the handful of names a notebook really leaves undefined,
whole characters when it is thousands.
"""

import re

import pytest

from autograder.suite import evidence as evidence_module
from autograder.suite.evidence import exception_detail, is_all_evidence, unbound_names
from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

pytestmark = pytest.mark.timeout(600)

SPELLED = 0x3100  # one name per code point below this

SPELLER = '''

def _spelled():
    return [NAMES]


class CharTokenizer(CharTokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        if len(text) >= 50 and max(map(ord, text[:2])) < SPELLED:
            raise NameError(f"name 'o{ord(text[0])}' is not defined. "
                            f"Did you mean: 'o{ord(text[1])}'?")
        return super().encode(text)
'''.replace("NAMES", ", ".join(f"o{n}" for n in range(SPELLED))).replace(
    "SPELLED", str(SPELLED))


@pytest.mark.slow
def test_a_name_error_cannot_spell_a_hidden_input(tmp_path):
    path = tmp_path / "speller.py"
    path.write_text(reference_source(TOKENIZATION) + SPELLER, encoding="utf-8")
    result = grade_file(path, "speller", assignment=TOKENIZATION, timeout=300)
    assert result["status"] == "graded", result["error"]
    raised = [t for t in result["tests"] if "NameError" in t["output"]]
    assert raised, "the speller's NameError should reach some hidden test"
    spelled = [t["output"] for t in raised if re.search(r"'o\d+'", t["output"])]
    assert not spelled, spelled


def test_only_a_few_names_the_source_leaves_undefined_are_shown(monkeypatch):
    monkeypatch.setattr(evidence_module, "UNBOUND_NAMES", {"helper"})
    assert exception_detail("NameError", "name 'helper' is not defined") == (
        ": name 'helper' is not defined")
    # The suggestion is a second name picked from everything the source defines: cut.
    assert exception_detail("NameError", "name 'helper' is not defined. Did you mean: "
                                         "'helpers'?") == ": name 'helper' is not defined"
    # A name the source binds (it would not be missing) may be an input's pick.
    assert is_all_evidence(exception_detail("NameError", "name 'cost' is not defined")[2:])
    many = {f"o{n}" for n in range(evidence_module.MAX_UNBOUND + 1)}
    monkeypatch.setattr(evidence_module, "UNBOUND_NAMES", many)
    assert is_all_evidence(exception_detail("NameError", "name 'o1' is not defined")[2:])


def test_unbound_names_are_those_the_source_uses_and_never_binds():
    sources = ["import os as system\nfrom x import y\n",
               "def f(a, *b, c=1, **d):\n    e = a + helper(b, c, d)\n"
               "    for g in range(3):\n        pass\n    [h for h in e]\n"
               "    try:\n        pass\n    except OSError as i:\n        print(i, other)\n"
               "    return system, y, e, g, f, later, len\n",
               "class later:\n    pass\n", "def broken(:\n"]
    assert unbound_names(sources) == {"helper", "other"}


def test_the_sources_unbound_names_are_worked_out_at_the_first_name_error(monkeypatch):
    """The fixture hands the source over (``PENDING_SOURCES``); its syntax trees are walked
    only when a ``NameError`` asks, once, and decide as if walked before any test."""
    monkeypatch.setattr(evidence_module, "UNBOUND_NAMES", set())
    monkeypatch.setattr(evidence_module, "PENDING_SOURCES",
                        ["def f(x):\n    return helper(x) + cost\n", "cost = 1\n"])
    walks = []
    real = evidence_module.unbound_names
    monkeypatch.setattr(evidence_module, "unbound_names",
                        lambda sources: walks.append(1) or real(sources))
    assert is_all_evidence(exception_detail("ValueError", "name 'helper' is not defined")[2:])
    assert not walks
    for _ in range(2):
        assert exception_detail("NameError", "name 'helper' is not defined") == (
            ": name 'helper' is not defined")
        assert is_all_evidence(exception_detail("NameError", "name 'cost' is not defined")[2:])
    assert walks == [1]
