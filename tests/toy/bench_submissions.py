"""The toy's bench-batch material: the engine's benchmark tool tested on the smallest
assignment. No sample submissions, so its correct ones are all scripts and its stubs
the stubbed reference (``autograder/bench_batch/make.py``)."""

from autograder.bench_batch.make import Bug, Hostile

BUGS = [
    Bug("p1_counts_empty_words", 1, "count_words counts the empty words between separators",
        "        if word:\n", "        if True:\n"),
    Bug("p2_ties_to_the_last", 2, "loudest breaks ties by the last word in sorted order",
        "best = min(counts, key=lambda word: (-counts[word], word))",
        "best = max(counts, key=lambda word: (counts[word], word))"),
]

HOSTILE = [
    Hostile("shout_forever", "hanging", "Shouter.shout loops forever",
            "        return word.upper()", "        while True:\n            pass\n"
            "        return word.upper()", "while True:\n            pass"),
    Hostile("exit_in_count", "crashing", "count_words calls os._exit",
            "    counts: dict[str, int] = {}\n",
            "    counts: dict[str, int] = {}\n    __import__('os')._exit(0)\n", "._exit(0)"),
]
