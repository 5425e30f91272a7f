"""Part 4: WordPiece (15 points).

(About 320 lines: four functions of 15 points, each with worked cases and random inputs.)

Every expected value is the reference's, which the repository's tests prove equal to HF
``tokenizers`` (``BertPreTokenizer`` + ``models.WordPiece``) wherever HF's Unicode tables
agree with the grader's Python. Pre-tokenization is graded on the characters the spec names
(every White_Space character, the separators that are not White_Space, BERT's ASCII
punctuation, category P* including code points new in Unicode 14) and on random text of
assigned code points; WordPiece on worked cases (greedy longest match, ``##``, whole-word
``[UNK]``, the length limit in characters) and random vocabularies; the trainer exactly,
token by token, on corpora with ties and on random corpora. Vocabularies are sent once per
test (``put``) and every column of calls is one request (``many``).
"""

import random

import pytest

import solutions.production_tokenizers as ref
from autograder.suite.checks import (
    by_size,
    check,
    expect_ids,
    expect_raises,
    expect_remote,
    expect_str,
    expect_str_list,
    show,
    versus,
)
from autograder.suite.remote import many

from .p46_inputs import (
    ASCII_PUNCT,
    NOT_PUNCT,
    NOT_WHITE,
    UNICODE_PUNCT,
    WHITE,
    assigned_char,
    bert_text,
    random_word,
    wordpiece_vocab,
)

PART = 4

# --- bert_pretokenize ------------------------------------------------------------------

BERT_EXAMPLES = [
    "Hello, world!  (x=1)",
    "don't stop--now...",
    "$5+3^2 | ~a`b <c> {d} [e] \\f @g #h %i &j *k _l",
    "¿Qué? «Ça» 「東京」 — ok…",
    "a" + "b".join(WHITE) + "c",  # every White_Space character splits
    "a" + "b".join(NOT_WHITE) + "c",  # isspace() or invisible, but not White_Space
    "x\u2e56y\U00011666z\U0001145bw",  # P* in Unicode 14, outside the BMP
    "caf€ 3×4 © 😀!🤗 ½² naïve e\u0301",  # symbols and marks stay inside words
    "日本語のテキスト、です。한국어!",
    "",
    " \t\n\u3000 ",
    "!!!",
    "##a##b #",
]
# Every punctuation character alone between letters, and every symbol that is not.
BERT_SINGLES = [f"a{p}b" for p in ASCII_PUNCT + UNICODE_PUNCT + NOT_PUNCT]
BERT_RANDOM = by_size(
    [bert_text(random.Random(seed)) for seed in range(250)]
    + ["".join(assigned_char(random.Random(1000 + seed)) for _ in range(12))
       for seed in range(150)])


def check_pretokenized(texts: list[str], got_all: list) -> None:
    for text, got in zip(texts, got_all):
        what = lambda: f"bert_pretokenize({show(text)})"  # noqa: E731 - written on failure
        got = expect_str_list(got, what)
        expected = ref.bert_pretokenize(text)
        check(got == expected, lambda: f"{what()} returned {versus(got, expected)}")


def pretokenize_all(student, texts: list[str]) -> list:
    return many(student, "bert_pretokenize", texts,
                describe=lambda row: f"bert_pretokenize({show(row[0])})")


@pytest.mark.points(2)
def test_bert_pretokenize_rules(student):
    """bert_pretokenize splits on White_Space only and isolates BERT's punctuation"""
    texts = BERT_EXAMPLES + BERT_SINGLES
    check_pretokenized(texts, pretokenize_all(student, texts))


@pytest.mark.points(1)
def test_bert_pretokenize_random_text(student):
    """bert_pretokenize on random text of every script (assigned code points)"""
    check_pretokenized(BERT_RANDOM, pretokenize_all(student, BERT_RANDOM))


# --- wordpiece_tokenize ----------------------------------------------------------------

