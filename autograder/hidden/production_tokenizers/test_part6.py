"""Part 6: who pays for tokens (15 points).

(About 290 lines: five functions and four answers, each with its own error tests.)

The functions take a tokenizer as an ``encode`` callable. The grader hands them a real
tokenizer built in the worker from plain data, whose calls the reference answers in the
scoring process (``p46_tokenizers``): it encodes any string, so code that encodes a joined
text, a stripped string or one word at a time is graded like code that encodes each text.

Parallel text is a cut of ``parallel.json`` (``p46_parallel``) with English not first.
Floats are compared with a relative tolerance of 1e-9 (the order of the sums may differ).
``pack_tokens`` writes in the worker's own folder; the file is read back there with the
worker's ``_io.FileIO`` (``p46_files``), never with a function the student's code could have
replaced.
"""

import random

import pytest

import solutions.production_tokenizers as ref
from autograder.suite.ahead import ahead
from autograder.suite.checks import (
    check,
    close,
    expect_raises,
    is_int,
    is_number,
    show,
    versus,
)

from .p46_files import OLD, read_back, write_old
from .p46_parallel import TEXTS as PARALLEL
from .p46_tokenizers import VOCABULARIES, reference_encode, worker_encode

PART = 6


TOKENIZERS = list(VOCABULARIES)  # built in the worker from data (``p46_tokenizers``)


# --- fertility and bytes per token -----------------------------------------------------


def random_texts(seed: int) -> list[str]:
    rng = random.Random(seed)
    words = ["the", "cat", "naïve", "日本語", "😀", "résumé", "x", "Привет", "cat's", "e\u0301"]
    gaps = [" ", "  ", "\t", "\n", "\u3000", "\xa0", "\x85", "\u202f", " \n "]
    texts = []
    for _ in range(rng.randint(1, 5)):
        text = rng.choice(["", " ", "\t"])
        for _ in range(rng.randint(0, 5)):
            text += rng.choice(words) + rng.choice(gaps)
        texts.append(text)
    return texts


TEXT_LISTS = [random_texts(1200 + s) for s in range(12)]
TEXT_LISTS += [PARALLEL[locale] for locale in ("en", "ru", "zh", "my")]
TEXT_LISTS += [["to be", "or not", "", "é"], ["a  b\tc"], ["a", "bbbbbbbb"], ["a\x85b\u2003c d"]]


MEASURES = {"fertility": ref.fertility, "bytes_per_token": ref.bytes_per_token}


@ahead(lambda: [(name, tokenizer) for name in MEASURES for tokenizer in TOKENIZERS])
def expected_measures(name: str, tokenizer: str) -> list[float | None]:
    """The reference's ``name(texts, encode)`` on each of ``TEXT_LISTS``; None where there
    is nothing to divide by (the error tests' business)."""
    values: list[float | None] = []
    for texts in TEXT_LISTS:
        try:
            values.append(MEASURES[name](texts, reference_encode(tokenizer)))
        except ValueError:
            values.append(None)
    return values


def measure(student, name: str) -> None:
    """``name(texts, encode)`` for every list of texts and tokenizer, against the reference."""
    rows = []
    for tokenizer in TOKENIZERS:
        encode = worker_encode(student, tokenizer)
        for texts, expected in zip(TEXT_LISTS, expected_measures(name, tokenizer)):
            if expected is not None:
                rows.append((texts, encode, tokenizer, expected))
    for texts, encode, tokenizer, expected in rows:  # a request each: its own time limit
        got = student.call(name, texts, encode)
        what = f"{name}({show(texts)}, encode of {tokenizer})"
        check(is_number(got), lambda: f"{what} should return a float, got {show(got)}")
        check(close(got, expected), lambda: f"{what} returned {versus(got, expected)}")


@pytest.mark.points(2)
def test_fertility(student):
    """fertility: total tokens over total str.split() words of all the texts"""
    measure(student, "fertility")


@pytest.mark.points(2)
def test_bytes_per_token(student):
    """bytes_per_token: total UTF-8 bytes over total tokens of all the texts"""
    measure(student, "bytes_per_token")


@pytest.mark.points(1)
def test_nothing_to_divide_by(student):
    """fertility without a word and bytes_per_token without a token raise ValueError"""
    encode = worker_encode(student, "a WordPiece tokenizer")
    for texts in ([], [""], ["", " \t\n", "\u3000"]):
        expect_raises("ValueError", f"fertility({show(texts)}, encode)", student.call,
                      "fertility", texts, encode)
    for texts in ([], [""], ["  ", "", "\t\n"]):  # white space alone gives no token
        expect_raises("ValueError", f"bytes_per_token({show(texts)}, encode)", student.call,
                      "bytes_per_token", texts, encode)


