"""Part 6's reference: the KV cache and attention costs, against the models' published shapes.

The shapes are the models' configurations (GPT-2 small: 12 layers of 12 heads of 64; Llama 2
7B: 32 layers of 32 heads of 128; Llama 3 8B: 32 layers, 32 query heads and 8 KV heads of
128), and the costs are counted here tensor by tensor rather than by the spec's formulas.
"""

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref

from .conftest import CORPUS, IDS

# name: (layers, KV heads, head dimension)
MODELS = {"gpt2": (12, 12, 64), "llama2-7b": (32, 32, 128), "llama3-8b": (32, 8, 128)}


def cache_by_tensors(layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int,
                     bytes_per_value: int) -> int:
    """Allocate the cache as a model does: one key and one value tensor of shape
    (batch, KV heads, tokens, head dim) per layer, and add up their sizes."""
    dtype = {1: np.int8, 2: np.float16, 4: np.float32}[bytes_per_value]
    total = 0
    for _ in range(layers):
        for _ in ("key", "value"):
            total += np.empty((batch, kv_heads, tokens, head_dim), dtype=dtype).nbytes
    return total


def test_kv_cache_facts():
    assert ref.kv_cache_bytes(*MODELS["gpt2"], 1) == 36_864 == ref.Q_GPT2_KV_BYTES_PER_TOKEN
    assert ref.kv_cache_bytes(*MODELS["llama2-7b"], 1) == 524_288 == 512 * 2**10
    assert ref.Q_LLAMA2_7B_KV_BYTES_PER_TOKEN == 524_288
    assert ref.kv_cache_bytes(*MODELS["llama2-7b"], 8_192) == 4 * 2**30
    assert ref.Q_LLAMA2_7B_KV_GIB_AT_4096 == 2.0
    assert ref.kv_cache_bytes(*MODELS["llama3-8b"], 1) == 131_072 == (
        ref.Q_LLAMA3_8B_KV_BYTES_PER_TOKEN)
    # grouped-query attention: 8 KV heads instead of 32 is a quarter of the cache
    assert ref.kv_cache_bytes(32, 32, 128, 100) == 4 * ref.kv_cache_bytes(32, 8, 128, 100)


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize(("tokens", "batch", "bytes_per_value"), [(1, 1, 2), (7, 3, 2),
                                                                  (50, 2, 4), (33, 1, 1)])
def test_kv_cache_by_tensors(model, tokens, batch, bytes_per_value):
    shape = MODELS[model]
    expected = cache_by_tensors(*shape, tokens, batch, bytes_per_value)
    got = ref.kv_cache_bytes(*shape, tokens, batch=batch, bytes_per_value=bytes_per_value)
    assert type(got) is int and got == expected


def test_max_context_is_the_longest_that_fits():
    memory = 80_000_000_000
    longest = ref.max_context(memory, *MODELS["llama3-8b"])
    assert longest == ref.Q_LLAMA3_8B_MAX_CONTEXT_80GB == 610_351
    assert ref.kv_cache_bytes(*MODELS["llama3-8b"], longest) <= memory
    assert ref.kv_cache_bytes(*MODELS["llama3-8b"], longest + 1) > memory
    for memory, shape, batch in [(10**9, (12, 12, 64), 4), (36_864, (12, 12, 64), 1),
                                 (36_863, (12, 12, 64), 1), (123_456_789, (3, 5, 7), 2)]:
        longest = ref.max_context(memory, *shape, batch=batch)
        per_token = cache_by_tensors(*shape, 1, batch, 2)
        assert longest * per_token <= memory < (longest + 1) * per_token


def test_attention_scores_and_flops_by_counting():
    # one layer's scores: a (batch, heads, T, T) tensor
    assert ref.attention_score_bytes(12, 1_024) == np.empty((1, 12, 1_024, 1_024),
                                                            np.float16).nbytes
    assert ref.attention_score_bytes(4, 10, batch=3, bytes_per_value=4) == 3 * 4 * 100 * 4
    # Q K^T: T x T dot products of length d; then T x T weights times T x d values; each
    # multiply-add is two FLOPs
    for seq_len, d_model, layers in [(1, 1, 1), (1_024, 768, 12), (37, 64, 3)]:
        per_layer = 2 * (seq_len * seq_len * d_model) + 2 * (seq_len * seq_len * d_model)
        assert ref.attention_flops(seq_len, d_model, layers) == layers * per_layer


def test_context_cost_on_the_corpus():
    text = CORPUS.read_text(encoding="utf-8")
    ids = np.load(IDS).tolist()
    gpt2 = ref.context_cost(text, lambda _: ids, 768, 12)
    by_bytes = ref.context_cost(text, lambda t: list(t.encode("utf-8")), 768, 12)
    by_chars = ref.context_cost(text, list, 768, 12)
    assert gpt2["tokens"] == 338_025 and by_bytes["tokens"] == 1_115_394
    assert by_chars["tokens"] == len(text)
    assert gpt2["kv_cache_bytes"] == ref.kv_cache_bytes(12, 12, 64, 338_025)
    assert gpt2["attention_flops"] == ref.attention_flops(338_025, 768, 12)
    ratio = by_bytes["attention_flops"] / gpt2["attention_flops"]
    assert ratio == pytest.approx(ref.Q_BYTE_LEVEL_ATTENTION_FACTOR)
    assert ref.context_cost("", list, 8, 2) == {"tokens": 0, "kv_cache_bytes": 0,
                                                "attention_flops": 0}


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, None, "8"])
def test_sizes_must_be_positive_ints(bad):
    calls = [lambda: ref.kv_cache_bytes(bad, 12, 64, 10),
             lambda: ref.kv_cache_bytes(12, 12, 64, bad),
             lambda: ref.kv_cache_bytes(12, 12, 64, 10, batch=bad),
             lambda: ref.attention_score_bytes(bad, 10), lambda: ref.attention_flops(10, bad, 2),
             lambda: ref.max_context(bad, 12, 12, 64), lambda: ref.max_context(10**9, 12, bad, 64),
             lambda: ref.context_cost("abc", list, bad, 2),
             lambda: ref.context_cost("abc", list, 8, 2, bytes_per_value=bad)]
    for call in calls:
        with pytest.raises(ValueError):
            call()