VOCAB = {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "u": 4, "##n": 5, "##a": 6, "##ff": 7,
         "a": 8, "ab": 9, "##bc": 10, "##b": 11, "#": 12, "##c": 13, "aff": 14, "##": 15,
         "###": 16, "é": 17, "##é": 18, "caf": 19, "日": 20, "##本": 21, "日本語": 22, "<unk>": 23,
         "##e\u0301": 24, "cafe": 25}


def wordpiece(student, cases: list[tuple]) -> None:
    """``wordpiece_tokenize(word, vocab, unk, limit)`` of every case, against the reference."""
    vocabs: dict[int, object] = {}  # each vocabulary sent once
    columns: list[list] = [[], [], [], []]
    for word, vocab, unk, limit in cases:
        if id(vocab) not in vocabs:
            vocabs[id(vocab)] = student.put(vocab)
        for column, value in zip(columns, (word, vocabs[id(vocab)], unk, limit)):
            column.append(value)

    def describe(row) -> str:
        return f"wordpiece_tokenize({show(row[0])}, vocab, {show(row[2])}, {show(row[3])})"

    got_all = many(student, "wordpiece_tokenize", *columns, describe=describe)
    for (word, vocab, unk, limit), got in zip(cases, got_all):
        what = lambda: (  # noqa: E731 - written on failure
            f"wordpiece_tokenize({show(word)}, {show(vocab, 120)}, {show(unk)}, {show(limit)})")
        got = expect_str_list(got, what)
        expected = ref.wordpiece_tokenize(word, vocab, unk, limit)
        check(got == expected, lambda: f"{what()} returned {versus(got, expected)}")


@pytest.mark.points(1)
def test_wordpiece_longest_match_first(student):
    """Greedy longest match from the left; every piece after the first has ##"""
    words = ["unaffable", "affable", "abc", "uaff", "aff", "unab", "a", "ab", "abb", "#", "##",
             "###", "a#", "é", "éé", "café", "cafe\u0301", "日本語", "日本", "日本本"]
    wordpiece(student, [(w, VOCAB, "[UNK]", 100) for w in words])


@pytest.mark.points(1)
def test_wordpiece_unknown_word(student):
    """A word becomes one [UNK] if any position has no piece, or if it is too long"""
    greedy_trap = {k: v for k, v in VOCAB.items() if k != "##c"}  # "ab" then no "##c"
    two = {"a": 0, "##a": 1, "é": 2, "##é": 3, "😀": 4, "##😀": 5}
    cases = [(w, VOCAB, "[UNK]", 100) for w in ["un😀able", "unaffablex", "x", "bc", "日語"]]
    cases += [("abc", greedy_trap, "[UNK]", 100), ("un😀", VOCAB, "<unk>", 100),
              ("zz", VOCAB, "[MISSING]", 100)]
    # The limit counts characters (not bytes); a word of exactly the limit is fine.
    cases += [("a" * n, two, "[UNK]", 100) for n in (99, 100, 101, 150)]
    cases += [("é" * n, two, "[UNK]", 100) for n in (60, 100, 101)]
    cases += [("😀" * 30, two, "[UNK]", 100), ("a" * 200, two, "[UNK]", 200),
              ("a" * 201, two, "[UNK]", 200)]
    cases += [("a" * n, two, "[UNK]", limit) for n, limit in ((3, 3), (4, 3), (1, 1), (2, 1))]
    wordpiece(student, cases)
    got = student.call("wordpiece_tokenize", "aaaa", two, max_input_chars_per_word=3,
                       unk_token="<u>")
    what = (f"wordpiece_tokenize({show('aaaa')}, vocab, max_input_chars_per_word={show(3)}, "
            f"unk_token={show('<u>')})")
    check(expect_str_list(got, what) == ["<u>"], lambda: f"{what} returned {versus(got, ['<u>'])}")
    for n in (100, 101):  # the default limit: 100 characters pass, 101 do not
        got = student.call("wordpiece_tokenize", "a" * n, two)
        expected = ref.wordpiece_tokenize("a" * n, two)
        check(got == expected,
              lambda: f"wordpiece_tokenize({show('a' * n)}, vocab) returned "
                      f"{versus(got, expected)} (the default limit is 100 characters)")


