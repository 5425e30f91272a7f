"""The correct alternatives of the contract, computed from the reference, and which one a
reply follows.

A value test first asks which convention a reply follows (``follows``), then judges its
values in that convention, so a correct alternative loses only the one test that checks
the convention. The alternatives:

- the sinusoidal table with all sines first, then all cosines (tensor2tensor's layout);
- RoPE with adjacent dimensions paired (GPT-J, Meta's LLaMA code: "interleaved").
"""

import numpy as np

import solutions.tokens_to_vectors as ref
from autograder.suite.numeric import Tolerance, agrees

SPEC, HALVES, INTERLEAVED = "spec", "halves", "interleaved"
NAMES = {SPEC: "the spec's layout", HALVES: "all sines, then all cosines (tensor2tensor's layout)",
         INTERLEAVED: "interleaved pairs (GPT-J style)"}


def sinusoidal(n: int, d: int, base: float, layout: str) -> np.ndarray:
    table = ref.sinusoidal_positions(n, d, base)
    return table if layout == SPEC else np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)


def to_spec_columns(d: int) -> np.ndarray:
    """The permutation that takes the halves layout's columns to the spec's."""
    return np.argsort(np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)]))


def rope(x: np.ndarray, positions: np.ndarray, base: float, layout: str) -> np.ndarray:
    """RoPE in the spec's rotate-half pairing, or in the interleaved one: the same rotation
    applied to dimensions reordered so that (2i, 2i+1) become (i, i + h)."""
    if layout == SPEC:
        return ref.apply_rope(x, positions, base)
    d = x.shape[-1]
    order = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])
    rotated = ref.apply_rope(np.asarray(x, dtype=np.float64)[..., order], positions, base)
    return rotated[..., np.argsort(order)]


def follows(got: object, candidates: dict[str, np.ndarray], tolerance: Tolerance) -> str | None:
    """The first convention whose expected value ``got`` agrees with, else None. ``got`` is
    read as numpy reads it, not cast to floats: a complex reply agrees with none."""
    try:
        array = np.asarray(got)
    except (TypeError, ValueError):
        return None
    for name, expected in candidates.items():
        if agrees(array, expected, tolerance):
            return name
    return None
