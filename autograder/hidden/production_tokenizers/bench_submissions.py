"""``make bench-batch A=production_tokenizers``: what this assignment's generated class holds.

The engine's benchmark (``autograder/bench_batch/``, which says how these are used) makes
correct submissions from the sample ``alice_correct`` and the flattened reference, stubs
from the release notebook (the sample ``carol_stub``), and wrong and hostile ones from
the reference with one edit below. Wrong: one plausible bug in one part each, every part
twice but Part 3 (once: its one graded function). Hanging: ``merge_by_rank`` pushing a
stale pair back forever (every encode, Part 1), ``wordpiece_tokenize`` that does not
advance past an unmatched character (Part 4), a long ``sleep`` in ``unigram_segment``
(Part 5), an endless loop in a class body at load. Crashing: ``os._exit`` in a graded
call or in a constant's value at load, a memory hog that runs into the worker's limit
(the fast trainer), a segmentation fault (BERT's pre-tokenizer).
"""

from autograder.bench_batch.make import Bug, Hostile

CORRECT_SAMPLE = "alice_correct"
STUB_SAMPLE = "carol_stub"

BUGS: list[Bug] = [
    Bug("p1_decode_strict", 1, "decode raises on bytes that are not UTF-8 (no U+FFFD)",
        "return self.decode_bytes(ids).decode('utf-8', errors='replace')",
        "return self.decode_bytes(ids).decode('utf-8')"),
    Bug("p1_unknown_id_skipped", 1, "decode_bytes skips IDs outside the vocabulary",
        "                raise ValueError(f'token ID {token_id!r} is not in the vocabulary')",
        "                continue"),
    Bug("p2_keeps_format_chars", 2, "clean_text keeps invisible format characters (Cf)",
        "if category == 'Cf' or (category == 'Cc' and char not in KEPT_CONTROLS):",
        "if category == 'Cc' and char not in KEPT_CONTROLS:"),
    Bug("p2_canonical_only", 2, "clean_text normalizes with NFC (compatibility forms kept)",
        "text = normalize(text, 'NFKC')", "text = normalize(text, 'NFC')"),
    Bug("p3_one_merge_short", 3, "train_bpe_fast stops one token short of vocab_size",
        "while len(vocab) < vocab_size and heap:", "while len(vocab) < vocab_size - 1 and heap:"),
    Bug("p4_no_continuation_prefix", 4, "wordpiece_tokenize looks pieces up without ##",
        "candidate = word[start:end] if start == 0 else CONTINUATION + word[start:end]",
        "candidate = word[start:end]"),
    Bug("p4_limit_inclusive", 4, "a word of exactly max_input_chars_per_word becomes [UNK]",
        "if len(word) > max_input_chars_per_word:", "if len(word) >= max_input_chars_per_word:"),
    Bug("p5_no_unknown_penalty", 5, "an unknown character scores the lowest piece's score",
        "return min(pieces.values()) - UNK_PENALTY", "return min(pieces.values())"),
    Bug("p5_unknown_run_split", 5, "unigram_encode gives every unknown character its own ID",
        "if not (unknown and previous_unknown):", "if True:"),
    Bug("p6_fertility_per_char", 6, "fertility divides by characters, not words",
        "words = sum((len(text.split()) for text in texts))",
        "words = sum((len(text) for text in texts))"),
    Bug("p6_cost_per_thousand", 6, "estimate_cost reads prices as per thousand tokens",
        "usd_per_million_output) / 1000000", "usd_per_million_output) / 1000"),
]

HOSTILE: list[Hostile] = [
    Hostile("merge_stale_forever", "hanging",
        "merge_by_rank pushes a stale pair back instead of skipping it (endless loop, Part 1)",
        "            continue\n        alive[i] += alive[j]",
        "            heapq.heappush(heap, (rank, i))\n            continue\n"
        "        alive[i] += alive[j]",
        "heapq.heappush(heap, (rank, i))\n            continue"),
    Hostile("wordpiece_stuck", "hanging",
        "wordpiece_tokenize retries an unmatched position forever (Part 4)",
        "        else:\n            return [unk_token]\n    return pieces",
        "        else:\n            continue\n    return pieces",
        "        else:\n            continue\n    return pieces"),
    Hostile("segment_sleep", "hanging", "unigram_segment sleeps for an hour (wall time, no CPU)",
        "    return viterbi(sentencepiece_view(text), pieces, unknown_score(pieces))[1]",
        "    __import__('time').sleep(3600)\n"
        "    return viterbi(sentencepiece_view(text), pieces, unknown_score(pieces))[1]",
        "sleep(3600)"),
    Hostile("class_body_loop", "hanging",
        "an endless loop in the WordPieceTokenizer class body (at load)",
        '    """Text <-> IDs with BERT\'s pre-tokenizer and a fixed WordPiece vocabulary."""\n',
        '    """Text <-> IDs with BERT\'s pre-tokenizer and a fixed WordPiece vocabulary."""\n'
        "    while True:\n        pass\n",
        "    while True:\n        pass\n"),
    Hostile("exit_in_call", "crashing", "fertility calls os._exit (the worker dies, Part 6)",
        "    words = sum((len(text.split()) for text in texts))\n",
        "    words = sum((len(text.split()) for text in texts))\n    __import__('os')._exit(0)\n",
        "._exit(0)"),
    Hostile("exit_at_load", "crashing", "a constant whose value calls os._exit (every part's load)",
        "ENDOFTEXT = '<|endoftext|>'\n",
        "ENDOFTEXT = '<|endoftext|>'\nCHECKPOINT = __import__('os')._exit(3)\n",
        "CHECKPOINT = __import__('os')._exit(3)"),
    Hostile("memory_hog", "crashing",
        "train_bpe_fast keeps 64 MiB blocks until the worker's memory limit (MemoryError, Part 3)",
        "    check_vocab_size(vocab_size)\n    if isinstance(corpus, str):",
        "    check_vocab_size(vocab_size)\n    hog = []\n    while True:\n"
        "        hog.append(b'x' * (64 << 20))\n    if isinstance(corpus, str):",
        "hog.append(b'x' * (64 << 20))"),
    Hostile("segfault", "crashing",
        "bert_pretokenize reads address 0 through ctypes (SIGSEGV, Part 4)",
        "    words: list[str] = []\n    current: list[str] = []\n",
        "    __import__('ctypes').string_at(0)\n"
        "    words: list[str] = []\n    current: list[str] = []\n",
        "string_at(0)"),
]