WORDPIECE_RANDOM = []
for _seed in range(16):
    _rng = random.Random(400 + _seed)
    _vocab = wordpiece_vocab(_rng)
    WORDPIECE_RANDOM += [(random_word(_rng), _vocab, "[UNK]", _rng.choice([100, 100, 5]))
                         for _ in range(25)]


@pytest.mark.points(2)
def test_wordpiece_random_vocabularies(student):
    """wordpiece_tokenize on random words and random vocabularies"""
    wordpiece(student, WORDPIECE_RANDOM)


# --- WordPieceTokenizer ----------------------------------------------------------------

TOKENIZER_VOCAB = {**VOCAB, "hello": 26, ",": 27, ".": 28, "!": 29, "world": 30, "##s": 31,
                   "$": 32, "«": 33, "»": 34, "the": 35, "a": 8, "##ll": 36, "he": 37}
SETTINGS = [("[UNK]", 100), ("<unk>", 100), ("[UNK]", 5)]


def tokenizer_text(rng: random.Random) -> str:
    words = ["hello", "world", "unaffable", "the", "cafe", "café", "he", "hell", "affs", "ab",
             "abc", "日本語", "a" * 7, "x", "😀"]
    seps = [" ", "  ", "\t", "\n", ", ", ". ", "!", " $", "«", "» ", "\u3000", "\xa0"]
    return "".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(0, 6)))


TOKENIZER_TEXTS = by_size([tokenizer_text(random.Random(500 + s)) for s in range(60)]
                          + ["", " ", "Hello, world!", "hello\x1cworld", "«the» cafe\u0301",
                             # words of 100 and 101 characters: the default limit
                             "he" + "l" * 98 + " x", "he" + "l" * 98 + "s x"])


def tokenizer(student, *args):
    return expect_remote(student.call("WordPieceTokenizer", TOKENIZER_VOCAB, *args),
                         "WordPieceTokenizer(vocab, ...)")


@pytest.mark.points(1)
def test_tokenizer_encode(student):
    """WordPieceTokenizer.encode: pre-tokenize, WordPiece each word, look up the IDs"""
    for unk, limit in SETTINGS:
        args = (unk, limit) if (unk, limit) != SETTINGS[0] else ()
        tok = tokenizer(student, *args)
        expected_tok = ref.WordPieceTokenizer(TOKENIZER_VOCAB, unk, limit)
        encode = student.get(tok, "encode")
        got_all = many(student, encode, TOKENIZER_TEXTS,
                       describe=lambda row: f"encode({show(row[0])})")
        setting = f"WordPieceTokenizer(vocab{''.join(', ' + show(a) for a in args)})"
        for text, got in zip(TOKENIZER_TEXTS, got_all):
            what = f"{setting}.encode({show(text)})"
            got = expect_ids(got, what)
            expected = expected_tok.encode(text)
            check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


def random_ids(rng: random.Random) -> list[int]:
    ids = sorted(set(TOKENIZER_VOCAB.values()))
    return [rng.choice(ids) for _ in range(rng.randint(0, 8))]


DECODE_CASES = by_size([random_ids(random.Random(600 + s)) for s in range(60)]
                       + [[1, 2, 3, 28, 26], [15, 16, 12], [12, 16], [20, 21], [25, 24]])


@pytest.mark.points(1)
def test_tokenizer_decode(student):
    """decode joins the tokens with one space, then removes every " ##\""""
    tok = tokenizer(student)
    decode = student.get(tok, "decode")
    got_all = many(student, decode, DECODE_CASES, describe=lambda row: f"decode({show(row[0])})")
    expected_tok = ref.WordPieceTokenizer(TOKENIZER_VOCAB)
    for ids, got in zip(DECODE_CASES, got_all):
        what = f"WordPieceTokenizer(vocab).decode({show(ids)})"
        got = expect_str(got, what)
        expected = expected_tok.decode(ids)
        check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


@pytest.mark.points(1)
def test_tokenizer_decode_unknown_id(student):
    """decode raises ValueError for an ID that is not in the vocabulary"""
    tok = tokenizer(student)
    for ids in ([99], [1, 2, -1], [len(TOKENIZER_VOCAB) + 5, 1]):
        expect_raises("ValueError", f"WordPieceTokenizer(vocab).decode({show(ids)})",
                      student.method, tok, "decode", ids)


