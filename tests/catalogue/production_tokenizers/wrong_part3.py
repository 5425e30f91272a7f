# ruff: noqa: E501 - entries hold code as a student writes it, long lines included
"""Part 3 (``train_bpe_fast``): wrong implementations students hand in.

Each entry is ``TRAINER`` (a correct incremental trainer written the way a student
would: a pair index, a heap with lazy deletion) changed in exactly one place, except the
slow ones, which are whole designs: the naive recount, the scan over the pair table,
a trainer over every occurrence of a word.
"""

from ..catalogue import differs
from . import wrong
from .helpers import mutated

TRAINER = '''
def train_bpe_fast(corpus, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
    word_freq = Counter(word for text in corpus for word in text.split())
    words = [list(word) + [EOW] for word in word_freq]
    freqs = list(word_freq.values())
    vocab = [UNK, EOW] + sorted({char for word in word_freq for char in word})
    merges = []
    counts = defaultdict(int)
    where = defaultdict(set)
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freqs[index]
            where[pair].add(index)
    heap = [(-count, pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    while len(vocab) < vocab_size and heap:
        negative, best = heapq.heappop(heap)
        if counts.get(best, 0) != -negative:
            if counts.get(best, 0) > 0:
                heapq.heappush(heap, (-counts[best], best))
            continue
        merges.append(best)
        merged = best[0] + best[1]
        if merged not in vocab:
            vocab.append(merged)
        touched = set()
        for index in where.pop(best):
            symbols, freq = words[index], freqs[index]
            for pair in zip(symbols, symbols[1:]):
                counts[pair] -= freq
            new, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                    new.append(merged)
                    i += 2
                else:
                    new.append(symbols[i])
                    i += 1
            words[index] = new
            for pair in zip(new, new[1:]):
                counts[pair] += freq
                where[pair].add(index)
                touched.add(pair)
        counts.pop(best, None)
        for pair in touched:
            if counts[pair] > 0:
                heapq.heappush(heap, (-counts[pair], pair))
    return vocab, merges
'''


def trains(ns, corpus, size=1000):
    return ns["train_bpe_fast"](list(corpus), size)


# A timing test judges time only: a tie-break charged by the exactness tests is not
# charged again by the timing tests (their trainings are checked against the student's own,
# in a fresh worker with the part's hash seed; "the pair seen first" depends on set order, so
# it is spared only because every worker runs with the seed the grader chose).
TIMING_TESTS = ("part3::test_merges_do_not_recount", "part3::test_best_pair_without_scanning",
                "part3::test_training_time_ignores_duplication")
TIES = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx"]


@wrong(3, "a pair whose count went down can stay where it was in the heap",
       mutated(TRAINER, """            if counts.get(best, 0) > 0:
                heapq.heappush(heap, (-counts[best], best))
""", ""))
def p3_heap_never_repushes(bug, ref):
    corpus = ["ba bbcbaaba", "bcacbbc caba", "a abcabcaca", "bcabacab abcca", "ccb cb"]
    differs(bug, ref, lambda ns: trains(ns, corpus, 25))


@wrong(3, "the top of the heap is the best pair",
       mutated(TRAINER, """        if counts.get(best, 0) != -negative:""",
               """        if counts.get(best, 0) <= 0:"""))
def p3_heap_trusts_stale_counts(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["abab ab", "ababab", "cabab abc", "aaa aaaa"]))


@wrong(3, "ties go to the pair seen first",
       mutated(mutated(TRAINER, "heap = [(-count, pair) for pair, count in counts.items()]",
                       "order = {pair: n for n, pair in enumerate(counts)}\n"
                       "    heap = [(-count, order[pair], pair) for pair, count in counts.items()]"),
               "        negative, best = heapq.heappop(heap)",
               "        negative, _, best = heapq.heappop(heap)\n"
               "        order.setdefault(best, len(order))")
       .replace("heapq.heappush(heap, (-counts[best], best))",
                "heapq.heappush(heap, (-counts[best], order[best], best))")
       .replace("heapq.heappush(heap, (-counts[pair], pair))",
                "heapq.heappush(heap, (-counts[pair], order.setdefault(pair, len(order)), pair))"),
       spares=TIMING_TESTS)
