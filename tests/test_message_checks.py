"""Feedback that teaches: messages read for their meaning, every failing case, the line.

- Part 1's check reads a ``NotImplementedError`` message for its meaning: it passes when it
  names the method and says that a subclass or a concrete implementation must provide it,
  however it is worded (real phrasings from course materials and libraries pass), and
  messages that say less fail.
- A test with several cases reports every failing one.
- A crash names the student's cell and line, not only the exception.
"""

from pathlib import Path

import nbformat
import pytest

from autograder.extract import extract
from autograder.hidden.tokenization.inputs import duty_problems
from autograder.sandbox import StudentError
from autograder.suite.checks import (
    Failures,
    check,
    expect_ids,
    expect_pairs,
    expect_str,
    expect_str_list,
)
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

SOLVED = Path(__file__).resolve().parents[1] / "source" / "tokenization" / "tokenization.ipynb"

TINYTORCH = (
    "{m}() not implemented in base Tokenizer class\n"
    "  ❌ Called {m}() on abstract base class Tokenizer\n"
    "  💡 Tokenizer is an interface - use a concrete implementation like CharTokenizer or "
    "BPETokenizer\n  🔧 Example: tokenizer = CharTokenizer(['a', 'b', 'c']); "
    "tokenizer.encode('abc')"
)

PASS = [
    TINYTORCH,
    "Tokenizer.{m}: a subclass must implement {m}(text)",
    "Subclasses must implement {m}()",
    "{m}() must be overridden",
    "Tokenizer is abstract: override {m} in your tokenizer",
    "{m} is abstract; implement it in a derived class",
    "Child classes need to provide their own {m} method",
    "{m}() should be implemented by concrete tokenizers",
    "The {m} method has to be implemented by classes inheriting from Tokenizer",
    "Implement {m} in a sub-class of Tokenizer",
    "{m}: to be defined by subclasses",
    "Method '{m}' is abstract and must be implemented by any tokenizer subclass.",
    "Use CharTokenizer or BPETokenizer to {m}: the base class cannot",
    "{m} must be implemented",
    "Tokenizer subclasses are responsible for implementing {m}",
    "SUBCLASS MUST IMPLEMENT {M}",
]

FAIL = [
    "",
    "not implemented",
    "Not implemented yet",
    "{m} not implemented",
    "{m}() is not implemented in the base class",
    "TODO",
    "subclasses must implement this method",
    "Abstract method: subclass responsibility",
    "NotImplementedError",
]


def fill(template: str, method: str) -> str:
    return template.format(m=method, M=method.upper())


@pytest.mark.parametrize("method", ["encode", "decode"])
@pytest.mark.parametrize("template", PASS)
def test_messages_that_name_the_duty_pass(template, method):
    message = fill(template, method) if template is not TINYTORCH else TINYTORCH.replace(
        "{m}", method)
    assert duty_problems(message, method) == []


@pytest.mark.parametrize("method", ["encode", "decode"])
@pytest.mark.parametrize("template", FAIL)
def test_messages_that_say_less_fail(template, method):
    assert duty_problems(fill(template, method), method)


def test_each_missing_piece_is_reported():
    assert duty_problems("not implemented", "encode") == [
        "name the method (encode)",
        "say that a subclass (or a concrete tokenizer) must provide it",
    ]


def test_a_message_copied_from_the_other_method_fails():
    problems = duty_problems("a subclass must implement encode(text)", "decode")
    assert problems == ["name the method (decode) rather than encode"]


# --- feedback that teaches: every failing case, the student's line ----------------------


def test_every_failing_case_of_a_test_is_reported():
    failures = Failures(limit=2)
    for case in range(4):
        with failures.case():
            check(case % 2 == 0, f"case {case} is wrong")
    with failures.case():
        raise StudentError("KeyError", ["KeyError", "LookupError"], "'x'")
    with pytest.raises(AssertionError) as error:
        failures.report()
    assert str(error.value) == "3 checks failed: (1) case 1 is wrong (2) case 3 is wrong " \
                               "(and 1 more)"


def test_statements_keep_the_cells_line_numbers(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("import math\n\n@staticmethod\ndef merge_pair(t, p):\n    x = 1\n"
                    "    return t[10]\n")
    statement = extract(path).statements[1]
    namespace: dict = {}
    exec(compile(statement.source, f"<{statement.origin}>", "exec"), namespace)
    with pytest.raises(IndexError) as error:
        namespace["merge_pair"].__func__([], ())
    assert error.traceback[-1].lineno + 1 == 6  # pytest counts lines from 0


@pytest.mark.slow
def test_a_crash_names_the_students_cell_and_line(tmp_path):
    nb = nbformat.read(SOLVED, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "def merge_pair(tokens, pair):\n    merged = list(tokens)\n"
        "    return merged + [{}[pair]]\n"))
    path = tmp_path / "tokenization.ipynb"
    nbformat.write(nb, path)
    result = grade_file(path, "crash", assignment=TOKENIZATION, timeout=240.0)
    outputs = {t["id"]: t["output"] for t in result["tests"]}
    cell = len(nb.cells)
    assert outputs["part4::test_merge_pair"].startswith(
        f"your code raised KeyError at cell {cell}, line 3"), outputs["part4::test_merge_pair"]


@pytest.mark.parametrize("expect, good, bad", [
    (expect_ids, [1, 2], [1, "2"]),
    (expect_str, "ab", b"ab"),
    (expect_str_list, ["a"], ["a", 1]),
    (expect_pairs, [("a", "b")], [("a",)]),
])
def test_a_message_given_as_a_function_is_written_only_when_the_check_fails(expect, good, bad):
    """A check made once per hidden input (thousands per grading) takes the name of its
    call as a function (``checks.Said``): ``show`` of an input costs tens of microseconds,
    so writing it for every passing case cost production a third of a second per grading."""
    written = []

    def what() -> str:
        written.append(1)
        return "encode('x')"

    expect(good, what)
    assert written == []
    with pytest.raises(AssertionError, match=r"^encode\('x'\) should"):
        expect(bad, what)
    assert written == [1]
