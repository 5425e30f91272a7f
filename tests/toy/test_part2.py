"""Toy Part 2: ``Shouter`` and ``loudest``, which uses Part 1's ``count_words`` (6 points)."""

import pytest

from autograder.suite.checks import check, expect_remote, versus

from .reference import Shouter, loudest

PART = 2


@pytest.mark.points(3)
def test_shout(student):
    """Shouter(marks).shout upper-cases and adds the marks"""
    for marks in (0, 1, 3):
        shouter = expect_remote(student.call("Shouter", marks), f"Shouter({marks})", "Shouter")
        got, expected = student.method(shouter, "shout", "hey"), Shouter(marks).shout("hey")
        check(got == expected, f"Shouter({marks}).shout('hey') is {versus(got, expected)}")


@pytest.mark.points(3)
def test_loudest(student):
    """loudest shouts the most frequent word"""
    for text in ("b a b", "z y x", "one"):
        got, expected = student.call("loudest", text), loudest(text)
        check(got == expected, f"loudest({text!r}) is {versus(got, expected)}")
