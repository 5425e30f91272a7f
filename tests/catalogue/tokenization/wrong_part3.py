"""Part 3 (``BPETokenizer``): wrong implementations students hand in.

Most entries replace ``train`` with the reference's algorithm written the way a
student would, changed in exactly one place.
"""

import os
import subprocess
import sys
import tempfile

from ..catalogue import differs, growth, submission_source, superlinear
from . import wrong
from .helpers import HELLO, SENNRICH, TOKENIZATION, trained, without_base


def merges(ns, corpus, vocab_size=1000):
    return trained(ns, corpus, vocab_size).merges


# A deterministic tie-break is charged by the tie tests, not by this one.
HASH_SEED_TEST = "part3::test_merges_do_not_depend_on_hash_seed"
# A timing test judges time only: a tie-break charged by the tie tests is not charged again.
DUPLICATION_TEST = "part3::test_training_time_ignores_duplication"
# Words whose pairs all occur equally often: every merge is decided by the tie-break.
TIES = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx"]
# The merge '<UNK>' recreates a string the vocabulary already holds.
RECREATE = ["<UNK>", "<UNK>", "ab"]


@wrong(
    3,
    "_get_pairs gives a word's pairs, so count each once per word (`aaa` holds (a, a) once)",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = Counter()
                for word, tokens in word_tokens.items():
                    for pair in self._get_pairs(tokens):
                        counts[pair] += word_freq[word]
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_pairs_counted_by_set(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, ["aaab", "aaab", "bc", "bc", "bc"]))


@wrong(
    3,
    "max() picks the most frequent pair, and which of two equal ones does not matter",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = max(counts, key=counts.get)
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
    spares=(HASH_SEED_TEST, DUPLICATION_TEST),
)
def p3_ties_first_occurrence(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO))


@wrong(
    3,
    "sorting by (count, pair) and taking the max breaks ties the same way as the smallest pair",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = max(counts, key=lambda pair: (counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
    spares=(HASH_SEED_TEST, DUPLICATION_TEST),
)
def p3_ties_greatest_pair(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO))


@wrong(
    3,
    "collect the distinct pairs in a set and take the most frequent: ties fall in hash order",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                pairs = set()
                for tokens in word_tokens.values():
                    pairs |= self._get_pairs(tokens)
                if not pairs:
                    break
                best = max(pairs, key=lambda pair: counts[pair])
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_ties_hash_order(bug, ref):
    # The merges change with PYTHONHASHSEED: train in fresh interpreters.
    script = submission_source(TOKENIZATION, p3_ties_hash_order.code) + (
        f"\nt = BPETokenizer(40)\nt.train({TIES!r})\nprint(t.merges)\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(script)
    try:
        seen = set()
        for seed in range(4):
            env = {**os.environ, "PYTHONHASHSEED": str(seed)}
            run = subprocess.run(
                [sys.executable, handle.name], env=env, capture_output=True, text=True, check=True
            )
            seen.add(run.stdout)
    finally:
        os.unlink(handle.name)
    assert len(seen) > 1, "the same merges under every hash seed"


@wrong(
    3,
    "UNK does not count towards the target size, so stop one short of it",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            # UNK is not a real token: leave it out of the budget.
            while len(self.vocab) < self.target_vocab_size - 1:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_stops_one_merge_early(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO, 10))


@wrong(
    3,
    "train until the vocabulary has reached the target: `<=` instead of `<`",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) <= self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_one_merge_late(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO, 10))


@wrong(
    3,
    "vocab_size is the number of merges to learn",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            for _ in range(self.target_vocab_size):
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_vocab_size_as_num_merges(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO, 10))


@wrong(
    3,
    "every merge adds one token, so the number of merges is known before training starts",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            num_merges = self.target_vocab_size - len(self.vocab)
            for _ in range(num_merges):
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_merge_budget_fixed_upfront(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, RECREATE, 13))


@wrong(
    3,
    "every merge appends its string to the vocabulary (even one that is already there)",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_duplicate_vocab_entries(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, RECREATE).vocab)


@wrong(
    3,
    "a word is just its characters; the end-of-word symbol is optional decoration",
    """
    class BPETokenizer(BPETokenizer):
        def _get_word_tokens(self, word):
            return list(word)
    """,
)
def p3_missing_end_of_word(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO))


@wrong(
    3,
    "the end-of-word marker is glued to the last character, as in the paper's `w</w>`",
    """
    class BPETokenizer(BPETokenizer):
        def _get_word_tokens(self, word):
            return list(word[:-1]) + [word[-1] + EOW]
    """,
)
def p3_eow_attached_to_last_char(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, HELLO))


