"""Hidden corpora of Part 3 (``train_bpe_fast``), in the style of the first assignment's.

Exactness corpora: ties everywhere, pairs repeated inside a word (``aaa``, ``abab``), a
merge that recreates a string already in the vocabulary (the literal ``<UNK>``),
literal ``</w>``, Unicode, tabs and newlines between words, and seeded random corpora.

Timing corpora: ``zipf_corpus`` has many more distinct pairs than merges (2,000 distinct
words over 200 letters, word counts falling as 1/rank, so the pairs at the top of the
count order rarely tie). ``sparse_corpus`` has far more distinct pairs again, and each of
its first 766 merges touches one word or a few: what a merge costs there is what finding
the next pair costs. Each timed run gets a fresh copy whose letters are moved to
another block of CJK ideographs in the same order (``relabel``): the same work, a
corpus never seen before (a result remembered from an earlier run is worth nothing),
and the reference's answer moved the same way, since ties compare strings character
by character and the move keeps every character's order and every character above the
end-of-word space.
"""

import random
from functools import cache

import solutions.production_tokenizers as ref
from autograder.suite.ahead import ahead

UNK, EOW = "<UNK>", " "

TIE_CORPORA = [
    ("a corpus where every pair ties", ["ba", "ab"], 1000),
    ("a corpus of two words that tie", ["zz", "aa"], 1000),
    ("a corpus with cyclic ties", ["cab", "abc", "bca"], 1000),
    ("a corpus with ties against the end of word", ["world", "world", "word"], 1000),
    ("a corpus with upper and lower case", ["Ab", "aB", "ab", "BA", "ba"], 1000),
    ("a corpus with ties between Unicode letters", ["éa", "ae", "eé", "ée"], 1000),
    ("a corpus with ties between merged tokens", ["abc", "abd", "xab", "yab"], 1000),
    ("a corpus with ties at equal counts",
     ["top", "pot", "opt", "tops", "spot", "post", "stop", "pots"], 1000),
    ("a corpus where a later tie beats an earlier pair", ["zy zy xw xw", "ba", "dc"], 1000),
]
REPEAT_CORPORA = [
    ("a corpus with repeated pairs inside words",
     ["aaa", "aaa", "aaaa", "baaab", "abab", "aaaaa aa"], 1000),
    ("a corpus with runs of one letter", ["aaaaaaa", "aaa", "aa aa", "aaaa"], 1000),
    ("a corpus where a merge site's left neighbour was just merged",
     ["abab ab", "ababab", "cabab abc"], 1000),
    ("a corpus with overlapping pairs", ["aaa aaaa", "aaaaa aa", "baaa aab"], 1000),
]
LITERAL_CORPORA = [
    ("a corpus with the literal text <UNK>",
     ["<UNK> <UNK> <UNK>", "x<UNK> </w>", "<U <UNK>NK>", "a</w>b </w>"], 26),
    ("a corpus with the literal text <UNK> (larger vocabulary)",
     ["<UNK>a <UNK>b <UNK>c </w>", "<UNK>d"], 100),
    ("a corpus with the literal text </w>", ["</w> </w>", "w</w>w", "a</w> <"], 25),
    ("a corpus of Unicode text",
     ["naïve café 🤗 über naïve", "日本語 日本", "über Über ü", "ça ça 🤗🤗"], 1000),
    ("a corpus with tabs, newlines and other White_Space between words",
     ["low\tlow\nlower", "  newest\u3000newest\u00a0wide\x85wide ", "a\x1cb a\x1cb"], 1000),
]


def random_corpus(seed: int, alphabet: str, words: int, texts: int) -> list[str]:
    rng = random.Random(seed)
    pool = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7)))
            for _ in range(words)]
    return [rng.choice(["", " ", "\n"]) + "".join(
        rng.choice(pool) + rng.choice([" ", " ", "  ", "\t", "\n"])
        for _ in range(rng.randint(0, 8))) for _ in range(texts)]


RANDOM_CORPORA = [
    (f"a random corpus over {alphabet!r}", random_corpus(seed, alphabet, 8, 10), target)
    for seed, alphabet, target in ((11, "ab", 1000), (12, "abc", 1000), (13, "aab", 40),
                                   (14, "abcd", 30), (15, "xyz", 1000), (16, "ab c", 25))
]
EDGE_CORPORA = [
    ("an empty corpus", [], 10),
    ("a corpus of empty and whitespace-only texts", ["", "  ", "\n\t"], 10),
    ("a corpus of one-character words (no pair to merge)", ["a b c", "b"], 1000),
    ("vocab_size 1, below the base vocabulary", ["x y z"], 1),
    ("a vocab_size below the base vocabulary", ["hello world"], 4),
    ("a vocab_size the base vocabulary reaches exactly", ["hello"], 6),
    ("a vocab_size one above the base vocabulary", ["hello", "hello", "help"], 8),
    ("the hello corpus until no pair is left", ["hello", "hello", "help"], 1000),
]
HELLO = ["hello", "hello", "help"]
SENNRICH = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3


