"""Part 5: utilities (15 points).

The tokenizers these functions receive are the reference ``CharTokenizer`` and
``BPETokenizer`` living in the worker; expected values come from the reference
utilities run here on reference tokenizers built the same way.
"""

import random

import pytest

import solutions.tokenization as ref
from autograder.suite.checks import (
    by_size,
    check,
    close,
    expect_raises,
    expect_remote,
    is_int,
    is_number,
    show,
    versus,
)
from autograder.suite.remote import (
    call_keeping_argument,
    many,
)

from .inputs import (
    UNK,
    random_text,
    random_texts,
)

PART = 5

CORPUS = random_texts(51, ["the", "cat", "sat", "on", "mat", "hat", "that", "at", "a"], 12)
BPE_SIZE = 16  # below the 24 tokens the corpus can give, so the size matters
ALPHABET = "thecasonmt QZ"


def random_batch(seed: int, min_size: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [random_text(rng, ALPHABET) for _ in range(rng.randint(min_size, 5))]


BATCHES = by_size([random_batch(seed) for seed in range(30)] + [[], [""], ["the cat"]])
KEYS = ("vocab_size", "total_tokens", "avg_sequence_length", "max_sequence_length",
        "unique_tokens", "compression_ratio", "unknown_rate")


def reference_tokenizer(kind: str) -> ref.Tokenizer:
    if kind == "char":
        tok = ref.CharTokenizer()
        tok.build_vocab(CORPUS)
    else:
        tok = ref.BPETokenizer(BPE_SIZE)
        tok.train(CORPUS)
    return tok


def worker_tokenizer(student, kind: str):
    """The same tokenizer in the worker, built with the reference classes there."""
    if kind == "char":
        tok = expect_remote(student.call("CharTokenizer"), "CharTokenizer()")
        student.method(tok, "build_vocab", CORPUS)
    else:
        tok = expect_remote(student.call("BPETokenizer", BPE_SIZE), "BPETokenizer")
        student.method(tok, "train", CORPUS)
    return tok


def expect_rows(value: object, what: str) -> list[list[int]]:
    check(type(value) is list and all(
        type(row) is list and all(is_int(i) for i in row) for row in value
    ), f"{what} should return a list of lists of int, got {type(value).__name__} {show(value)}")
    return value  # type: ignore[return-value]


@pytest.mark.points(1)
def test_create_char_tokenizer(student):
    """create_tokenizer("char", corpus=...) builds a CharTokenizer on the corpus"""
    tok = expect_remote(student.call("create_tokenizer", "char", corpus=CORPUS),
                        'create_tokenizer("char", corpus=corpus)', "CharTokenizer")
    vocab = student.get(tok, "vocab")
    expected = reference_tokenizer("char").vocab
    check(vocab == expected,
          lambda: f'create_tokenizer("char", corpus=corpus).vocab is {show(vocab)}, '
                  f"expected {show(expected)}")
    tok = expect_remote(student.call("create_tokenizer", "char"), 'create_tokenizer("char")',
                        "CharTokenizer")
    vocab = student.get(tok, "vocab")
    check(vocab == [UNK], lambda: f'create_tokenizer("char").vocab is {show(vocab)}, '
                                  "expected ['<UNK>'] (no corpus, no characters)")


@pytest.mark.points(2)
def test_create_bpe_tokenizer(student):
    """create_tokenizer("bpe", vocab_size, corpus) trains a BPETokenizer of that size"""
    expected = reference_tokenizer("bpe")
    for args, kwargs in ((("bpe", BPE_SIZE, CORPUS), {}),
                         (("bpe",), {"vocab_size": BPE_SIZE, "corpus": CORPUS})):
        what = "create_tokenizer(" + ", ".join(
            [repr(a) if not isinstance(a, list) else "corpus" for a in args]
            + [f"{k}={show(v)}" if k != "corpus" else "corpus=corpus" for k, v in kwargs.items()]
        ) + ")"
        tok = expect_remote(student.call("create_tokenizer", *args, **kwargs), what,
                            "BPETokenizer")
        target = student.get(tok, "target_vocab_size")
        check(target == BPE_SIZE, lambda: f"{what}.target_vocab_size is {show(target)}, expected "
                                          f"{BPE_SIZE}")
        merges = student.get(tok, "merges")
        merges = [tuple(m) for m in merges] if type(merges) is list else merges
        check(merges == expected.merges, lambda: f"{what}.merges is "
                                                 f"{versus(merges, expected.merges)}")
        check(student.get(tok, "vocab") == expected.vocab, f"{what}.vocab is not the "
              "vocabulary the BPETokenizer learns from the corpus")
    tok = expect_remote(student.call("create_tokenizer", "bpe", corpus=CORPUS),
                        'create_tokenizer("bpe", corpus=corpus)', "BPETokenizer")
    target = student.get(tok, "target_vocab_size")
    check(target == 1000, lambda: f'create_tokenizer("bpe", corpus=corpus).target_vocab_size is '
                                  f"{show(target)}, expected the default 1000")


@pytest.mark.points(1)
def test_create_unknown_strategy(student):
    """An unknown strategy raises ValueError listing the valid ones"""
    for strategy in ("word", "unigram", "", "BPE", "Char", " bpe"):
        error = expect_raises("ValueError", f"create_tokenizer({show(strategy)})", student.call,
                              "create_tokenizer", strategy, 100, ["a b"])
        check("char" in error.message.lower() and "bpe" in error.message.lower(),
              f"the ValueError of create_tokenizer({show(strategy)}) should list the valid "
              f"strategies ('bpe', 'char'); its message was {show(error.message[:200], 220)}")


@pytest.mark.points(2)
def test_tokenize_dataset(student):
    """tokenize_dataset encodes every text"""
    for kind in ("char", "bpe"):
        tok = worker_tokenizer(student, kind)
        got_all = many(student, "tokenize_dataset", BATCHES, [tok] * len(BATCHES),
                       describe=lambda row, kind=kind: f"tokenize_dataset({show(row[0])}, "
                                                       f"{kind} tokenizer)")
        for batch, got in zip(BATCHES, got_all):
            expected = ref.tokenize_dataset(batch, reference_tokenizer(kind))
            what = f"tokenize_dataset({show(batch)}, {kind} tokenizer)"
            got = expect_rows(got, what)
            check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


@pytest.mark.points(2)
def test_tokenize_dataset_truncates(student):
    """tokenize_dataset cuts each text to max_length tokens and never pads"""
    batch = ["the cat", "a", "", "that hat sat on the mat", "QZ at"]
    for kind in ("char", "bpe"):
        tok = worker_tokenizer(student, kind)
        for max_length in (0, 1, 3, 8, 1000, None):
            expected = ref.tokenize_dataset(batch, reference_tokenizer(kind), max_length)
            what = f"tokenize_dataset({show(batch)}, {kind} tokenizer, max_length={max_length})"
            got = expect_rows(student.call("tokenize_dataset", batch, tok, max_length), what)
            check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


@pytest.mark.points(1)
def test_tokenize_dataset_negative_max_length(student):
    """A negative max_length raises ValueError"""
    tok = worker_tokenizer(student, "char")
    for bad in (-1, -5):
        expect_raises("ValueError", f"tokenize_dataset(texts, tokenizer, max_length={show(bad)})",
                      student.call, "tokenize_dataset", ["the cat"], tok, bad)


def check_stats(got: object, what: str) -> dict:
    check(type(got) is dict, lambda: f"{what} should return a dict, got {type(got).__name__}")
    missing = [k for k in KEYS if k not in got]  # type: ignore[operator]
    check(not missing, f"{what} has no key {missing[0]!r}" if missing else "")
    for key in KEYS:
        check(is_number(got[key]),
              lambda: f"{what}[{key!r}] should be a number, got "  # type: ignore
                      f"{show(got[key])}")  # type: ignore[index]
    return got  # type: ignore[return-value]


def analyze(student, batch, kind) -> dict:
    what = f"analyze_tokenization({show(batch)}, {kind} tokenizer)"
    return check_stats(
        student.call("analyze_tokenization", batch, worker_tokenizer(student, kind)), what)


def compare_stats(got: dict, expected: dict, what: str) -> None:
    for key in KEYS:
        check(close(got[key], expected[key]), lambda: f"{what}[{key!r}] is "
                                                      f"{versus(got[key], expected[key])}")


@pytest.mark.points(3)
def test_analyze_tokenization(student):
    """analyze_tokenization reports every statistic of the spec"""
    batches = [b for b in BATCHES if b]
    for kind in ("char", "bpe"):
        tok = worker_tokenizer(student, kind)
        got_all = many(student, "analyze_tokenization", batches, [tok] * len(batches),
                       describe=lambda row, kind=kind: f"analyze_tokenization({show(row[0])}, "
                                                       f"{kind} tokenizer)")
        for batch, got in zip(batches, got_all):
            what = f"analyze_tokenization({show(batch)}, {kind} tokenizer)"
            expected = ref.analyze_tokenization(batch, reference_tokenizer(kind))
            compare_stats(check_stats(got, what), expected, what)


@pytest.mark.points(1)
def test_analyze_empty_input(student):
    """Empty input gives zeros, never a division error"""
    for batch in ([], ["", "   "]):
        for kind in ("char", "bpe"):
            expected = ref.analyze_tokenization(batch, reference_tokenizer(kind))
            compare_stats(analyze(student, batch, kind), expected,
                          f"analyze_tokenization({show(batch)}, {kind} tokenizer)")


@pytest.mark.points(1)
def test_analyze_counts_whitespace_and_unknowns(student):
    """compression_ratio counts whitespace characters; unknown_rate is the share of ID 0"""
    batch = ["the   cat\t\tsat", "  QQ  ZZ on  ", "mat\n\nhat"]
    for kind in ("char", "bpe"):
        expected = ref.analyze_tokenization(batch, reference_tokenizer(kind))
        got = analyze(student, batch, kind)
        what = f"analyze_tokenization({show(batch)}, {kind} tokenizer)"
        for key in ("compression_ratio", "unknown_rate"):
            check(close(got[key], expected[key]), lambda: f"{what}[{key!r}] is "
                                                          f"{versus(got[key], expected[key])}")


@pytest.mark.points(1)
def test_inputs_not_modified(student):
    """tokenize_dataset and analyze_tokenization leave their list of texts unchanged"""
    batch = ["  the cat ", "QZ", "", "sat\ton the mat"]
    for name, rest in (("tokenize_dataset", (2,)), ("tokenize_dataset", ()),
                       ("analyze_tokenization", ())):
        for kind in ("char", "bpe"):
            tok = worker_tokenizer(student, kind)
            _, after = call_keeping_argument(student, name, list(batch), tok, *rest)
            check(after == batch,
                  lambda: f"{name}({show(batch)}, {kind} tokenizer"
                          f"{''.join(', ' + repr(r) for r in rest)}) changed its list "
                          f"of texts to {show(after)}")
