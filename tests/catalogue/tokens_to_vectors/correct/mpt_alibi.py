"""ALiBi as MPT builds it (catalogue: a correct alternative, edited into the reference).

MPT's ``build_alibi_bias`` adds ``slope * (j - (T - 1))``, a key's distance from the last
position, which differs from the spec's ``-slope * (i - j)`` by a constant per row; its
causal mask is the dtype's most negative finite value, whose softmax weight is exactly 0,
as -inf's is. Only the exact-form test may charge it, and its message must name both
differences: a finite mask and a constant added to each row.
"""

import numpy as np


def alibi_bias(n_heads, seq_len):
    slopes = alibi_slopes(n_heads)  # noqa: F821 - the reference's (this file is edited into it)
    if isinstance(seq_len, bool) or not isinstance(seq_len, int) or seq_len < 1:
        raise ValueError(f"seq_len must be a positive int, got {seq_len!r}")
    distance = np.arange(1 - seq_len, 1)  # j - (T - 1) for every key j
    bias = slopes[:, None, None] * np.ones((1, seq_len, 1)) * distance[None, None, :]
    future = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
    bias[:, future] = np.finfo(np.float32).min
    return bias