@wrong(
    3,
    "joining the tokens gives the text back (the end-of-word space stays at the end)",
    """
    class BPETokenizer(BPETokenizer):
        def decode(self, tokens):
            return "".join(self.id_to_token[check_token_id(t, self.vocab_size)] for t in tokens)
    """,
)
def p3_decode_keeps_end_of_word(bug, ref):
    differs(bug, ref, lambda ns: (lambda t: t.decode(t.encode("hello help")))(trained(ns, HELLO)))


@wrong(
    3,
    "apply the longest merges first, since they make the fewest tokens",
    """
    class BPETokenizer(BPETokenizer):
        def _apply_merges(self, tokens):
            for pair in sorted(self.merges, key=lambda p: len(p[0] + p[1]), reverse=True):
                tokens = merge_pair(tokens, pair)
            return tokens
    """,
)
def p3_merges_applied_longest_first(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, HELLO).encode("hello help"))


@wrong(
    3,
    "`ids = ids + word_ids` is the same as `ids.extend(word_ids)`",
    """
    class BPETokenizer(BPETokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            ids = []
            for word in text.split():
                tokens = self._apply_merges(self._get_word_tokens(word))
                ids = ids + [self.token_to_id.get(t, 0) for t in tokens]
            return ids
    """,
    timed=True,
)
def p3_quadratic_encode(bug, ref):
    tokenizers = {id(ns): trained(ns, HELLO) for ns in (bug, ref)}

    def run(ns, n):
        text = "hello help " * (n // 2)
        return lambda: tokenizers[id(ns)].encode(text)

    superlinear(bug, ref, run, bug_n=1_500, ref_n=40_000)


@wrong(
    3,
    "word frequencies are an optimisation: walking every word occurrence gives the same merges",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            words = [word for text in corpus for word in text.split()]
            tokenized = [self._get_word_tokens(word) for word in words]
            self.vocab = [UNK, EOW] + sorted({ch for word in words for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = Counter()
                for tokens in tokenized:
                    for pair in zip(tokens, tokens[1:]):
                        counts[pair] += 1
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                tokenized = [merge_pair(tokens, best) for tokens in tokenized]
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
    timed=True,
)
def p3_train_rescans_every_occurrence(bug, ref):
    corpus = ["the lower newest widest slowest lowly renewed"] * 20

    def runs(ns):
        return (lambda: trained(ns, corpus, 50)), (lambda: trained(ns, corpus * 8, 50))

    bug_growth, ref_growth = 0.0, float("inf")
    for _ in range(3):  # noise hides growth, it never creates it: retry on a busy machine
        bug_growth = max(bug_growth, growth(*runs(bug), repeat=2))
        ref_growth = min(ref_growth, growth(*runs(ref), repeat=2))
        if bug_growth > 4 and bug_growth > 2 * ref_growth:
            return
    raise AssertionError(f"8x corpus: entry {bug_growth:.1f}x slower, reference {ref_growth:.1f}x")


@wrong(
    3,
    "checking isinstance(vocab_size, int) rejects everything that is not a number (True is an int)",
    """
    class BPETokenizer(BPETokenizer):
        def __init__(self, vocab_size=1000):
            if not isinstance(vocab_size, int) or vocab_size < 1:
                raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
            self.target_vocab_size = vocab_size
            self.vocab = [UNK, EOW]
            self.merges = []
            self._build_mappings()
    """,
)
def p3_bool_vocab_size_accepted(bug, ref):
    differs(bug, ref, lambda ns: ns["BPETokenizer"](True).target_vocab_size)


@wrong(
    3,
    "a size only has to be non-negative",
    """
    class BPETokenizer(BPETokenizer):
        def __init__(self, vocab_size=1000):
            if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 0:
                raise ValueError(f"vocab_size must be a non-negative int, got {vocab_size!r}")
            self.target_vocab_size = vocab_size
            self.vocab = [UNK, EOW]
            self.merges = []
            self._build_mappings()
    """,
)
def p3_zero_vocab_size_accepted(bug, ref):
    differs(bug, ref, lambda ns: ns["BPETokenizer"](0).target_vocab_size)


@wrong(
    3,
    "a vocabulary needs at least UNK and EOW, so a size below 2 makes no sense",
    """
    class BPETokenizer(BPETokenizer):
        def __init__(self, vocab_size=1000):
            if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 2:
                raise ValueError(f"vocab_size must be an int of at least 2, got {vocab_size!r}")
            self.target_vocab_size = vocab_size
            self.vocab = [UNK, EOW]
            self.merges = []
            self._build_mappings()
    """,
)
def p3_size_one_rejected(bug, ref):
    differs(bug, ref, lambda ns: ns["BPETokenizer"](1).target_vocab_size)


@wrong(
    3,
    "nothing can be encoded before training, so the mappings are built by train",
    """
    class BPETokenizer(BPETokenizer):
        def __init__(self, vocab_size=1000):
            self.target_vocab_size = check_vocab_size(vocab_size)
            self.vocab = [UNK, EOW]
            self.merges = []
    """,
)
def p3_untrained_cannot_encode(bug, ref):
    differs(bug, ref, lambda ns: ns["BPETokenizer"](50).encode("ab a"))


@wrong(
    3,
    "the constructor already validated the size, so train can take its argument as it is",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = vocab_size
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_train_skips_vocab_size_check(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, HELLO).train(HELLO, 0))


@wrong(
    3,
    "the size is chosen in the constructor; train's argument is only there for the signature",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW] + sorted({ch for word in word_freq for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_train_ignores_vocab_size_argument(bug, ref):
    def probe(ns):
        tokenizer = ns["BPETokenizer"](1000)
        tokenizer.train(HELLO, 9)
        return tokenizer.merges

    differs(bug, ref, probe)


@wrong(
    3,
    "training extends the tokenizer's vocabulary, so a second train keeps what the first learned",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            for ch in sorted({ch for word in word_freq for ch in word}):
                if ch not in self.vocab:
                    self.vocab.append(ch)
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_retrain_accumulates(bug, ref):
    def probe(ns):
        tokenizer = trained(ns, SENNRICH)
        tokenizer.train(HELLO)
        return tokenizer.vocab

    differs(bug, ref, probe)


@wrong(
    3,
    "the base characters go in the order they are first seen",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            word_freq = word_frequencies(corpus)
            word_tokens = {word: self._get_word_tokens(word) for word in word_freq}
            self.vocab = [UNK, EOW]
            for word in word_freq:
                for ch in word:
                    if ch not in self.vocab:
                        self.vocab.append(ch)
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = count_pairs(word_tokens, word_freq)
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_base_vocab_unsorted(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, HELLO).vocab)


@wrong(
    3,
    "a token the vocabulary does not know is skipped",
    """
    class BPETokenizer(BPETokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            ids = []
            for word in text.split():
                for token in self._apply_merges(self._get_word_tokens(word)):
                    if token in self.token_to_id:
                        ids.append(self.token_to_id[token])
            return ids
    """,
)
def p3_encode_drops_unknown(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, HELLO).encode("hex"))


@wrong(
    3,
    "the spaces in the text already mark the word ends, so the text is one long word",
    """
    class BPETokenizer(BPETokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            tokens = self._apply_merges(self._get_word_tokens(text))
            return [self.token_to_id.get(t, 0) for t in tokens]
    """,
)
def p3_encode_without_word_split(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, HELLO).encode("hello\thelp"))


@wrong(
    3,
    "a word always encodes the same way, so a cache filled once is good forever (even after train)",
    """
    class BPETokenizer(BPETokenizer):
        def __init__(self, vocab_size=1000):
            self.target_vocab_size = check_vocab_size(vocab_size)
            self.vocab = [UNK, EOW]
            self.merges = []
            self.cache = {}
            self._build_mappings()

        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            ids = []
            for word in text.split():
                if word not in self.cache:
                    tokens = self._apply_merges(self._get_word_tokens(word))
                    self.cache[word] = [self.token_to_id.get(t, 0) for t in tokens]
                ids.extend(self.cache[word])
            return ids
    """,
)
def p3_encode_cache_survives_retraining(bug, ref):
    def probe(ns):
        tokenizer = trained(ns, SENNRICH)
        tokenizer.encode("hello")
        tokenizer.train(HELLO)
        return tokenizer.encode("hello")

    differs(bug, ref, probe)


@wrong(
    3,
    "each distinct word counts once: frequencies do not matter for which pairs exist",
    """
    class BPETokenizer(BPETokenizer):
        def train(self, corpus, vocab_size=None):
            if vocab_size is not None:
                self.target_vocab_size = check_vocab_size(vocab_size)
            words = {word for text in corpus for word in text.split()}
            word_tokens = {word: self._get_word_tokens(word) for word in words}
            self.vocab = [UNK, EOW] + sorted({ch for word in words for ch in word})
            self.merges = []
            while len(self.vocab) < self.target_vocab_size:
                counts = Counter()
                for tokens in word_tokens.values():
                    for pair in zip(tokens, tokens[1:]):
                        counts[pair] += 1
                if not counts:
                    break
                best = min(counts, key=lambda pair: (-counts[pair], pair))
                for word in word_tokens:
                    word_tokens[word] = merge_pair(word_tokens[word], best)
                self.merges.append(best)
                if best[0] + best[1] not in self.vocab:
                    self.vocab.append(best[0] + best[1])
            self._build_mappings()
    """,
)
def p3_word_frequencies_ignored(bug, ref):
    differs(bug, ref, lambda ns: merges(ns, ["ab", "cd", "cd"]))


@wrong(
    3,
    "the pairs of a word are a list (with repeats), whatever the docstring says",
    """
    class BPETokenizer(BPETokenizer):
        def _get_pairs(self, word_tokens):
            return [(word_tokens[i], word_tokens[i + 1]) for i in range(len(word_tokens) - 1)]
    """,
)
def p3_get_pairs_returns_list(bug, ref):
    differs(bug, ref, lambda ns: ns["BPETokenizer"]()._get_pairs(["a", "a", "a", " "]))


@wrong(
    3,
    "BPETokenizer has every method it needs, so deriving from Tokenizer adds nothing",
    without_base("BPETokenizer"),
)
def p3_not_a_tokenizer_subclass(bug, ref):
    assert not issubclass(bug["BPETokenizer"], bug["Tokenizer"])


@wrong(
    3,
    "merging is a search and replace: join the tokens and let re.sub glue each pair",
    r'''
    import re

    class BPETokenizer(BPETokenizer):
        def _apply_merges(self, tokens):
            # Words hold no whitespace, so a tab separates the tokens safely.
            text = "\t".join(tokens)
            for first, second in self.merges:
                pattern = r"(?<![^\t])" + re.escape(first + "\t" + second) + r"(?![^\t])"
                text = re.sub(pattern, first + second, text)
            return text.split("\t")
    ''',
)
def p3_apply_merges_with_re_sub(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, ["\\1\\1 a\\1"] * 3).encode("\\1"))


@wrong(
    3,
    "decode turns the ▁ marker into a space, as SentencePiece tokenizers do",
    '''
    class BPETokenizer(BPETokenizer):
        def decode(self, tokens):
            text = "".join(self.id_to_token[check_token_id(t, self.vocab_size)] for t in tokens)
            return text.replace("▁", " ").rstrip(" ")
    ''',
)
def p3_decode_sentencepiece_marker(bug, ref):
    differs(bug, ref, lambda ns: (lambda t: t.decode(t.encode("a▁b")))(trained(ns, ["a▁b"])))
