"""ALiBi as BLOOM and the original ALiBi code build it (catalogue: a correct alternative,
edited into the reference).

The bias is ``slope * j``, the key's position alone, which differs from the spec's
``-slope * (i - j)`` by ``slope * i``: one constant per row, so softmax gives the same
attention. Keys after the query are masked with ``-inf``. Only the exact-form test may
charge it, and its message must name a constant added to each row.
"""

import numpy as np


def alibi_bias(n_heads, seq_len):
    slopes = alibi_slopes(n_heads)  # noqa: F821 - the reference's (this file is edited into it)
    if isinstance(seq_len, bool) or not isinstance(seq_len, int) or seq_len < 1:
        raise ValueError(f"seq_len must be a positive int, got {seq_len!r}")
    keys = np.arange(seq_len)
    bias = np.broadcast_to(slopes[:, None, None] * keys[None, None, :],
                           (len(slopes), seq_len, seq_len))
    causal = keys[None, :] <= keys[:, None]
    return np.where(causal, bias, -np.inf)
