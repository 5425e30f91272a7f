"""Part 4 (``build_vocab``, ``word_frequencies``, ``count_pairs``, ``merge_pair``)."""

from ..catalogue import differs
from . import wrong


def built(ns, corpus, vocab=None):
    tokenizer = ns["CharTokenizer"](vocab)
    tokenizer.build_vocab(corpus)
    return tokenizer


def word_tokens_of(words):
    return {word: list(word) + [" "] for word in words}


@wrong(
    4,
    "a set of characters is already in a fixed order",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            chars = set()
            for text in corpus:
                chars.update(text)
            self._set_vocab(list(chars))
    """,
)
def p4_build_vocab_unsorted(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["the quick brown fox jumps"]).vocab)


@wrong(
    4,
    "the vocabulary keeps the characters in the order the corpus first shows them",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            seen = dict.fromkeys(ch for text in corpus for ch in text)
            self._set_vocab(list(seen))
    """,
)
def p4_build_vocab_first_seen_order(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["the quick brown fox jumps"]).vocab)


@wrong(
    4,
    "build_vocab adds the new characters to the vocabulary the tokenizer already has",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            new = sorted({ch for text in corpus for ch in text} - set(self.vocab))
            self._set_vocab(self.vocab[1:] + new)
    """,
)
def p4_build_vocab_appends_to_old(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["hello"], vocab=["z"]).vocab)


@wrong(
    4,
    "setting self.vocab is enough; the lookup tables follow",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            self.vocab = [UNK] + sorted({ch for text in corpus for ch in text})
    """,
)
def p4_build_vocab_keeps_stale_mappings(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["hello", "world"]).encode("hello"))