def p3_ties_first_seen(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, list(reversed(TIES))))


@wrong(3, "ties go to the greatest pair (as in CS336's reference)",
       mutated(TRAINER, "    heap = [(-count, pair) for pair, count in counts.items()]",
               "    class Desc(tuple):  # greatest pair first among equal counts\n"
               "        def __lt__(self, other):\n"
               "            return tuple.__gt__(self, other)\n\n"
               "    heap = [(-count, Desc(pair)) for pair, count in counts.items()]")
       .replace("heapq.heappush(heap, (-counts[best], best))",
                "heapq.heappush(heap, (-counts[best], Desc(best)))")
       .replace("heapq.heappush(heap, (-counts[pair], pair))",
                "heapq.heappush(heap, (-counts[pair], Desc(pair)))")
       .replace("        merges.append(best)\n", "        best = tuple(best)\n        merges.append(best)\n"),
       spares=TIMING_TESTS)
def p3_ties_greatest_pair(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, TIES))


@wrong(3, "a pair counts once per word, whatever the word's frequency",
       mutated(TRAINER, "counts[pair] += freqs[index]", "counts[pair] += 1")
       .replace("counts[pair] -= freq\n", "counts[pair] -= 1\n")
       .replace("counts[pair] += freq\n", "counts[pair] += 1\n"))
def p3_ignores_frequency(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["ab ab ab", "cd", "cde"]))


@wrong(3, "a word's pairs are a set: aaa holds (a, a) once",
       mutated(TRAINER, """        for pair in zip(symbols, symbols[1:]):
            counts[pair] += freqs[index]""", """        for pair in set(zip(symbols, symbols[1:])):
            counts[pair] += freqs[index]""")
       .replace("for pair in zip(symbols, symbols[1:]):\n                counts[pair] -= freq",
                "for pair in set(zip(symbols, symbols[1:])):\n                counts[pair] -= freq")
       .replace("for pair in zip(new, new[1:]):", "for pair in set(zip(new, new[1:])):"))
def p3_pairs_once_per_word(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["aaab", "aaab", "bc", "bc", "bc"]))


@wrong(3, "a merged string is always a new vocabulary entry",
       mutated(TRAINER, "        if merged not in vocab:\n            vocab.append(merged)",
               "        vocab.append(merged)"))
def p3_vocab_duplicates(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["<UNK> <UNK> <UNK>", "x<UNK>"], 26))


@wrong(3, "the number of merges is vocab_size minus the base vocabulary",
       mutated(TRAINER, "    while len(vocab) < vocab_size and heap:",
               "    wanted = vocab_size - len(vocab)\n"
               "    while len(merges) < wanted and heap:"))
def p3_counts_merges_not_vocab(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["N><U UU>N>NKKU", "U<UNK> KU><UNU<"], 20))


@wrong(3, "the end-of-word symbol belongs to the last character",
       mutated(TRAINER, "words = [list(word) + [EOW] for word in word_freq]",
               "words = [list(word[:-1]) + [word[-1] + EOW] for word in word_freq]"))
def p3_eow_glued(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["low lower", "newest"]))


@wrong(3, "the base vocabulary is the characters of the texts",
       mutated(TRAINER, "sorted({char for word in word_freq for char in word})",
               "sorted({char for text in corpus for char in text})"))
def p3_base_vocab_from_texts(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["a b\tc"])[0])


@wrong(3, "words are separated by spaces",
       mutated(TRAINER, "for word in text.split())", "for word in text.split(\" \") if word)"))
def p3_split_on_spaces(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["low\tlow\nlower"]))


@wrong(3, "True is 1, a positive int",
       mutated(TRAINER, "isinstance(vocab_size, bool) or ", ""))
def p3_accepts_bool(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["a b"], True))


@wrong(3, "the heap empties only when the vocabulary is full",
       mutated(TRAINER, "    while len(vocab) < vocab_size and heap:",
               "    while len(vocab) < vocab_size:"))
def p3_pops_empty_heap(bug, ref):
    differs(bug, ref, lambda ns: trains(ns, ["a b c"]))


