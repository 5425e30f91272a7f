"""Part 6: the memory and compute of a context (20 points).

Every answer is an integer, graded exactly: on the facts of the notebook (GPT-2 small,
Llama-2-7B, Llama-3-8B with grouped-query attention), on random sizes against the
reference, at the boundary of ``max_context`` (the cache of the answer fits, one more token
does not), with every named error, and the named constants. ``context_cost`` is given an
encoder that lives in the worker: Part 5's ``byte_tokens``, which stands in as the
reference while Part 6 is graded.
"""

import random

import pytest

import solutions.tokens_to_vectors as ref
from autograder.suite.checks import Failures, check, expect_raises, is_int, show, versus
from autograder.suite.remote import handle, many

PART = 6

RNG = random.Random(6001)
KV_CASES = [tuple(RNG.randrange(1, 100) for _ in range(4)) + (RNG.randrange(1, 9),
                                                              RNG.choice([1, 2, 4]))
            for _ in range(30)]


def exact(student, name: str, args: tuple, expected: int, failures: Failures) -> None:
    with failures.case():
        got = student.call(name, *args)
        check(is_int(got) and got == expected,
              lambda: f"{name}{args} returned {versus(got, expected)}")


@pytest.mark.points(3)
def test_kv_cache_facts(student):
    """kv_cache_bytes: GPT-2 36,864 B a token, Llama-2-7B 512 KiB (4 GiB at 8,192), GQA 128 KiB"""
    failures = Failures()
    facts = [((12, 12, 64, 1), 36_864), ((32, 32, 128, 1), 524_288),
             ((32, 32, 128, 8_192), 4 * 2**30), ((32, 8, 128, 1), 131_072),
             ((12, 12, 64, 1_024, 8, 4), 36_864 * 1_024 * 8 * 2)]
    for args, expected in facts:
        exact(student, "kv_cache_bytes", args, expected, failures)
    failures.report()


@pytest.mark.points(2)
def test_kv_cache_random(student):
    """kv_cache_bytes == 2 * layers * kv_heads * head_dim * seq_len * batch * bytes_per_value"""
    got = many(student, "kv_cache_bytes", *map(list, zip(*KV_CASES)))
    for args, value in zip(KV_CASES, got):
        expected = ref.kv_cache_bytes(*args)
        check(is_int(value) and value == expected,
              lambda: f"kv_cache_bytes{args} returned {versus(value, expected)}")


@pytest.mark.points(2)
def test_attention_score_bytes(student):
    """attention_score_bytes == batch * heads * seq_len^2 * bytes_per_value"""
    failures = Failures()
    for args in ((12, 1_024), (32, 4_096, 1, 2), (8, 3, 5, 4), (1, 1), (16, 2_048, 4, 1)):
        exact(student, "attention_score_bytes", args, ref.attention_score_bytes(*args),
              failures)
    failures.report()


@pytest.mark.points(2)
def test_attention_flops(student):
    """attention_flops == layers * 4 * seq_len^2 * d_model"""
    failures = Failures()
    for args in ((1_024, 768, 12), (4_096, 4_096, 32), (1, 1, 1), (3, 5, 7), (100_000, 64, 2)):
        exact(student, "attention_flops", args, ref.attention_flops(*args), failures)
    failures.report()


@pytest.mark.points(3)
def test_max_context(student):
    """max_context: the longest context whose KV cache fits (80 GB, Llama-3-8B: 610,351 tokens)"""
    failures = Failures()
    cases = [(80_000_000_000, 32, 8, 128), (80_000_000_000, 32, 32, 128),
             (16 * 2**30, 12, 12, 64, 4), (36_863, 12, 12, 64), (36_864, 12, 12, 64),
             (10**12, 80, 8, 128, 16, 1)]
    for args in cases:
        exact(student, "max_context", args, ref.max_context(*args), failures)
    failures.report()


TEXTS = ["", "hello", "naïve café", "tokens 🙂 cost", "x" * 300]


@pytest.mark.points(3)
def test_context_cost(student):
    """context_cost counts the encoder's tokens and prices their KV cache and attention"""
    encode = handle(student, "byte_tokens")
    failures = Failures()
    for text in TEXTS:
        for d_model, layers, width in ((768, 12, None), (64, 2, 4)):  # None: the default, 2
            given = () if width is None else (width,)
            expected = ref.context_cost(text, ref.byte_tokens, d_model, layers, *given)
            what = f"context_cost({show(text)}, byte_tokens, {d_model}, {layers}" + "".join(
                f", {w}" for w in given) + ")"
            with failures.case():
                got = student.call("context_cost", text, encode, d_model, layers, *given)
                check(type(got) is dict and set(got) >= set(expected),
                      lambda: f"{what} should return a dict with the keys "
                              f"{sorted(expected)}, got {show(got)}")
                for key, want in expected.items():
                    check(is_int(got[key]) and got[key] == want,
                          lambda: f"{what}[{key!r}] is {versus(got[key], want)}")
    failures.report()


@pytest.mark.points(2)
def test_sizes_must_be_positive_ints(student):
    """every function raises ValueError for a size that is 0, negative, a float or a bool"""
    failures = Failures()
    calls = [("kv_cache_bytes", (0, 8, 128, 10)), ("kv_cache_bytes", (32, 8, 128, -1)),
             ("kv_cache_bytes", (32, 8, 12.5, 10)), ("attention_score_bytes", (True, 10)),
             ("attention_flops", (0, 64, 2)), ("attention_flops", (10, 64.0, 2)),
             ("max_context", (-5, 32, 8, 128)), ("max_context", (10**9, 32, 0, 128)),
             ("kv_cache_bytes", (32, 8, 128, 10, 0)), ("kv_cache_bytes", (32, 8, 128, 10, 1, 0.5))]
    for name, args in calls:
        with failures.case():
            expect_raises("ValueError", f"{name}{args}", student.call, name, *args)
    encode = handle(student, "byte_tokens")
    for args in (("abc", encode, 0, 2), ("abc", encode, 64, -1), ("abc", encode, 64, 2, 0)):
        with failures.case():
            shown = ("'abc'", "byte_tokens", *map(str, args[2:]))
            expect_raises("ValueError", f"context_cost({', '.join(shown)})", student.call,
                          "context_cost", *args)
    failures.report()


@pytest.mark.points(3)
def test_context_constants(student):
    """the KV bytes per token of GPT-2, Llama-2-7B and Llama-3-8B, and the notebook's two answers"""
    failures = Failures()
    answers = [("Q_GPT2_KV_BYTES_PER_TOKEN", ref.Q_GPT2_KV_BYTES_PER_TOKEN),
               ("Q_LLAMA2_7B_KV_BYTES_PER_TOKEN", ref.Q_LLAMA2_7B_KV_BYTES_PER_TOKEN),
               ("Q_LLAMA3_8B_KV_BYTES_PER_TOKEN", ref.Q_LLAMA3_8B_KV_BYTES_PER_TOKEN),
               ("Q_LLAMA2_7B_KV_GIB_AT_4096", ref.Q_LLAMA2_7B_KV_GIB_AT_4096),
               ("Q_LLAMA3_8B_MAX_CONTEXT_80GB", ref.Q_LLAMA3_8B_MAX_CONTEXT_80GB)]
    for name, expected in answers:
        with failures.case():
            value = student.get(None, name)
            check(type(value) in (int, float) and value == expected,
                  lambda: f"{name} is {show(value)}: not the value the notebook asks for")
    failures.report()
