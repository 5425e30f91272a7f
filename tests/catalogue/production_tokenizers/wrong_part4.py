"""Part 4 (WordPiece): wrong implementations students hand in.

(About 550 lines: 28 entries, each the whole function a student hands in.)

Pre-tokenization, greedy longest match, the unknown word, the tokenizer's encode/decode,
and the likelihood-score trainer. Each witness shows the bug on a small input.
"""

from ..catalogue import differs
from . import wrong

VOCAB = {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "u": 4, "##n": 5, "a": 8, "ab": 9,
         "##bc": 10, "##c": 13, "#": 12, "###": 16, "é": 17, "##é": 18}


def wp(ns, word, vocab=VOCAB, *rest):
    return ns["wordpiece_tokenize"](word, vocab, *rest)


def edited(source: str, *changes: tuple[str, str]) -> str:
    """``source`` with each ``(text, replacement)`` applied: the code of a student whose
    function differs from the reference's in those lines."""
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new)
    return source


# The reference's bert_pretokenize as one function, as a student writes it.
BERT = """
def bert_pretokenize(text):
    words, current = [], []
    for char in text:
        code = ord(char)
        punct = 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126
        punct = punct or unicodedata.category(char).startswith("P")
        if char in WHITE_SPACE or punct:
            if current:
                words.append("".join(current))
                current = []
            if char not in WHITE_SPACE:
                words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words
"""


# --- bert_pretokenize -----------------------------------------------------------------


@wrong(
    4,
    "white space is whatever str.isspace() says",
    edited(BERT, ("char in WHITE_SPACE", "char.isspace()"), ("char not in WHITE_SPACE",
                                                             "not char.isspace()")),
)
def p4_pretokenize_isspace(bug, ref):
    differs(bug, ref, lambda ns: ns["bert_pretokenize"]("a\x1cb"))


@wrong(
    4,
    "punctuation is what Unicode files under P*",
    edited(BERT, ("punct = punct or unicodedata", "punct = unicodedata")),
)
def p4_punctuation_unicode_only(bug, ref):
    differs(bug, ref, lambda ns: ns["bert_pretokenize"]("$5+3"))


@wrong(
    4,
    "punctuation is string.punctuation",
    "import string\n" + edited(BERT, ('punct = punct or unicodedata.category(char).startswith("P")',
                                      "punct = char in string.punctuation")),
)
def p4_punctuation_ascii_only(bug, ref):
    differs(bug, ref, lambda ns: ns["bert_pretokenize"]("¿qué?"))


@wrong(
    4,
    "symbols are punctuation too: every category P* and S*",
    edited(BERT, ('unicodedata.category(char).startswith("P")',
                  'unicodedata.category(char)[0] in "PS"')),
)
def p4_punctuation_includes_symbols(bug, ref):
    differs(bug, ref, lambda ns: ns["bert_pretokenize"]("5€"))


@wrong(
    4,
    "a run of punctuation is one word, like a run of letters",
    """
    def bert_pretokenize(text):
        words, current, kind = [], "", None
        for char in text:
            if char in WHITE_SPACE:
                if current:
                    words.append(current)
                current, kind = "", None
                continue
            new = is_bert_punctuation(char)
            if current and new != kind:
                words.append(current)
                current = ""
            current += char
            kind = new
        if current:
            words.append(current)
        return words
    """,
)
def p4_pretokenize_groups_punctuation(bug, ref):
    differs(bug, ref, lambda ns: ns["bert_pretokenize"]("wait..."))


# --- wordpiece_tokenize ---------------------------------------------------------------


@wrong(
    4,
    "try the shortest piece first and grow it",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(start + 1, len(word) + 1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return [unk_token]
        return pieces
    """,
)
def p4_shortest_match_first(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "unaffable"))


@wrong(
    4,
    "every piece is a continuation, so every piece gets ##",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return [unk_token]
        return pieces
    """,
)
def p4_continuation_on_first_piece(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "unaffable"))


@wrong(
    4,
    "## is only how the vocabulary file writes pieces; look them up without it",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                if word[start:end] in vocab:
                    pieces.append(word[start:end])
                    start = end
                    break
            else:
                return [unk_token]
        return pieces
    """,
)
def p4_no_continuation_prefix(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "unaffable"))


@wrong(
    4,
    "an unknown position becomes [UNK] and the rest of the word goes on",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                pieces.append(unk_token)
                start += 1
        return pieces
    """,
)
def p4_unknown_per_piece(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "un😀able"))


