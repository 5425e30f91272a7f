"""Part 6: the memory and compute one context of tokens costs at inference.

The KV cache keeps a key and a value vector per token, per layer, per KV head; attention
compares every query with every key, so its score matrix and its FLOPs grow with the square
of the context. These close the loop of the first assignment: a tokenizer that needs more
tokens for the same text pays for each of them here, linearly in the cache and
quadratically in attention.

Left out: the projections' FLOPs (``2 * 12 d^2`` per token and layer in a GPT block), the
MLP, activations, optimizer state, and FlashAttention's tiling (it avoids storing the
scores; it still computes them).
"""

from collections.abc import Callable

from .embedding import check_size

# Bytes per token of the KV cache at fp16 (keys and values, every layer).
Q_GPT2_KV_BYTES_PER_TOKEN = 2 * 12 * 12 * 64 * 2  # 36,864
Q_LLAMA2_7B_KV_BYTES_PER_TOKEN = 2 * 32 * 32 * 128 * 2  # 524,288 (512 KiB)
Q_LLAMA3_8B_KV_BYTES_PER_TOKEN = 2 * 32 * 8 * 128 * 2  # 131,072: grouped-query attention
# Llama-2-7B's cache for one sequence of 4,096 tokens at fp16, in GiB.
Q_LLAMA2_7B_KV_GIB_AT_4096 = Q_LLAMA2_7B_KV_BYTES_PER_TOKEN * 4_096 / 2**30  # 2.0
# The longest context whose Llama-3-8B cache fits in 80 GB (80e9 bytes) at batch 1, fp16.
Q_LLAMA3_8B_MAX_CONTEXT_80GB = 80_000_000_000 // Q_LLAMA3_8B_KV_BYTES_PER_TOKEN  # 610,351


def kv_cache_bytes(n_layers: int, n_kv_heads: int, head_dim: int, seq_len: int, batch: int = 1,
                   bytes_per_value: int = 2) -> int:
    """``2 * n_layers * n_kv_heads * head_dim * seq_len * batch * bytes_per_value``: a key
    and a value per token, layer and KV head. ``ValueError`` for a size that is not a
    positive int."""
    sizes = (n_layers, n_kv_heads, head_dim, seq_len, batch, bytes_per_value)
    names = ("n_layers", "n_kv_heads", "head_dim", "seq_len", "batch", "bytes_per_value")
    product = 2
    for value, name in zip(sizes, names):
        product *= check_size(value, name)
    return product


def attention_score_bytes(n_heads: int, seq_len: int, batch: int = 1,
                          bytes_per_value: int = 2) -> int:
    """The score matrix of one layer, ``batch * n_heads * seq_len^2 * bytes_per_value``:
    what attention would hold if it stored every score (FlashAttention does not)."""
    return (check_size(batch, "batch") * check_size(n_heads, "n_heads")
            * check_size(seq_len, "seq_len") ** 2 * check_size(bytes_per_value,
                                                               "bytes_per_value"))


def attention_flops(seq_len: int, d_model: int, n_layers: int) -> int:
    """``n_layers * 4 * seq_len^2 * d_model``: ``Q K^T`` and the weighted sum of ``V``, two
    FLOPs per multiply-add, projections left out."""
    return (check_size(n_layers, "n_layers") * 4 * check_size(seq_len, "seq_len") ** 2
            * check_size(d_model, "d_model"))


def max_context(memory_bytes: int, n_layers: int, n_kv_heads: int, head_dim: int,
                batch: int = 1, bytes_per_value: int = 2) -> int:
    """The longest ``seq_len`` whose KV cache fits in ``memory_bytes`` (0 when not even one
    token fits)."""
    per_token = kv_cache_bytes(n_layers, n_kv_heads, head_dim, 1, batch, bytes_per_value)
    return check_size(memory_bytes, "memory_bytes") // per_token


def context_cost(text: str, encode: Callable[[str], list[int]], d_model: int, n_layers: int,
                 bytes_per_value: int = 2) -> dict[str, int]:
    """What one text costs a model with multi-head attention (KV width ``d_model``) under a
    tokenizer's ``encode``: its tokens, its KV cache in bytes and its attention FLOPs."""
    d_model, n_layers = check_size(d_model, "d_model"), check_size(n_layers, "n_layers")
    bytes_per_value = check_size(bytes_per_value, "bytes_per_value")
    tokens = len(encode(text))
    return {"tokens": tokens,
            "kv_cache_bytes": 2 * n_layers * d_model * tokens * bytes_per_value,
            "attention_flops": n_layers * 4 * tokens ** 2 * d_model}
