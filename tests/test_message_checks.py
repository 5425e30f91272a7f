"""Part 1's message check reads a ``NotImplementedError`` message for its meaning.

A message passes when it names the method and says that a subclass or a concrete
implementation must provide it, however it is worded; real phrasings from course
materials and libraries pass, and messages that say less fail.
"""

import pytest

from autograder.suite.support import duty_problems

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