@wrong(
    4,
    "a word that cannot be cut is dropped",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return []
        return pieces
    """,
)
def p4_unknown_word_dropped(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "xyz"))


@wrong(
    4,
    "the unknown token is always [UNK]",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) > max_input_chars_per_word:
            return ["[UNK]"]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces
    """,
)
def p4_ignores_unk_token(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "xyz", VOCAB, "<unk>"))


@wrong(
    4,
    "max_input_chars_per_word is the first length that is too long",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word) >= max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return [unk_token]
        return pieces
    """,
)
def p4_length_limit_off_by_one(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "a" * 100, {"a": 0, "##a": 1}))


@wrong(
    4,
    "the length limit is in bytes, as the model's input is",
    """
    def wordpiece_tokenize(word, vocab, unk_token="[UNK]", max_input_chars_per_word=100):
        if len(word.encode("utf-8")) > max_input_chars_per_word:
            return [unk_token]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(piece)
                    start = end
                    break
            else:
                return [unk_token]
        return pieces
    """,
)
def p4_length_limit_in_bytes(bug, ref):
    differs(bug, ref, lambda ns: wp(ns, "é" * 60))


# --- WordPieceTokenizer ---------------------------------------------------------------


@wrong(
    4,
    "the tokenizer's settings are wordpiece_tokenize's defaults anyway",
    """
    class WordPieceTokenizer(WordPieceTokenizer):
        def tokenize(self, text):
            pieces = []
            for word in bert_pretokenize(text):
                pieces += wordpiece_tokenize(word, self.vocab)
            return pieces
    """,
)
def p4_encode_ignores_settings(bug, ref):
    differs(bug, ref, lambda ns: ns["WordPieceTokenizer"](VOCAB, "[UNK]", 3).encode("unaffable"))


@wrong(
    4,
    "decode strips the ## of each token and joins with spaces",
    """
    class WordPieceTokenizer(WordPieceTokenizer):
        def decode(self, ids):
            tokens = []
            for i in ids:
                if i not in self.id_to_token:
                    raise ValueError(f"unknown token ID {i!r}")
                tokens.append(self.id_to_token[i].removeprefix("##"))
            return " ".join(tokens)
    """,
)
def p4_decode_keeps_spaces(bug, ref):
    differs(bug, ref, lambda ns: ns["WordPieceTokenizer"](VOCAB).decode([1, 2, 3]))


@wrong(
    4,
    "decode removes every ## it finds",
    """
    class WordPieceTokenizer(WordPieceTokenizer):
        def decode(self, ids):
            tokens = []
            for i in ids:
                if i not in self.id_to_token:
                    raise ValueError(f"unknown token ID {i!r}")
                tokens.append(self.id_to_token[i])
            return " ".join(tokens).replace("##", "")
    """,
)
def p4_decode_removes_every_hash(bug, ref):
    differs(bug, ref, lambda ns: ns["WordPieceTokenizer"](VOCAB).decode([12, 16]))


@wrong(
    4,
    "an unknown ID decodes to [UNK], like an unknown word",
    """
    class WordPieceTokenizer(WordPieceTokenizer):
        def decode(self, ids):
            tokens = [self.id_to_token.get(i, self.unk_token) for i in ids]
            return " ".join(tokens).replace(" ##", "")
    """,
)
def p4_decode_unknown_id_is_unk(bug, ref):
    differs(bug, ref, lambda ns: ns["WordPieceTokenizer"](VOCAB).decode([99]))


@wrong(
    4,
    "a dictionary lookup fails by itself for an unknown ID",
    """
    class WordPieceTokenizer(WordPieceTokenizer):
        def decode(self, ids):
            return " ".join(self.id_to_token[i] for i in ids).replace(" ##", "")
    """,
)
def p4_decode_unknown_id_keyerror(bug, ref):
    differs(bug, ref, lambda ns: ns["WordPieceTokenizer"](VOCAB).decode([99]))


# --- train_wordpiece ------------------------------------------------------------------

TRAIN = ["ab ab ab ab ab xy xy b"]

# The reference's trainer as one function, as a student writes it.
TRAINER = """
def train_wordpiece(corpus, vocab_size):
    words = Counter()
    for text in corpus:
        for word in bert_pretokenize(text):
            words[(word[0],) + tuple("##" + c for c in word[1:])] += 1
    vocab = ["[UNK]"] + sorted({piece for pieces in words for piece in pieces})
    known = set(vocab)
    while len(vocab) < vocab_size:
        token_counts, pair_counts = Counter(), Counter()
        for pieces, freq in words.items():
            for piece in pieces:
                token_counts[piece] += freq
            for pair in zip(pieces, pieces[1:]):
                pair_counts[pair] += freq
        if not pair_counts:
            break
        scores = {(a, b): Fraction(n, token_counts[a] * token_counts[b])
                  for (a, b), n in pair_counts.items()}
        a, b = min(scores, key=lambda pair: (-scores[pair], pair))
        token = a + b.removeprefix("##")
        if token not in known:
            vocab.append(token)
            known.add(token)
        merged = Counter()
        for pieces, freq in words.items():
            out, i = [], 0
            while i < len(pieces):
                if i + 1 < len(pieces) and pieces[i] == a and pieces[i + 1] == b:
                    out.append(token)
                    i += 2
                else:
                    out.append(pieces[i])
                    i += 1
            merged[tuple(out)] += freq
        words = merged
    return vocab
