"""``make bench-batch A=tokens_to_vectors``: what this assignment's generated class holds.

The engine's benchmark (``autograder/bench_batch/``, which says how these are used) makes
correct submissions from the sample ``alice_correct`` and the flattened reference, stubs
from the release notebook (the sample ``carol_stub``), and wrong and hostile ones from the
reference with one edit below. Wrong: one plausible bug in one part each. Hanging: an
endless loop in a graded call, a long ``sleep``. Crashing: ``os._exit`` in a graded call,
a memory hog that runs into the worker's limit, a segmentation fault.
"""

from autograder.bench_batch.make import Bug, Hostile

CORRECT_SAMPLE = "alice_correct"
STUB_SAMPLE = "carol_stub"

BUGS: list[Bug] = [
    Bug("p1_negative_ids_wrap", 1, "the range check forgets negative IDs (numpy wraps them)",
        "if array.min() < 0 or array.max() >= vocab_size:", "if array.max() >= vocab_size:"),
    Bug("p1_padding_always_adds", 1, "padded_vocab_size adds a block to an exact multiple",
        "return -(-vocab_size // multiple) * multiple",
        "return (vocab_size // multiple + 1) * multiple"),
    Bug("p1_untied_head_forgotten", 1, "an untied head is not counted",
        "head = 0 if tied else vocab_size * d", "head = 0"),
    Bug("p2_exponent_without_two", 2, "frequencies base^(-i/d) instead of base^(-2i/d)",
        "omega = base ** (-np.arange(0, d_model, 2) / d_model)",
        "omega = base ** (-np.arange(0, d_model // 2) / d_model)"),
    Bug("p2_positions_not_checked", 2, "a sequence longer than the table is cut silently",
        "    length = x.shape[-2]\n", "    x = x[..., :table.shape[0], :]\n"
        "    length = x.shape[-2]\n"),
    Bug("p3_rotate_half_sign", 3, "rotate_half negates the wrong half",
        "return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)",
        "return np.concatenate([x[..., half:], -x[..., :half]], axis=-1)"),
    Bug("p3_alibi_not_causal", 3, "alibi_bias forgets the causal mask",
        "bias[:, offset > 0] = -np.inf", "pass"),
]

HOSTILE: list[Hostile] = [
    Hostile("lookup_forever", "hanging", "embedding_lookup loops forever (Part 1)",
            "    return table[check_ids(ids, table.shape[0])]",
            "    while True:\n        pass\n    return table[check_ids(ids, table.shape[0])]",
            "while True:\n        pass\n    return table[check_ids"),
    Hostile("rope_sleep", "hanging", "apply_rope sleeps for an hour (wall time, no CPU)",
            "    half = x.shape[-1] // 2\n",
            "    __import__('time').sleep(3600)\n    half = x.shape[-1] // 2\n", "sleep(3600)"),
    Hostile("exit_in_call", "crashing", "sinusoidal_positions calls os._exit (Part 2)",
            "    table[:, 0::2] = np.sin(angles)\n",
            "    __import__('os')._exit(0)\n    table[:, 0::2] = np.sin(angles)\n", "._exit(0)"),
    Hostile("memory_hog", "crashing",
            "alibi_slopes keeps 64 MiB blocks until the worker's memory limit (Part 3)",
            "        start = 2.0 ** (-8.0 / n)\n",
            "        hog = []\n        while True:\n            hog.append(b'x' * (64 << 20))\n"
            "        start = 2.0 ** (-8.0 / n)\n", "hog.append(b'x' * (64 << 20))"),
    Hostile("segfault", "crashing", "one_hot reads address 0 through ctypes (SIGSEGV, Part 1)",
            "    out = np.zeros(ids.shape + (vocab_size,))\n",
            "    __import__('ctypes').string_at(0)\n"
            "    out = np.zeros(ids.shape + (vocab_size,))\n",
            "string_at(0)"),
]
