"""``make bench-batch A=tokenization``: what this assignment's generated class holds.

The engine's benchmark (``autograder/bench_batch/``, which says how these are used) makes
correct submissions from the sample ``alice_correct`` and the flattened reference, stubs
from the release notebook (the sample ``carol_stub``), and wrong and hostile ones from
the reference with one edit below. Wrong: one plausible bug in one part each. Hanging:
an endless loop in a graded call (``merge_pair``, ``train``) or in a class body at load,
a long ``sleep`` in ``encode``. Crashing: ``os._exit`` in a graded call or in a
constant's value at load, a memory hog that runs into the worker's limit, a segmentation
fault.
"""

from autograder.bench_batch.make import Bug, Hostile

CORRECT_SAMPLE = "alice_correct"
STUB_SAMPLE = "carol_stub"

BUGS: list[Bug] = [
    Bug("p2_encode_keyerror", 2, "encode looks up unknown characters with [] (KeyError)",
        "return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
        "return [self.char_to_id[ch] for ch in text]"),
    Bug("p3_tie_break", 3, "ties go to the first pair counted, not the smallest",
        "best = min(counts, key=lambda pair: (-counts[pair], pair))",
        "best = max(counts, key=counts.get)"),
    Bug("p3_decode_keeps_eow", 3, "decode keeps the trailing end-of-word space",
        "return text.rstrip(' ')", "return text"),
    Bug("p3_encode_quadratic", 3, "encode concatenates lists (quadratic in the number of words)",
        "ids.extend(cache[word])", "ids = ids + cache[word]"),
    Bug("p4_count_pairs_once", 4, "count_pairs counts a repeated pair once per word",
        "for pair in zip(tokens, tokens[1:]):", "for pair in set(zip(tokens, tokens[1:])):"),
    Bug("p4_merge_overlap", 4, "merge_pair steps one token after a merge (overlapping merges)",
        "merged.append(first + second)\n            i += 2",
        "merged.append(first + second)\n            i += 1"),
    Bug("p4_split_on_space", 4, "word_frequencies splits on ' ' (counts empty words)",
        "for word in text.split()))", "for word in text.split(' ')))"),
    Bug("p5_truncate_off_by_one", 5, "tokenize_dataset keeps max_length - 1 tokens",
        "return [ids[:max_length] for ids in encoded]",
        "return [ids[:max_length - 1] for ids in encoded]"),
    Bug("p5_compression_inverted", 5, "compression_ratio is tokens per character",
        "'compression_ratio': characters / total if total else 0.0",
        "'compression_ratio': total / characters if characters else 0.0"),
    Bug("p6_q1_megabytes", 6, "Q1 in decimal megabytes instead of MiB",
        "Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / MIB, 2)",
        "Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / 1000000, 2)"),
    Bug("p6_attention_linear", 6, "attention_scores doubles seq_len instead of squaring it",
        "return batch_size * seq_len ** 2", "return batch_size * seq_len * 2"),
]

HOSTILE: list[Hostile] = [
    Hostile("merge_pair_stuck", "hanging",
        "merge_pair never advances past an unmerged first symbol (endless loop, Part 4)",
        "        else:\n            merged.append(tokens[i])\n"
        "            i += 1\n    return merged",
        "        elif tokens[i] != first:\n            merged.append(tokens[i])\n"
        "            i += 1\n    return merged",
        "elif tokens[i] != first:"),
    Hostile("class_body_loop", "hanging",
        "an endless loop in the BPETokenizer class body (at load)",
        '    """Subword tokenizer learned by greedy pair merging."""\n',
        '    """Subword tokenizer learned by greedy pair merging."""\n    while True:\n'
        "        pass\n",
        "    while True:\n        pass\n"),
    Hostile("train_no_break", "hanging",
        "train loops forever once no pair is left (continue for break, Part 3)",
        "if not counts:\n                break", "if not counts:\n                continue",
        "if not counts:\n                continue"),
    Hostile("encode_sleep", "hanging",
        "CharTokenizer.encode sleeps for an hour (wall time, no CPU)",
        "        return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
        "        __import__('time').sleep(3600)\n"
        "        return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
        "sleep(3600)"),
    Hostile("exit_in_call", "crashing", "count_pairs calls os._exit (the worker dies, Part 4)",
        "    counts: Counter = Counter()\n",
        "    counts: Counter = Counter()\n    __import__('os')._exit(0)\n",
        "._exit(0)"),
    Hostile("exit_at_load", "crashing", "a constant whose value calls os._exit (every part's load)",
        "UNK = '<UNK>'\n", "UNK = '<UNK>'\nCHECKPOINT = __import__('os')._exit(3)\n",
        "CHECKPOINT = __import__('os')._exit(3)"),
    Hostile("memory_hog", "crashing",
        "train keeps 64 MiB blocks until the worker's memory limit (MemoryError, Part 3)",
        "        word_freq = word_frequencies(corpus)\n",
        "        hog = []\n        while True:\n            hog.append(b'x' * (64 << 20))\n"
        "        word_freq = word_frequencies(corpus)\n",
        "hog.append(b'x' * (64 << 20))"),
    Hostile("segfault", "crashing",
        "word_frequencies reads address 0 through ctypes (SIGSEGV, Part 4)",
        '    """How often each whitespace-separated word occurs across all texts."""\n',
        '    """How often each whitespace-separated word occurs across all texts."""\n'
        "    __import__('ctypes').string_at(0)\n",
        "string_at(0)"),
]
