"""Part 5: tokens beyond subwords, and tokens a model never sees (15 points).

Bytes (ByT5), patches (ViT) and codebook codes (VQ-VAE) are graded exactly against the
reference, with their named errors. ``vq_tokenize`` is also graded by whether it fits: at
``N = 4,000`` vectors, ``K = 512`` codes, ``D = 64`` (float64) the ``(N, K, D)`` broadcast
needs one array of 1,000 MiB, four times a worker's 256 MiB of address space, while the
reference's ``|x|^2 - 2 x.c + |c|^2`` works on ``(N, K)`` arrays of 16 MB: its worker peaks
at 168 MiB, 130 of them numpy and the worker itself (``tests/tokens_to_vectors/
test_vq_memory.py`` measures both margins; at 10,000 vectors the reference peaked at 226
MiB, too close to the cap). Running out of memory
costs that one test, and its message says what was too big. Hidden inputs keep every
nearest distance at least 1e-6 (relative) from the second nearest, so both correct
formulations agree; a tie built on purpose goes to the smallest index. GPT-2's
vocabulary is the real one: 344 tokens are not valid UTF-8 alone.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.sandbox import StudentError
from autograder.suite.checks import (
    Failures,
    check,
    expect_ids,
    expect_raises,
    expect_str,
    raised_at,
    show,
    versus,
)
from autograder.suite.numeric import EXACT, Tolerance, expect_close

from .inputs import rng

PART = 5

# GPT-2's vocabulary, in the reference's folder (so a Gradescope bundle carries it).
GPT2_VOCAB = json.loads((Path(ref.__file__).parent / "data" / "gpt2" / "vocab.json")
                        .read_text(encoding="utf-8"))
# Expected answers worked out once, at import (the scoring process imports the suite once
# per run and forks a grading from it).
SMALL_VOCAB = {"a": 0, "Ġb": 1, "Ã": 2, "Ã©": 3, "âĢ": 4, "âĢĻ": 5, "ð": 6}
REVERSED_VOCAB = dict(reversed(SMALL_VOCAB.items()))  # IDs listed from the largest down
INCOMPLETE = {"small": ref.incomplete_utf8_tokens(SMALL_VOCAB),
              "reversed": ref.incomplete_utf8_tokens(REVERSED_VOCAB),
              "GPT-2": ref.incomplete_utf8_tokens(GPT2_VOCAB)}
TEXTS = ["", "hello", "naïve café", "tokens 🙂 cost", "日本語のテキスト", "a\tb\nc", "\x00\x7f"]


@pytest.mark.points(2)
def test_byte_tokens(student):
    """byte_tokens: each UTF-8 byte plus 3, then the end-of-sequence ID 1"""
    failures = Failures()
    for text in TEXTS:
        with failures.case():
            got = expect_ids(student.call("byte_tokens", text), f"byte_tokens({show(text)})")
            expected = ref.byte_tokens(text)
            check(got == expected, lambda: f"byte_tokens({show(text)}) returned "
                                           f"{versus(got, expected)}")
    failures.report()


@pytest.mark.points(2)
def test_byte_detokenize(student):
    """byte_detokenize drops IDs 0-2, decodes with errors="replace", refuses IDs past 258"""
    failures = Failures()
    cut = [3 + b for b in "é".encode()][:1]  # half of a two-byte character
    # 258 is byte 255, which no UTF-8 text holds: the highest ID, decoded as U+FFFD
    cases = [ref.byte_tokens(t) for t in TEXTS] + [[0, 0, *ref.byte_tokens("pad")], cut,
                                                   [2, 107, 108, 1, 0], [258, 107, 1]]
    for ids in cases:
        with failures.case():
            what = f"byte_detokenize({show(ids)})"
            got = expect_str(student.call("byte_detokenize", ids), what)
            expected = ref.byte_detokenize(ids)
            check(got == expected, lambda: f"{what} returned {versus(got, expected)}")
    for ids in ([259], [3, -1], [300, 4], [3, True], [3, 4.0]):
        with failures.case():
            expect_raises("ValueError", f"byte_detokenize({ids})", student.call,
                          "byte_detokenize", ids)
    failures.report()


@pytest.mark.points(3)
def test_patchify(student):
    """patchify: row-major patches, flattened (row, column, channel); ValueError if not divisible"""
    failures = Failures()
    r = rng(501)
    for shape, patch in (((4, 4, 1), 2), ((6, 4, 3), 2), ((8, 12, 2), 4), ((5, 5, 3), 5),
                         ((224, 224, 3), 16)):
        image = r.integers(0, 256, size=shape).astype(np.float64)  # exact in any float dtype
        with failures.case():
            got = student.call("patchify", image, patch)
            expect_close(got, ref.patchify(image, patch),
                         f"patchify(an image of shape {shape}, {patch})", EXACT)
    for shape, patch in (((6, 4, 3), 4), ((6, 6, 1), 0), ((6, 6), 2)):
        with failures.case():
            expect_raises("ValueError", f"patchify(an image of shape {shape}, {patch})",
                          student.call, "patchify", np.zeros(shape), patch)
    failures.report()


def separated(seed: int, n: int, k: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Vectors and a codebook whose nearest distances are clear of the second nearest."""
    r = rng(seed)
    codebook = r.normal(size=(k, d))
    vectors = r.normal(size=(n, d))
    distances = ((vectors[:, None, :] - codebook[None]) ** 2).sum(-1) if n * k * d < 1e7 else \
        (vectors ** 2).sum(1)[:, None] - 2 * vectors @ codebook.T + (codebook ** 2).sum(1)
    two = np.sort(distances, axis=1)[:, :2]
    keep = two[:, 1] - two[:, 0] > 1e-6 * np.abs(two[:, 1]) + 1e-9
    return vectors[keep], codebook