@ahead(lambda: [(tuple(corpus), target) for _, corpus, target in
                [("", HELLO, 1000), ("", SENNRICH, 17), *TIE_CORPORA, *REPEAT_CORPORA,
                 *LITERAL_CORPORA, *RANDOM_CORPORA, *EDGE_CORPORA]])
def reference(corpus: tuple[str, ...], target: int) -> tuple[list[str], list[tuple[str, str]]]:
    return ref.train_bpe_fast(list(corpus), target)


# --- timing corpora ------------------------------------------------------------------

LETTERS = 200
FIRST = 0x4E00  # CJK Unified Ideographs: 20,992 letters in a row, none of them White_Space
SPARSE_HEAVY, SPARSE_LETTERS = 100, 400  # sparse_corpus: its heavy words' letters, all
HEAVY_COUNT = 40  # the fewest occurrences of a heavy word of sparse_corpus


@cache
def zipf_corpus(words: int = 2000, top: int = 2000) -> tuple[str, ...]:
    """``words`` distinct random words over ``LETTERS`` letters; the word of rank r
    (from 1) occurs ``max(1, top // r)`` times, all its occurrences in one text."""
    rng = random.Random(31)
    alphabet = [chr(FIRST + i) for i in range(LETTERS)]
    found: set[str] = set()
    while len(found) < words:
        found.add("".join(rng.choice(alphabet) for _ in range(rng.randint(3, 9))))
    ordered = sorted(found)
    rng.shuffle(ordered)
    return tuple(" ".join([word] * max(1, top // rank)) for rank, word in enumerate(ordered, 1))


@cache
def uniform_corpus(seed: int) -> tuple[str, ...]:
    """1,000 random words over 8 letters, each text a line of 8 of them."""
    return tuple(random_corpus(seed, "abcdefgh", 1000, 150))


@cache
def sparse_corpus(heavy: int = 100, rest: int = 5000) -> tuple[str, ...]:
    """``heavy`` words of 8 distinct letters out of the first ``SPARSE_HEAVY`` letters, no
    two sharing a pair, three words per count from ``HEAVY_COUNT`` up, each word's
    occurrences in one text; then ``rest`` distinct words over the other letters of
    ``SPARSE_LETTERS``, once each, 20 to a text (about 21,000 distinct pairs). No pair of
    the rest reaches ``HEAVY_COUNT``, so the heavy words' merges come first, one word at a
    time: 7 inside each word, then one per last letter with the end of word, shared by
    the few words that end with it (766 merges in all, for the defaults)."""
    rng = random.Random(7)
    letters = [chr(FIRST + i) for i in range(SPARSE_LETTERS)]
    taken: set[tuple[str, str]] = set()
    words: list[str] = []
    while len(words) < heavy:
        word = rng.sample(letters[:SPARSE_HEAVY], 8)
        pairs = set(zip(word, word[1:]))
        if not pairs & taken:
            taken |= pairs
            words.append("".join(word))
    texts = [" ".join([word] * (HEAVY_COUNT + rank // 3)) for rank, word in enumerate(words)]
    found: set[str] = set()
    while len(found) < rest:
        found.add("".join(rng.choice(letters[SPARSE_HEAVY:]) for _ in range(rng.randint(3, 8))))
    ordered = sorted(found)
    rng.shuffle(ordered)
    texts += [" ".join(ordered[i:i + 20]) for i in range(0, len(ordered), 20)]
    counts: dict[tuple[str, str], int] = {}
    for word in ordered:
        for pair in zip(word, word[1:] + EOW):
            counts[pair] = counts.get(pair, 0) + 1
    assert max(counts.values()) < HEAVY_COUNT, "a pair of the rest would be merged early"
    rng.shuffle(texts)
    return tuple(texts)


def relabel(value, block: int, span: int = LETTERS):
    """``value`` (a str, or lists and tuples of them) with every letter of a timing
    alphabet of ``span`` letters (``LETTERS``, ``SPARSE_LETTERS``) moved ``block`` blocks
    of ``span`` up; other characters unchanged."""
    if isinstance(value, str):
        shift = block * span
        return "".join(chr(ord(c) + shift) if FIRST <= ord(c) < FIRST + span else c
                       for c in value)
    return type(value)(relabel(v, block, span) for v in value)


def base_size(corpus) -> int:
    """The size of the base vocabulary: UNK, EOW and the distinct characters of the words."""
    return 2 + len({c for text in corpus for c in text if not c.isspace()})