# --- token premium ---------------------------------------------------------------------


# The premiums on ``PARALLEL`` that the tests ask for: (tokenizer, reference locale).
PARALLEL_PREMIUMS = [(tokenizer, ()) for tokenizer in TOKENIZERS] + [
    (TOKENIZERS[1], ("ru",)), (TOKENIZERS[0], ("ja",)), (TOKENIZERS[0], ("en",)),
    (TOKENIZERS[1], ("my",))]


@ahead(lambda: PARALLEL_PREMIUMS)
def parallel_premium(tokenizer: str, reference: tuple[str, ...]) -> dict[str, float]:
    """The reference's ``token_premium`` on ``PARALLEL``: the same in every grading."""
    return ref.token_premium(PARALLEL, reference_encode(tokenizer), *reference)


def premium(student, parallel: dict[str, list[str]], tokenizer: str, *reference: str) -> None:
    args = f"{show(parallel, 60)}, encode of {tokenizer}" + "".join(
        f", reference={show(r)}" for r in reference)
    got = student.call("token_premium", parallel, worker_encode(student, tokenizer), *reference)
    what = f"token_premium({args})"
    expected = parallel_premium(tokenizer, reference) if parallel is PARALLEL else \
        ref.token_premium(parallel, reference_encode(tokenizer), *reference)
    check(type(got) is dict and set(got) == set(expected),  # type: ignore[arg-type]
          lambda: f"{what} should return a dict with one premium per locale, got {show(got)}")
    for locale, value in expected.items():
        found = got[locale]  # type: ignore[index]
        check(is_number(found) and close(found, value),
              lambda: f"{what}[{locale!r}] is {versus(found, value)}")


SMALL = {"xx": ["ab", "abcd"], "en": ["abcdef", "a"], "yy": ["a", "abcdefghijklmno"]}


@pytest.mark.points(2)
def test_token_premium(student):
    """token_premium: each locale's total tokens over English's total, on parallel text"""
    for tokenizer in TOKENIZERS:
        premium(student, PARALLEL, tokenizer)
    premium(student, SMALL, "a WordPiece tokenizer")
    premium(student, {"xx": ["ab"], "en": ["a"]}, "a WordPiece tokenizer")  # English has one token


@pytest.mark.points(1)
def test_token_premium_reference_locale(student):
    """token_premium(..., reference=locale) divides by that locale's total"""
    for tokenizer, (locale,) in PARALLEL_PREMIUMS[len(TOKENIZERS):]:
        premium(student, PARALLEL, tokenizer, locale)
    premium(student, SMALL, "a WordPiece tokenizer", "yy")


@pytest.mark.points(1)
def test_token_premium_missing_reference(student):
    """token_premium raises ValueError when the reference locale is not in the data"""
    for parallel, reference in (({"fr": ["a"], "de": ["b"]}, ()), (SMALL, ("zz",)),
                                ({"EN": ["a"]}, ())):
        encode = worker_encode(student, "a WordPiece tokenizer")
        expect_raises("ValueError", f"token_premium({show(parallel)}, encode"
                                    f"{''.join(f', reference={show(r)}' for r in reference)})",
                      student.call, "token_premium", parallel, encode, *reference)


# --- the cost of a request -------------------------------------------------------------

COST_CASES = [(1_000_000, 0, 2.5, 10.0), (1200, 300, 2.5, 10.0), (0, 0, 3.0, 15.0),
              (0, 1_000_000, 0.15, 0.6), (123_456, 7_890, 0.075, 0.3), (1, 1, 75.0, 150.0),
              (10**9, 10**8, 1.25, 5.0), (999, 0, 0.5, 99.0)]
COST_CASES += [(random.Random(s).randint(0, 10**7), random.Random(s + 1).randint(0, 10**6),
                random.Random(s + 2).choice([0.1, 0.25, 1.1, 3.0, 15.0]),
                random.Random(s + 3).choice([0.4, 2.0, 4.4, 60.0])) for s in range(0, 40, 4)]


@pytest.mark.points(1)
def test_estimate_cost(student):
    """estimate_cost: input and output tokens at their prices per million tokens"""
    for case in COST_CASES:
        got = student.call("estimate_cost", *case)
        what = f"estimate_cost({', '.join(map(show, case))})"
        expected = ref.estimate_cost(*case)
        check(is_number(got) and close(got, expected),
              lambda: f"{what} returned {versus(got, expected)}")


# --- train.bin ----------------------------------------------------------------------------