@pytest.mark.points(2)
def test_vq_tokenize(student):
    """vq_tokenize: the nearest codebook row by squared distance, ties to the smallest index"""
    failures = Failures()
    for seed, n, k, d in ((510, 20, 4, 2), (511, 300, 32, 8), (512, 50, 7, 16)):
        vectors, codebook = separated(seed, n, k, d)
        with failures.case():
            got = student.call("vq_tokenize", vectors, codebook)
            expect_close(got, ref.vq_tokenize(vectors, codebook),
                         f"vq_tokenize({len(vectors)} vectors, a codebook of {k} x {d})",
                         EXACT, kind="int")
    vectors, codebook = separated(510, 20, 4, 2)
    with failures.case():  # the notebook accepts a list wherever it expects an array
        got = student.call("vq_tokenize", vectors.tolist(), codebook.tolist())
        expect_close(got, ref.vq_tokenize(vectors, codebook),
                     "vq_tokenize(20 vectors as a list, a codebook of 4 x 2 as a list)",
                     EXACT, kind="int")
    one_code = np.array([[0.5, -0.5]])
    with failures.case():
        got = student.call("vq_tokenize", np.ones((3, 2)), one_code)
        expect_close(got, np.zeros(3, dtype=int), "vq_tokenize with a codebook of one code",
                     EXACT, kind="int")
    for vectors, book, what in ((np.ones(4), np.ones((2, 4)), "vectors of one axis"),
                                (np.ones((3, 4)), np.ones((2, 5)), "vectors of 4 dimensions "
                                 "and codes of 5")):
        with failures.case():  # shapes that do not fit: the notebook's contract
            expect_raises("ValueError", f"vq_tokenize({what})", student.call, "vq_tokenize",
                          vectors, book)
    tied = np.array([[0.0, 0.0], [1.0, 1.0]])
    book = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [1.0, 1.0]])  # row 0: 3 codes at 1
    with failures.case():
        got = student.call("vq_tokenize", tied, book)
        expect_close(got, np.array([0, 3]), "vq_tokenize with codes at equal distances "
                     "(ties go to the smallest index)", EXACT, kind="int")
    failures.report()


