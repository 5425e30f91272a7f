"""Part 6 (what a context costs): wrong implementations students hand in.

A KV cache that holds the keys only, a score matrix priced for one sequence whatever the
batch, attention FLOPs that count a multiply-add as one operation or forget ``V``, a
longest context rounded up or kept strictly under the memory, sizes left unchecked (all
of them in ``attention_flops``; ``batch`` and ``bytes_per_value`` in ``kv_cache_bytes``, and
all of them in ``context_cost``), a context priced by its characters rather than by the
tokenizer's tokens, and three
constants: Llama-3-8B with a KV head per query head (no grouped-query attention),
Llama-2-7B's cache at 4,096 tokens in GB where the question asks for GiB, and the longest
Llama-3-8B context in 80 GiB where the question says 80 GB.
"""

from ..catalogue import differs
from . import wrong
from .helpers import mutated

KV = """
def kv_cache_bytes(n_layers, n_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    sizes = {"n_layers": n_layers, "n_kv_heads": n_kv_heads, "head_dim": head_dim,
             "seq_len": seq_len, "batch": batch, "bytes_per_value": bytes_per_value}
    for name, value in sizes.items():
        check_size(value, name)
    return 2 * n_layers * n_kv_heads * head_dim * seq_len * batch * bytes_per_value
"""


@wrong(6, "the cache keeps a vector per token, layer and head: the key",
       mutated(KV, "return 2 * n_layers", "return n_layers"))
def p6_kv_cache_keys_only(bug, ref):
    differs(bug, ref, lambda ns: ns["kv_cache_bytes"](12, 12, 64, 1))


@wrong(6, "the sizes to check are the model's; batch and bytes_per_value have defaults",
       """
def kv_cache_bytes(n_layers, n_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    for name, value in (("n_layers", n_layers), ("n_kv_heads", n_kv_heads),
                        ("head_dim", head_dim), ("seq_len", seq_len)):
        check_size(value, name)
    return 2 * n_layers * n_kv_heads * head_dim * seq_len * batch * bytes_per_value
""")
def p6_kv_cache_defaults_unchecked(bug, ref):
    differs(bug, ref, lambda ns: ns["kv_cache_bytes"](32, 8, 128, 10, 0))


@wrong(6, "the score matrix is seq_len x seq_len per head; the batch does not enter",
       """
def attention_score_bytes(n_heads, seq_len, batch=1, bytes_per_value=2):
    check_size(batch, "batch")
    return (check_size(n_heads, "n_heads") * check_size(seq_len, "seq_len") ** 2
            * check_size(bytes_per_value, "bytes_per_value"))
""")
def p6_score_bytes_without_the_batch(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_score_bytes"](8, 3, 5, 4))


FLOPS = """
def attention_flops(seq_len, d_model, n_layers):
    seq_len = check_size(seq_len, "seq_len")
    d_model = check_size(d_model, "d_model")
    n_layers = check_size(n_layers, "n_layers")
    return n_layers * 4 * seq_len ** 2 * d_model
"""


@wrong(6, "QK^T and the weighted sum of V cost seq_len^2 * d_model each: one FLOP per "
          "multiply-add",
       mutated(FLOPS, "n_layers * 4 *", "n_layers * 2 *"))
def p6_attention_flops_factor_two(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_flops"](3, 5, 7))


@wrong(6, "a size is whatever number the caller passes",
       """
def attention_flops(seq_len, d_model, n_layers):
    return n_layers * 4 * seq_len ** 2 * d_model
""")
def p6_attention_flops_unchecked(bug, ref):
    differs(bug, ref, lambda ns: ns["attention_flops"](0, 64, 2))


CONTEXT = """
def max_context(memory_bytes, n_layers, n_kv_heads, head_dim, batch=1, bytes_per_value=2):
    per_token = kv_cache_bytes(n_layers, n_kv_heads, head_dim, 1, batch, bytes_per_value)
    memory_bytes = check_size(memory_bytes, "memory_bytes")
    return memory_bytes // per_token
"""


@wrong(6, "the memory divided by a token's cache, rounded up",
       mutated(CONTEXT, "return memory_bytes // per_token",
               "return -(-memory_bytes // per_token)"))
def p6_max_context_rounds_up(bug, ref):
    differs(bug, ref, lambda ns: ns["max_context"](36_863, 12, 12, 64))


@wrong(6, "the cache must stay below the memory, not reach it",
       mutated(CONTEXT, "return memory_bytes // per_token",
               "return (memory_bytes - 1) // per_token"))
def p6_max_context_strictly_below(bug, ref):
    differs(bug, ref, lambda ns: ns["max_context"](36_864, 12, 12, 64))


@wrong(6, "a context is as long as its text",
       """
def context_cost(text, encode, d_model, n_layers, bytes_per_value=2):
    d_model, n_layers = check_size(d_model, "d_model"), check_size(n_layers, "n_layers")
    bytes_per_value = check_size(bytes_per_value, "bytes_per_value")
    tokens = len(text)
    return {"tokens": tokens,
            "kv_cache_bytes": 2 * n_layers * d_model * tokens * bytes_per_value,
            "attention_flops": n_layers * 4 * tokens ** 2 * d_model}
""")
def p6_context_cost_counts_characters(bug, ref):
    differs(bug, ref, lambda ns: ns["context_cost"]("hello", ns["byte_tokens"], 64, 2))


@wrong(6, "context_cost only multiplies: the encoder's tokens are what can go wrong",
       """
def context_cost(text, encode, d_model, n_layers, bytes_per_value=2):
    tokens = len(encode(text))
    return {"tokens": tokens,
            "kv_cache_bytes": 2 * n_layers * d_model * tokens * bytes_per_value,
            "attention_flops": n_layers * 4 * tokens ** 2 * d_model}
""")
def p6_context_cost_unchecked(bug, ref):
    differs(bug, ref, lambda ns: ns["context_cost"]("abc", ns["byte_tokens"], 0, 2))


@wrong(6, "Llama-3-8B has as many KV heads as query heads (32)",
       """
Q_LLAMA3_8B_KV_BYTES_PER_TOKEN = 2 * 32 * 32 * 128 * 2
""")
def p6_llama3_without_grouped_query_attention(bug, ref):
    differs(bug, ref, lambda ns: ns["Q_LLAMA3_8B_KV_BYTES_PER_TOKEN"])


@wrong(6, "a GiB is 10^9 bytes",
       """
Q_LLAMA2_7B_KV_GIB_AT_4096 = 2 * 32 * 32 * 128 * 2 * 4_096 / 1e9
""")
def p6_llama2_cache_in_gb(bug, ref):
    differs(bug, ref, lambda ns: ns["Q_LLAMA2_7B_KV_GIB_AT_4096"])


@wrong(6, "80 GB of GPU memory is 80 GiB",
       """
Q_LLAMA3_8B_MAX_CONTEXT_80GB = 80 * 2**30 // (2 * 32 * 8 * 128 * 2)
""")
def p6_llama3_context_in_80_gib(bug, ref):
    differs(bug, ref, lambda ns: ns["Q_LLAMA3_8B_MAX_CONTEXT_80GB"])