def pack_cases() -> list[tuple[list[int], str | None]]:
    rng = random.Random(1300)
    return [([1, 258, 50256], None), ([1, 258, 50256], "uint16"), ([], None), ([], "uint32"),
            ([0, 65_535, 255, 256], "uint16"), ([70_000, 1, 2**32 - 1, 65_536], "uint32"),
            ([rng.randrange(50_257) for _ in range(700)], None),
            ([rng.randrange(2**32) for _ in range(300)], "uint32")]


@pytest.mark.points(2)
def test_pack_tokens(student):
    """pack_tokens writes little-endian uint16/uint32 and returns the bytes written"""
    for i, (ids, dtype) in enumerate(pack_cases()):
        path = f"p46_train_{i}.bin"
        if i % 2:
            write_old(student, path)  # an existing file is replaced, not appended to
        args = (ids, path) if dtype is None else (ids, path, dtype)
        what = f"pack_tokens({show(ids)}, path{'' if dtype is None else f', {show(dtype)}'})"
        got = student.call("pack_tokens", *args)
        width = 4 if dtype == "uint32" else 2
        expected = b"".join(i.to_bytes(width, "little") for i in ids)
        check(is_int(got) and got == len(expected),
              lambda: f"{what} returned {versus(got, len(expected))} (the number of bytes written)")
        written = read_back(student, path, what)
        check(len(written) == len(expected), lambda: f"after {what}, the file holds "
                                                     f"{versus(len(written), len(expected))} bytes")
        if written != expected:
            first = next(i for i, (a, b) in enumerate(zip(written, expected)) if a != b)
            check(False, lambda: f"after {what}, the file's bytes differ from the little-endian "
                                 f"{dtype or 'uint16'} IDs from byte {show(first)} on: "
                                 f"{versus(written[first:first + 8], expected[first:first + 8])}")


@pytest.mark.points(1)
def test_pack_tokens_refuses(student):
    """pack_tokens raises ValueError for an ID that does not fit, before writing anything"""
    for i, (ids, dtype) in enumerate([([1, 70_000], "uint16"), ([65_536], "uint16"),
                                      ([-1], "uint16"), ([5, 2**32], "uint32"), ([-3], "uint32"),
                                      ([1, 2], "int16"), ([1], "uint8"), ([1], "float32")]):
        path = f"p46_refused_{i}.bin"
        write_old(student, path)
        what = f"pack_tokens({show(ids)}, path, {show(dtype)})"
        expect_raises("ValueError", what, student.call, "pack_tokens", ids, path, dtype)
        after = read_back(student, path, what)
        check(after == OLD.encode(),
              f"{what} raised ValueError but changed the file first: check every ID before "
              "writing anything")
    for ids in ([65_536], [100_000, 1]):  # the default dtype is uint16
        path = "p46_refused_default.bin"
        expect_raises("ValueError", f"pack_tokens({show(ids)}, path)", student.call,
                      "pack_tokens", ids, path)


# --- the numeric answers -----------------------------------------------------------------


def answer(student, name: str) -> object:
    return student.get(None, name)


@pytest.mark.points(1)
def test_answer_shakespeare_tokens(student):
    """SHAKESPEARE_GPT2_TOKENS and SHAKESPEARE_TRAIN_BIN_BYTES, exactly"""
    for name in ("SHAKESPEARE_GPT2_TOKENS", "SHAKESPEARE_TRAIN_BIN_BYTES"):
        got, expected = answer(student, name), getattr(ref, name)
        check(is_int(got), lambda: f"{name} should be an int, got {show(got)}")
        check(got == expected, lambda: f"{name} is {show(got)}, which is not the right count")


@pytest.mark.points(1)
def test_answer_premium(student):
    """HIGHEST_PREMIUM_LOCALE exactly, GPT2_PREMIUM_MY within 0.01"""
    got = answer(student, "HIGHEST_PREMIUM_LOCALE")
    check(type(got) is str, lambda: f"HIGHEST_PREMIUM_LOCALE should be a str, got {show(got)}")
    check(got == ref.HIGHEST_PREMIUM_LOCALE,
          lambda: f"HIGHEST_PREMIUM_LOCALE is {show(got)}, which is "
                  "not the locale with the largest GPT-2 premium")
    got = answer(student, "GPT2_PREMIUM_MY")
    check(is_number(got), lambda: f"GPT2_PREMIUM_MY should be a float, got {show(got)}")
    check(abs(got - ref.GPT2_PREMIUM_MY) < 0.01 + 1e-9,  # type: ignore[operator]
          f"GPT2_PREMIUM_MY is {show(got)}, which is not Burmese's GPT-2 premium (2 decimals)")