# --- train_wordpiece -------------------------------------------------------------------


def trained(student, cases: list[tuple[list[str], int]]) -> None:
    got_all = many(student, "train_wordpiece", [c for c, _ in cases], [n for _, n in cases],
                   describe=lambda row: f"train_wordpiece({show(row[0])}, {show(row[1])})")
    for (corpus, size), got in zip(cases, got_all):
        what = f"train_wordpiece({show(corpus)}, {show(size)})"
        got = expect_str_list(got, what)
        expected = ref.train_wordpiece(corpus, size)
        check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


# Score against frequency: ("x", "##y") occurs twice but x and y never apart (1/2); the
# frequent ("a", "##b") pair scores 5/(5*6). Ties: equal scores, smallest pair first.
TRAIN_EXAMPLES = [
    (["ab ab ab ab ab xy xy b"], 30),
    (["ab ab ab ab ab xy xy b"], 8),
    (["ba ab", "dc cd"], 20),  # four pairs, all with score 1: ('a','##b') first
    (["aaa aaaa", "aa"], 12),
    # ('##a', '##a') merges first, left to right without overlap: "b ##aa ##aa ##a", so the
    # next merges are ('b', '##aa') and ('##aa', '##a'), never ('b', '##a').
    (["b c abb abb baaaaa babb baaaaa"], 22),
    (["low lower lowest", "newer newest new", "wider wide"], 40),
    (["tu tuu uu", "ut"], 10),
    (["It's 10:30, Mr. O'Neil!", "«Ça va?» — «Oui.»"], 40),
    (["日本語 日本 本語", "한국어 한국"], 30),
    (["hello\tworld\u3000hello\xa0world", "help\x1cme"], 40),
    (["abc abd abe", "xbc"], 4),  # below the alphabet: nothing is cut
    ([], 10),
    (["", "   "], 10),
    (["a"], 5),
    (["abab abab cdcd"], 100),
]


@pytest.mark.points(2)
def test_train_wordpiece_examples(student):
    """train_wordpiece merges by count(a,b) / (count(a) count(b)), ties to the smallest pair"""
    trained(student, TRAIN_EXAMPLES)


def float_trap() -> list[tuple[list[str], int]]:
    """Corpora whose best score ties with another as fractions, while floats divided in two
    steps (``count / count_a / count_b``) tell them apart: 1/10 comes out as 0.09999999999999999
    one way and 0.1 the other. Only exact arithmetic gets these ties right."""
    corpora = ["aac aac aac aad aac aac aad aad aac aad", "ad ad adc adc adc ad ad adc adc adc ad",
               "ab adb adb adb adb ab ab ab adb adb adb ab adb adb",
               "bdb bdb bdb bcb bcb bcb bcb bdb bdb"]
    return [([text], size) for text in corpora for size in (6, 12)]


def random_corpus(rng: random.Random) -> list[str]:
    words = ["".join(rng.choice("abcdé") for _ in range(rng.randint(1, 5)))
             for _ in range(rng.randint(1, 6))]
    punct = ["", "", "", ".", ",", "!", "'"]
    return [" ".join(rng.choice(words) + rng.choice(punct) for _ in range(rng.randint(0, 6)))
            for _ in range(rng.randint(1, 4))]


TRAIN_RANDOM = [(random_corpus(random.Random(700 + s)), random.Random(s).randint(5, 30))
                for s in range(30)]


@pytest.mark.points(1)
def test_train_wordpiece_exact_ties(student):
    """Equal scores are equal fractions: the tie goes to the smallest pair"""
    trained(student, float_trap() + [(["cd ab"], 6), (["ba dc"], 6), (["xy ab", "ab xy"], 7)])


@pytest.mark.points(2)
def test_train_wordpiece_random_corpora(student):
    """train_wordpiece on random corpora: the vocabulary, token by token"""
    trained(student, TRAIN_RANDOM)
