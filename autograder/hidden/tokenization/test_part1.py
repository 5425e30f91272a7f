"""Part 1: the ``Tokenizer`` base class (5 points).

The base class only fixes the contract: ``encode`` and ``decode`` raise
``NotImplementedError`` with a message that names the method and says that a subclass
(or a concrete implementation) must provide it; the message is read for its meaning,
not for one keyword (``duty_problems``). A bare ``raise NotImplementedError()`` (the
release stub) says nothing and scores 0.
"""

import pytest

from autograder.sandbox import StudentError
from autograder.suite.checks import (
    Failures,
    check,
    clip,
    expect_remote,
    show,
)
from autograder.suite.evidence import exception_detail, type_label

from .inputs import (
    duty_problems,
)

PART = 1


def base_error(student, method: str, argument: object) -> StudentError:
    """The exception ``Tokenizer().method(argument)`` raises."""
    tokenizer = expect_remote(student.call("Tokenizer"), "Tokenizer()")
    call = f"Tokenizer().{method}({show(argument)})"
    try:
        value = student.method(tokenizer, method, argument)
    except StudentError as exc:
        detail = exception_detail(exc.type_name, exc.message)
        check(
            exc.is_a("NotImplementedError"),
            f"{call} should raise NotImplementedError, but it raised "
            f"{type_label(exc.type_name)}{detail}",
        )
        return exc
    raise AssertionError(f"{call} should raise NotImplementedError, but it returned {show(value)}")


def check_duty(exc: StudentError, method: str) -> None:
    problems = duty_problems(exc.message, method)
    check(
        not problems,
        lambda: f"the NotImplementedError of Tokenizer.{method} should {' and '.join(problems)}; "
                f"the message was {show(clip(exc.message), 220)}",
    )


@pytest.mark.points(2)
def test_encode_not_implemented(student):
    """Tokenizer.encode raises NotImplementedError naming the subclass's duty"""
    check_duty(base_error(student, "encode", "hello world"), "encode")


@pytest.mark.points(2)
def test_decode_not_implemented(student):
    """Tokenizer.decode raises NotImplementedError naming the subclass's duty"""
    check_duty(base_error(student, "decode", [1, 2, 3]), "decode")


@pytest.mark.points(1)
def test_not_implemented_for_any_input(student):
    """The base class raises for every input, empty ones included"""
    failures = Failures()
    for method, argument in (("encode", ""), ("decode", []), ("encode", "<UNK>"), ("decode", [0])):
        with failures.case():
            check_duty(base_error(student, method, argument), method)
    failures.report()