LARGE = (4_000, 512, 64)


@pytest.mark.points(2)
def test_vq_tokenize_fits_in_memory(student):
    """vq_tokenize on 4,000 vectors and 512 codes of 64 dimensions fits in a worker's memory"""
    n, k, d = LARGE
    vectors, codebook = separated(520, n, k, d)
    try:
        got = student.call("vq_tokenize", vectors, codebook)
    except StudentError as exc:
        if exc.is_a("MemoryError"):
            gib = n * k * d * 8 / 2**30
            raise AssertionError(
                f"your code ran out of memory{raised_at(exc)} on {n:,} vectors and {k} codes "
                f"of {d} dimensions: an (N, K, D) array of float64 there is {gib:.1f} GiB. "
                "Expand |x - c|^2 = |x|^2 - 2 x.c + |c|^2 and compare an (N, K) array (16 MB), "
                "or go through the vectors in chunks") from None
        raise
    expect_close(got, ref.vq_tokenize(vectors, codebook),
                 f"vq_tokenize({len(vectors):,} vectors, a codebook of {k} x {d})", EXACT,
                 kind="int")


@pytest.mark.points(2)
def test_incomplete_utf8_tokens(student):
    """incomplete_utf8_tokens: GPT-2's 344 tokens whose bytes are not valid UTF-8 alone"""
    failures = Failures()
    for vocab, key, what in ((SMALL_VOCAB, "small", "a small GPT-2 style vocabulary"),
                             (REVERSED_VOCAB, "reversed", "a vocabulary listed from its "
                              "largest ID down"), (GPT2_VOCAB, "GPT-2", "GPT-2's")):
        with failures.case():
            got = expect_ids(student.call("incomplete_utf8_tokens", vocab),
                             f"incomplete_utf8_tokens({what})")
            expected = INCOMPLETE[key]
            check(got == expected, lambda: f"incomplete_utf8_tokens({what}) returned "
                                           f"{versus(got, expected)}")
    failures.report()


@pytest.mark.points(1)
def test_unused_tokens(student):
    """unused_tokens: the sorted IDs that never occur"""
    failures = Failures()
    r = rng(530)
    # A list too: the notebook accepts one wherever it expects an array.
    for ids, size in ((np.array([0, 2, 2, 5]), 7), (r.integers(0, 500, size=300), 600),
                      (np.zeros(0, dtype=np.int64), 3), (r.integers(0, 50_257, size=20_000)
                                                         .astype(np.uint16), 50_257),
                      ([0, 2], 5)):
        with failures.case():
            got = student.call("unused_tokens", ids, size)
            given = show(ids) if isinstance(ids, list) else f"{len(ids)} IDs"
            expect_close(got, ref.unused_tokens(ids, size), f"unused_tokens({given}, {size})",
                         EXACT, kind="int")
    failures.report()


@pytest.mark.points(1)
def test_bytes_per_token_constants(student):
    """Q_BYTES_PER_GPT2_TOKEN (3.2997) and Q_BYTE_LEVEL_ATTENTION_FACTOR (its square)"""
    failures = Failures()
    close = Tolerance(relative=1e-3, measured="4 significant digits asked")
    for name, expected in (("Q_BYTES_PER_GPT2_TOKEN", ref.Q_BYTES_PER_GPT2_TOKEN),
                           ("Q_BYTE_LEVEL_ATTENTION_FACTOR", ref.Q_BYTE_LEVEL_ATTENTION_FACTOR)):
        with failures.case():
            value = student.get(None, name)
            check(type(value) in (int, float) and abs(value - expected) <= close.relative *
                  expected, lambda: f"{name} is {show(value)}: not the notebook's answer")
    failures.report()