"""
SCORE = "Fraction(n, token_counts[a] * token_counts[b])"


def trained(ns, corpus=TRAIN, size=30):
    return ns["train_wordpiece"](list(corpus), size)


@wrong(4, "WordPiece is BPE with ##: merge the most frequent pair", edited(TRAINER, (SCORE, "n")))
def p4_train_by_frequency(bug, ref):
    differs(bug, ref, trained)


@wrong(
    4,
    "a score is a float: count / count_a / count_b",
    edited(TRAINER, (SCORE, "n / token_counts[a] / token_counts[b]")),
)
def p4_train_float_two_divisions(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, ["aac aac aac aad aac aac aad aad aac aad"], 6))


@wrong(
    4,
    "count(a) and count(b) add up: the score divides by their sum",
    edited(TRAINER, (SCORE, "Fraction(n, token_counts[a] + token_counts[b])")),
)
def p4_train_score_over_sum(bug, ref):
    differs(bug, ref, trained)


@wrong(
    4,
    "every distinct word counts once",
    edited(TRAINER, ('for c in word[1:])] += 1', 'for c in word[1:])] = 1')),
)
def p4_train_unweighted(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, ["ab ab ab ab ab xy xy b ay"], 8))


@wrong(
    4,
    "equal scores: the last pair in sorted order wins",
    edited(TRAINER, ("a, b = min(scores, key=lambda pair: (-scores[pair], pair))",
                     "a, b = max(scores, key=lambda pair: (scores[pair], pair))")),
)
def p4_train_ties_to_largest_pair(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, ["cd ab"], 6))


@wrong(
    4,
    "the merged token is the two pieces glued as they are",
    edited(TRAINER, ('token = a + b.removeprefix("##")', "token = a + b")),
)
def p4_train_keeps_inner_hashes(bug, ref):
    differs(bug, ref, trained)


@wrong(
    4,
    "the alphabet is the corpus's characters",
    edited(TRAINER, ("sorted({piece for pieces in words for piece in pieces})",
                     'sorted({c for pieces in words for piece in pieces '
                     'for c in piece.removeprefix("##")})')),
)
def p4_train_alphabet_without_hashes(bug, ref):
    differs(bug, ref, trained)


@wrong(
    4,
    "a training text is split into words by str.split()",
    edited(TRAINER, ("for word in bert_pretokenize(text):", "for word in text.split():")),
)
def p4_train_words_by_split(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, ["don't!"], 3))


@wrong(
    4,
    "[UNK] is not a learned token, so it does not count towards vocab_size",
    edited(TRAINER, ("while len(vocab) < vocab_size:", "while len(vocab) - 1 < vocab_size:")),
)
def p4_train_size_without_unk(bug, ref):
    differs(bug, ref, lambda ns: trained(ns, TRAIN, 6))


@wrong(
    4,
    "a merge is applied from the right end of the word",
    edited(TRAINER, ("""
            out, i = [], 0
            while i < len(pieces):
                if i + 1 < len(pieces) and pieces[i] == a and pieces[i + 1] == b:
                    out.append(token)
                    i += 2
                else:
                    out.append(pieces[i])
                    i += 1
            merged[tuple(out)] += freq""", """
            out, i = [], len(pieces) - 1
            while i >= 0:
                if i > 0 and pieces[i - 1] == a and pieces[i] == b:
                    out.append(token)
                    i -= 2
                else:
                    out.append(pieces[i])
                    i -= 1
            merged[tuple(reversed(out))] += freq""")),
)
def p4_train_merges_from_the_right(bug, ref):
    # "b ##a ##a ##a ##a ##a": ("##a", "##a") merges first, then ("b", "##aa") or ("b", "##a").
    differs(bug, ref, lambda ns: trained(ns, ["b c abb abb baaaaa babb baaaaa"], 22))
