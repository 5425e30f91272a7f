"""The reference as the sandbox serves it: its modules flattened into one namespace, one part left
out at a time (``autograder/sandbox/reference.py``). Each module may use only names of the modules
before it, so every part but the graded one must still load and work on its own."""

import random

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.assignment import load
from autograder.sandbox.reference import reference_without

ASSIGNMENT = load("tokens_to_vectors")
CALLS = {  # one call of each function and what the package returns for it
    "embedding_lookup": ([[1, 0]], np.eye(3)),
    "one_hot": ([2], 4),
    "padded_vocab_size": (50_257,),
    "gpt_parameter_count": (50_257, 1_024, 768, 12),
    "sinusoidal_positions": (5, 6),
    "sinusoidal_shift": (-3, 6),
    "add_learned_positions": (np.ones((2, 4)), np.eye(4)),
    "rope_frequencies": (8,),
    "apply_rope": (np.ones((3, 4)), [0, 1, 2]),
    "alibi_slopes": (12,),
    "alibi_bias": (3, 4),
    # p = 0 gives the same pieces however far the shared generator has advanced
    "bpe_dropout": ("abab", [("a", "b"), ("ab", "ab")], 0.0, random.Random(0)),
    "dropout_segmentations": ("abab", [("a", "b"), ("ab", "ab")], 0.5, 50, 7),
    "byte_tokens": ("é!",),
    "byte_detokenize": ([107, 2, 3, 1],),
    "patchify": (np.arange(48).reshape(4, 4, 3), 2),
    "vq_tokenize": (np.eye(3), np.eye(3)[::-1]),
    "incomplete_utf8_tokens": ({"a": 0, "Ã": 1, "Ã©": 2},),  # "Ã" is the byte 0xC3 alone
    "unused_tokens": ([0, 3, 3], 5),
    "kv_cache_bytes": (12, 12, 64, 1),
    "attention_score_bytes": (12, 1_024),
    "attention_flops": (1_024, 768, 12),
    "max_context": (10**9, 32, 8, 128),
    "context_cost": ("to be", list, 8, 2),
}


@pytest.mark.parametrize("part", [0, *sorted(ASSIGNMENT.parts)])
def test_each_part_is_left_out_cleanly_and_the_rest_works(part):
    source, exports = reference_without(ASSIGNMENT, part)
    namespace: dict = {}
    exec(source, namespace)
    own = set(ASSIGNMENT.names_of(part))
    assert not own & set(exports) and not own & set(namespace)
    assert set(exports) == set(ASSIGNMENT.part_of) - own
    for name in exports:
        if name in CALLS:
            expected = getattr(ref, name)(*CALLS[name])
            np.testing.assert_array_equal(namespace[name](*CALLS[name]), expected)
        else:
            assert namespace[name] == getattr(ref, name)