@wrong(
    4,
    "the vocabulary is built from the words, so whitespace is not part of it",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            self._set_vocab(sorted({ch for text in corpus for word in text.split() for ch in word}))
    """,
)
def p4_build_vocab_skips_whitespace(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["hello world"]).vocab)


@wrong(
    4,
    "split(' ') and split() split the same way",
    """
    def word_frequencies(corpus):
        counts = Counter()
        for text in corpus:
            counts.update(text.split(" "))
        return counts
    """,
)
def p4_word_frequencies_split_on_space(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["word_frequencies"](["a  b\tc", "a"])))


@wrong(
    4,
    "a word's frequency is the number of texts it appears in",
    """
    def word_frequencies(corpus):
        counts = Counter()
        for text in corpus:
            counts.update(set(text.split()))
        return counts
    """,
)
def p4_word_frequencies_per_text(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["word_frequencies"](["low low lower"])))


@wrong(
    4,
    "a word holds a pair or it does not (`aaa` holds (a, a) once)",
    """
    def count_pairs(word_tokens, word_freq):
        counts = Counter()
        for word, tokens in word_tokens.items():
            for pair in set(zip(tokens, tokens[1:])):
                counts[pair] += word_freq[word]
        return counts
    """,
)
def p4_count_pairs_by_set(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["count_pairs"](word_tokens_of(["aaa"]), {"aaa": 2})))


@wrong(
    4,
    "every distinct word counts once; word_freq is only needed later",
    """
    def count_pairs(word_tokens, word_freq):
        counts = Counter()
        for tokens in word_tokens.values():
            for pair in zip(tokens, tokens[1:]):
                counts[pair] += 1
        return counts
    """,
)
def p4_count_pairs_unweighted(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["count_pairs"](word_tokens_of(["ab"]), {"ab": 3})))


@wrong(
    4,
    "range(len(tokens) - 2) covers every adjacent pair (it misses the last one)",
    """
    def count_pairs(word_tokens, word_freq):
        counts = Counter()
        for word, tokens in word_tokens.items():
            for i in range(len(tokens) - 2):
                counts[(tokens[i], tokens[i + 1])] += word_freq[word]
        return counts
    """,
)
def p4_count_pairs_off_by_one(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["count_pairs"](word_tokens_of(["ab"]), {"ab": 1})))


@wrong(
    4,
    "a pair can be keyed by its merged string",
    """
    def count_pairs(word_tokens, word_freq):
        counts = Counter()
        for word, tokens in word_tokens.items():
            for a, b in zip(tokens, tokens[1:]):
                counts[a + b] += word_freq[word]
        return counts
    """,
)
def p4_count_pairs_keyed_by_merged_string(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["count_pairs"](word_tokens_of(["ab"]), {"ab": 1})))


@wrong(
    4,
    "after a merge, move on to the next position (the merged token's right half is used twice)",
    """
    def merge_pair(tokens, pair):
        merged = []
        i = 0
        while i < len(tokens):
            if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
                merged.append(pair[0] + pair[1])
            else:
                merged.append(tokens[i])
            i += 1
        return merged
    """,
)
def p4_merge_pair_overlapping(bug, ref):
    differs(bug, ref, lambda ns: ns["merge_pair"](["a", "a", "a", " "], ("a", "a")))


@wrong(
    4,
    "merging is string replacement on the joined tokens",
    """
    def merge_pair(tokens, pair):
        joined = "|".join(tokens)
        return joined.replace(pair[0] + "|" + pair[1], pair[0] + pair[1]).split("|")
    """,
)
def p4_merge_pair_by_string_replace(bug, ref):
    differs(bug, ref, lambda ns: ns["merge_pair"](["x", "ab", "c", " "], ("b", "c")))


@wrong(
    4,
    "merging in place is cheaper than building a new list",
    """
    def merge_pair(tokens, pair):
        i = 0
        while i < len(tokens) - 1:
            if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
                tokens[i : i + 2] = [pair[0] + pair[1]]
            i += 1
        return tokens
    """,
)
def p4_merge_pair_mutates_input(bug, ref):
    def probe(ns):
        tokens = ["a", "b", " "]
        ns["merge_pair"](tokens, ("a", "b"))
        return tokens

    differs(bug, ref, probe)


@wrong(
    4,
    "merging a pair means merging where it occurs (the first place)",
    """
    def merge_pair(tokens, pair):
        for i in range(len(tokens) - 1):
            if (tokens[i], tokens[i + 1]) == pair:
                return tokens[:i] + [pair[0] + pair[1]] + tokens[i + 2 :]
        return list(tokens)
    """,
)
def p4_merge_pair_first_occurrence_only(bug, ref):
    differs(bug, ref, lambda ns: ns["merge_pair"](["a", "b", "a", "b", " "], ("a", "b")))


@wrong(
    4,
    "the loop looks at pairs, so it runs to len(tokens) - 1 (and forgets the last token)",
    """
    def merge_pair(tokens, pair):
        merged = []
        i = 0
        while i < len(tokens) - 1:
            if tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
                merged.append(pair[0] + pair[1])
                i += 2
            else:
                merged.append(tokens[i])
                i += 1
        return merged
    """,
)
def p4_merge_pair_drops_last_token(bug, ref):
    differs(bug, ref, lambda ns: ns["merge_pair"](["a", "b", "c", " "], ("a", "b")))


@wrong(
    4,
    "words should be normalised to lower case before counting",
    """
    def word_frequencies(corpus):
        return Counter(word.lower() for text in corpus for word in text.split())
    """,
)
def p4_word_frequencies_lowercases(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["word_frequencies"](["The the"])))


@wrong(
    4,
    "punctuation is not part of a word",
    """
    def word_frequencies(corpus):
        counts = Counter()
        for text in corpus:
            for word in text.split():
                word = word.strip(".,;:!?\\"'()")
                if word:
                    counts[word] += 1
        return counts
    """,
)
def p4_word_frequencies_strips_punctuation(bug, ref):
    differs(bug, ref, lambda ns: dict(ns["word_frequencies"](["hello, world."])))


@wrong(
    4,
    "`ch not in UNK` keeps the UNK token out of the characters (it drops < U N K > too)",
    """
    class CharTokenizer(CharTokenizer):
        def build_vocab(self, corpus):
            chars = sorted({ch for text in corpus for ch in text if ch not in UNK})
            self._set_vocab(chars)
    """,
)
def p4_build_vocab_drops_unk_letters(bug, ref):
    differs(bug, ref, lambda ns: built(ns, ["<b>", "NUK"]).vocab)


@wrong(
    4,
    "merging a pair is a search and replace: join the tokens and let re.sub glue the pair",
    r'''
    import re

    def merge_pair(tokens, pair):
        if not tokens:
            return []
        # Words hold no tab, so a tab separates the tokens safely.
        text = "\t".join(tokens)
        pattern = r"(?<![^\t])" + re.escape(pair[0] + "\t" + pair[1]) + r"(?![^\t])"
        return re.sub(pattern, pair[0] + pair[1], text).split("\t")
    ''',
)
def p4_merge_pair_with_re_sub(bug, ref):
    differs(bug, ref, lambda ns: ns["merge_pair"](["\\", "1", "x"], ("\\", "1")))
