"""Toy Part 1: ``count_words`` against the reference on a few texts (4 points)."""

import pytest

from autograder.suite.checks import check, expect_raises, versus
from autograder.suite.remote import many

from .reference import count_words

PART = 1
TEXTS = ["", "a", "a b a", "  spaced   out  ", "x y z x y x"]


@pytest.mark.points(3)
def test_counts(student):
    """count_words counts every word"""
    for text, got in zip(TEXTS, many(student, "count_words", TEXTS)):
        expected = count_words(text)
        check(got == expected, f"count_words({text!r}) is {versus(got, expected)}")


@pytest.mark.points(1)
def test_type_error(student):
    """count_words rejects a list"""
    expect_raises("TypeError", "count_words([])", student.call, "count_words", [])