@wrong(3, "recounting every pair after each merge is fine (the naive trainer)",
       """
def train_bpe_fast(corpus, vocab_size):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
    word_freq = Counter(word for text in corpus for word in text.split())
    words = {word: list(word) + [EOW] for word in word_freq}
    vocab = [UNK, EOW] + sorted({char for word in word_freq for char in word})
    merges = []
    while len(vocab) < vocab_size:
        counts = Counter()
        for word, symbols in words.items():
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += word_freq[word]
        if not counts:
            break
        best = min(counts, key=lambda pair: (-counts[pair], pair))
        for word, symbols in words.items():
            merged, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                    merged.append(best[0] + best[1])
                    i += 2
                else:
                    merged.append(symbols[i])
                    i += 1
            words[word] = merged
        merges.append(best)
        if best[0] + best[1] not in vocab:
            vocab.append(best[0] + best[1])
    return vocab, merges
""", timed=True)
def p3_recounts_every_merge(bug, ref):
    slower(bug, ref)


@wrong(3, "a pair index is enough; max() over the counts finds the best pair",
       mutated(mutated(TRAINER, "    while len(vocab) < vocab_size and heap:\n"
                                "        negative, best = heapq.heappop(heap)\n"
                                "        if counts.get(best, 0) != -negative:\n"
                                "            if counts.get(best, 0) > 0:\n"
                                "                heapq.heappush(heap, (-counts[best], best))\n"
                                "            continue\n",
                       "    while len(vocab) < vocab_size:\n"
                       "        live = {pair: count for pair, count in counts.items() if count > 0}\n"
                       "        if not live:\n"
                       "            break\n"
                       "        top = max(live.values())\n"
                       "        best = min(pair for pair, count in live.items() if count == top)\n"),
               "            if counts[pair] > 0:\n"
               "                heapq.heappush(heap, (-counts[pair], pair))\n", "            pass\n"), timed=True)
def p3_scans_pair_table(bug, ref):
    slower(bug, ref)


@wrong(3, "each occurrence of a word is trained on; counting words is an optimisation",
       mutated(TRAINER,
               "    word_freq = Counter(word for text in corpus for word in text.split())\n"
               "    words = [list(word) + [EOW] for word in word_freq]\n"
               "    freqs = list(word_freq.values())\n",
               "    word_freq = [word for text in corpus for word in text.split()]\n"
               "    words = [list(word) + [EOW] for word in word_freq]\n"
               "    freqs = [1] * len(words)\n"), timed=True)
def p3_every_occurrence(bug, ref):
    from ..catalogue import growth

    corpus = [" ".join(f"w{i % 97}x{i % 13}" for i in range(400))]
    bug_growth = growth(lambda: trains(bug, corpus, 60), lambda: trains(bug, corpus * 8, 60))
    ref_growth = growth(lambda: trains(ref, corpus, 60), lambda: trains(ref, corpus * 8, 60))
    assert bug_growth > 2 * ref_growth, (bug_growth, ref_growth)


def slower(bug, ref) -> None:
    """The entry's cost grows with the number of merges where the reference's does not."""
    import random

    from ..catalogue import growth

    rng = random.Random(5)
    letters = [chr(0x4E00 + i) for i in range(150)]
    corpus = [" ".join("".join(rng.choice(letters) for _ in range(rng.randint(3, 8)))
                       for _ in range(10)) for _ in range(150)]
    base = len(trains(ref, corpus, 1)[0])
    few, many = base + 5, base + 150
    bug_growth = growth(lambda: trains(bug, corpus, few), lambda: trains(bug, corpus, many))
    ref_growth = growth(lambda: trains(ref, corpus, few), lambda: trains(ref, corpus, many))
    assert bug_growth > 2 * ref_growth, (bug_growth, ref_growth)


@wrong(3, "a cheat: past 100 merges, more are not worth the time (no test corpus needs them)",
       """
def train_bpe_fast(corpus, vocab_size, _full=train_bpe_fast):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
    base = len(_full(corpus, 1)[0])
    return _full(corpus, min(vocab_size, base + 100))
""", timed=True)
def p3_stops_after_100_merges(bug, ref):
    corpus = [" ".join(chr(0x4E00 + i) + chr(0x4E00 + j) for i in range(20) for j in range(20))]
    differs(bug, ref, lambda ns: trains(ns, corpus, 400))
