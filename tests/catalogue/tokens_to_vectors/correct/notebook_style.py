# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Tokens to vectors (a correct submission written the way students write notebooks)
#
# Catalogue: a correct submission, converted to ``.ipynb`` by the catalogue test. Every
# function checks its own arguments inline, formulas follow the papers' notation, and demo
# cells print what they compute. Nothing may be charged.

# %%
import math
import random

import numpy as np

# %% [markdown]
# ## Part 1: the embedding table

# %%
def embedding_lookup(ids, table):
    table = np.asarray(table)
    ids = np.asarray(ids)
    if table.ndim != 2:
        raise ValueError("table must have shape (V, d)")
    if ids.size == 0:
        return np.zeros(ids.shape + (table.shape[1],), dtype=table.dtype)
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"IDs must be integers, the first bad ID is {ids.flat[0].item()}")
    outside = (ids < 0) | (ids >= len(table))
    if outside.any():
        raise ValueError(f"bad token ID {ids[outside][0]} for a table of {len(table)} rows")
    return np.take(table, ids, axis=0)


def one_hot(ids, vocab_size):
    if type(vocab_size) is not int or vocab_size <= 0:
        raise ValueError("vocab_size must be a positive int")
    ids = np.asarray(ids)
    if ids.size and not np.issubdtype(ids.dtype, np.integer):
        raise ValueError("IDs must be integers")
    if ids.size and (ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError("an ID is outside the vocabulary")
    return np.eye(vocab_size)[ids.astype(int)]


def padded_vocab_size(vocab_size, multiple=64):
    for value in (vocab_size, multiple):
        if type(value) is not int or value <= 0:
            raise ValueError(f"sizes must be positive ints, got {value!r}")
    return math.ceil(vocab_size / multiple) * multiple


def gpt_parameter_count(vocab_size, n_positions, d_model, n_layers, tied=True):
    for value in (vocab_size, n_positions, d_model, n_layers):
        if type(value) is not int or value <= 0:
            raise ValueError(f"sizes must be positive ints, got {value!r}")
    if type(tied) is not bool:
        raise ValueError("tied must be True or False")
    d = d_model
    block = 12 * d * d + 13 * d
    total = (vocab_size + n_positions) * d + n_layers * block + 2 * d
    if not tied:
        total += vocab_size * d
    return total


Q_EMBEDDING_MIB = 50257 * 768 * 4 / 1024 / 1024
Q_EMBEDDING_SHARE = 50257 * 768 / gpt_parameter_count(50257, 1024, 768, 12)
Q_PADDED_EXTRA_ROWS = padded_vocab_size(50257) - 50257

# %%
table = np.random.default_rng(0).normal(size=(10, 4))
print(embedding_lookup([1, 2, 3], table).shape)
print(np.allclose(one_hot([1, 2, 3], 10) @ table, embedding_lookup([1, 2, 3], table)))
print(gpt_parameter_count(50257, 1024, 768, 12), Q_EMBEDDING_MIB, Q_EMBEDDING_SHARE)

# %% [markdown]
# ## Part 2: absolute positions

# %%
def sinusoidal_positions(n_positions, d_model, base=10000.0):
    if type(n_positions) is not int or n_positions <= 0:
        raise ValueError("n_positions must be a positive int")
    if type(d_model) is not int or d_model <= 0 or d_model % 2 == 1:
        raise ValueError("d_model must be a positive even int")
    pe = np.zeros((n_positions, d_model))
    position = np.arange(n_positions).reshape(-1, 1)
    div_term = np.exp(np.arange(0, d_model, 2) * (-math.log(base) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def sinusoidal_shift(k, d_model, base=10000.0):
    if type(k) is not int:
        raise ValueError("k must be an int")
    if type(d_model) is not int or d_model <= 0 or d_model % 2 == 1:
        raise ValueError("d_model must be a positive even int")
    blocks = []
    for i in range(d_model // 2):
        angle = k * base ** (-2 * i / d_model)
        blocks.append(np.array([[math.cos(angle), -math.sin(angle)],
                                [math.sin(angle), math.cos(angle)]]))
    m = np.zeros((d_model, d_model))
    for i, block in enumerate(blocks):
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = block
    return m


def add_learned_positions(token_vectors, position_table):
    x = np.asarray(token_vectors)
    wpe = np.asarray(position_table)
    t = x.shape[-2]
    if t > wpe.shape[0]:
        raise ValueError(f"Cannot forward sequence of length {t}, block size is only "
                         f"{wpe.shape[0]}")
    return x + wpe[:t]

# %%
pe = sinusoidal_positions(50, 16)
print(np.allclose(pe[3:13] @ sinusoidal_shift(7, 16), pe[10:20]))

# %% [markdown]
# ## Part 3: RoPE and ALiBi

# %%
def rope_frequencies(head_dim, base=10000.0):
    if type(head_dim) is not int or head_dim <= 0 or head_dim % 2:
        raise ValueError("head_dim must be a positive even int")
    return 1.0 / (base ** (np.arange(0, head_dim, 2) / head_dim))


def apply_rope(x, positions, base=10000.0):
    x = np.asarray(x, dtype=float)
    freqs = np.outer(np.asarray(positions), rope_frequencies(x.shape[-1], base))
    emb = np.concatenate((freqs, freqs), axis=-1)
    x1, x2 = np.split(x, 2, axis=-1)
    return x * np.cos(emb) + np.concatenate((-x2, x1), axis=-1) * np.sin(emb)


def alibi_slopes(n_heads):
    if type(n_heads) is not int or n_heads <= 0:
        raise ValueError("n_heads must be a positive int")

    def power_of_2(n):
        return [2 ** (-8 * (i + 1) / n) for i in range(n)]

    c = 2 ** int(math.log2(n_heads))
    slopes = power_of_2(c)
    if c < n_heads:
        slopes += power_of_2(2 * c)[0::2][: n_heads - c]
    return np.array(slopes)


def alibi_bias(n_heads, seq_len):
    slopes = alibi_slopes(n_heads)
    if type(seq_len) is not int or seq_len <= 0:
        raise ValueError("seq_len must be a positive int")
    distance = np.arange(seq_len)[:, None] - np.arange(seq_len)[None, :]
    bias = -slopes.reshape(-1, 1, 1) * distance
    bias[:, np.triu_indices(seq_len, 1)[0], np.triu_indices(seq_len, 1)[1]] = -np.inf
    return bias

# %%
q = np.random.default_rng(1).normal(size=(4, 8))
print(apply_rope(q, np.arange(4)).round(3))
print(alibi_slopes(12).round(6))
print(alibi_bias(2, 4))

# %% [markdown]
# ## Part 4: BPE-dropout
#
# The authors' `tokenize_word`: the lowest-ranked pair, leftmost first, one coin per
# candidate; a dropped position sits out until the next merge.

# %%
def bpe_dropout(word, merges, p, rng):
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"p must be a probability, got {p!r}")
    bpe_codes = {}
    for rank, pair in enumerate(merges):
        bpe_codes.setdefault(tuple(pair), rank)
    word = list(word)
    skipped = []
    while len(word) > 1:
        pairs = [(bpe_codes[pair], i) for i, pair in enumerate(zip(word, word[1:]))
                 if pair in bpe_codes and i not in skipped]
        if not pairs:
            break
        _, i = min(pairs)
        if rng.random() < p:
            skipped.append(i)
            continue
        word = word[:i] + [word[i] + word[i + 1]] + word[i + 2:]
        skipped = []
    return word


def dropout_segmentations(word, merges, p, trials, seed):
    if type(trials) is not int or trials <= 0:
        raise ValueError("trials must be a positive int")
    rng = random.Random(seed)
    counts = {}
    for _ in range(trials):
        pieces = tuple(bpe_dropout(word, merges, p, rng))
        counts[pieces] = counts.get(pieces, 0) + 1
    return counts

# %%
merges = [("l", "o"), ("lo", "w"), ("e", "r"), ("low", "er")]
print(bpe_dropout("lower", merges, 0.0, random.Random(0)))
print(dropout_segmentations("lower", merges, 0.3, 1000, 0))

# %% [markdown]
# ## Part 5: bytes, patches, codes, and GPT-2's odd tokens

# %%
def byte_tokens(text):
    return [b + 3 for b in text.encode("utf-8")] + [1]


def byte_detokenize(ids):
    out = bytearray()
    for i in ids:
        if type(i) is not int or not 0 <= i <= 258:
            raise ValueError(f"not a ByT5 ID: {i!r}")
        if i > 2:
            out.append(i - 3)
    return out.decode("utf-8", errors="replace")


def patchify(image, patch):
    image = np.asarray(image)
    if image.ndim != 3:
        raise ValueError("image must be (H, W, C)")
    h, w, c = image.shape
    if type(patch) is not int or patch <= 0 or h % patch or w % patch:
        raise ValueError(f"patch {patch!r} does not divide {h} x {w}")
    tokens = []
    for top in range(0, h, patch):
        for left in range(0, w, patch):
            tokens.append(image[top:top + patch, left:left + patch, :].reshape(-1))
    return np.stack(tokens)


def vq_tokenize(vectors, codebook):
    z = np.asarray(vectors, dtype=float)
    e = np.asarray(codebook, dtype=float)
    if z.ndim != 2 or e.ndim != 2 or z.shape[1] != e.shape[1] or len(e) == 0:
        raise ValueError("vectors (N, D) and codebook (K, D) must share D")
    d = (z ** 2).sum(axis=1, keepdims=True) + (e ** 2).sum(axis=1) - 2 * z @ e.T
    return np.argmin(d, axis=1)


def bytes_to_unicode():
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
          + list(range(ord("®"), ord("ÿ") + 1)))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def incomplete_utf8_tokens(vocab):
    byte_decoder = {v: k for k, v in bytes_to_unicode().items()}
    ids = []
    for token, i in vocab.items():
        try:
            bytearray(byte_decoder[c] for c in token).decode("utf-8")
        except UnicodeDecodeError:
            ids.append(i)
    return sorted(ids)


def unused_tokens(ids, vocab_size):
    seen = set(np.asarray(ids).tolist())
    return np.array([i for i in range(vocab_size) if i not in seen], dtype=np.int64)


Q_BYTES_PER_GPT2_TOKEN = 1_115_394 / 338_025
Q_BYTE_LEVEL_ATTENTION_FACTOR = Q_BYTES_PER_GPT2_TOKEN ** 2

# %%
print(byte_tokens("héllo"), byte_detokenize(byte_tokens("héllo")))
print(patchify(np.zeros((224, 224, 3)), 16).shape)
print(incomplete_utf8_tokens({"Ã": 0, "Ã©": 1, "a": 2}), unused_tokens([0, 2, 2], 5))

# %% [markdown]
# ## Part 6: what a context costs

# %%
def sizes_ok(*sizes):
    for size in sizes:
        if type(size) is not int or size <= 0:
            raise ValueError(f"a size must be a positive int, got {size!r}")


def kv_cache_bytes(n_layers, n_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    sizes_ok(n_layers, n_kv_heads, head_dim, seq_len, batch, bytes_per_value)
    return 2 * n_layers * n_kv_heads * head_dim * seq_len * batch * bytes_per_value


def attention_score_bytes(n_heads, seq_len, batch=1, bytes_per_value=2):
    sizes_ok(n_heads, seq_len, batch, bytes_per_value)
    return batch * n_heads * seq_len * seq_len * bytes_per_value


def attention_flops(seq_len, d_model, n_layers):
    sizes_ok(seq_len, d_model, n_layers)
    return n_layers * 4 * seq_len * seq_len * d_model


def max_context(memory_bytes, n_layers, n_kv_heads, head_dim, batch=1, bytes_per_value=2):
    sizes_ok(memory_bytes)
    return memory_bytes // kv_cache_bytes(n_layers, n_kv_heads, head_dim, 1, batch,
                                          bytes_per_value)


def context_cost(text, encode, d_model, n_layers, bytes_per_value=2):
    sizes_ok(d_model, n_layers, bytes_per_value)
    t = len(encode(text))
    return {"tokens": t, "kv_cache_bytes": 2 * n_layers * d_model * t * bytes_per_value,
            "attention_flops": n_layers * 4 * t * t * d_model}


Q_GPT2_KV_BYTES_PER_TOKEN = kv_cache_bytes(12, 12, 64, 1)
Q_LLAMA2_7B_KV_BYTES_PER_TOKEN = kv_cache_bytes(32, 32, 128, 1)
Q_LLAMA3_8B_KV_BYTES_PER_TOKEN = kv_cache_bytes(32, 8, 128, 1)
Q_LLAMA2_7B_KV_GIB_AT_4096 = kv_cache_bytes(32, 32, 128, 4096) / 2**30
Q_LLAMA3_8B_MAX_CONTEXT_80GB = max_context(80_000_000_000, 32, 8, 128)

# %%
print(Q_GPT2_KV_BYTES_PER_TOKEN, Q_LLAMA2_7B_KV_GIB_AT_4096, Q_LLAMA3_8B_MAX_CONTEXT_80GB)
print(context_cost("tokens cost", byte_tokens, 768, 12))
