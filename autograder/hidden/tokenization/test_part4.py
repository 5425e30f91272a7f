"""Part 4: vocabulary building (20 points).

``CharTokenizer.build_vocab`` is graded on the student's ``CharTokenizer`` with the
reference's Part 2 members standing in for theirs (the sandbox's stand-ins), so a bug in
Part 2 costs nothing here. The three
BPE building blocks are compared with the reference on generated inputs.
"""

import random

import pytest

import solutions.tokenization as ref
from autograder.suite.checks import (
    as_id_map,
    by_size,
    check,
    expect_ids,
    expect_raises,
    expect_remote,
    expect_str_list,
    is_int,
    show,
    versus,
)
from autograder.suite.remote import (
    attributes,
    call_keeping_argument,
    handle,
    many,
)

from .inputs import (
    EOW,
    UNK,
    random_text,
)

PART = 4

SMALL_ALPHABET = "ab<>/é"


def random_corpus(seed: int) -> list[str]:
    rng = random.Random(seed)
    return [random_text(rng) for _ in range(rng.randint(0, 5))]


CORPORA = by_size([random_corpus(seed) for seed in range(40)]
                  + [[], [""], ["  \t\n "], ["a a a"], ["hello world", "world"]])


def same_char_map(got: object, expected: dict) -> bool:
    """``char_to_id`` as expected; whether it also maps the UNK string to 0 is free."""
    if type(got) is not dict or (UNK in got and got[UNK] != 0):
        return False
    return {k: v for k, v in got.items() if k != UNK} == {
        k: v for k, v in expected.items() if k != UNK}


def char_tokenizer(student, vocab=None):
    args = () if vocab is None else (vocab,)
    return expect_remote(student.call("CharTokenizer", *args), "CharTokenizer()",
                         "CharTokenizer")


def build(student, tok, corpus: list[str]) -> None:
    student.method(tok, "build_vocab", corpus)


def check_char_state(student, tok, expected: ref.CharTokenizer, what: str) -> None:
    vocab = expect_str_list(student.get(tok, "vocab"), f"{what}, vocab")
    check(vocab == expected.vocab, lambda: f"{what}, vocab is "
                                           f"{versus(vocab, expected.vocab)}")
    size = student.get(tok, "vocab_size")
    check(size == len(vocab), lambda: f"{what}, vocab_size is {show(size)}, expected {len(vocab)}")
    char_to_id = student.get(tok, "char_to_id")
    check(same_char_map(char_to_id, expected.char_to_id),
          lambda: f"{what}, char_to_id is {versus(char_to_id, expected.char_to_id)}")
    id_to_char = as_id_map(student.get(tok, "id_to_char"), f"{what}, id_to_char")
    check(id_to_char == expected.id_to_char, lambda: f"{what}, id_to_char is {show(id_to_char)}, "
                                                     f"expected {show(expected.id_to_char)}")


@pytest.mark.grades("CharTokenizer.build_vocab")
@pytest.mark.points(2)
@pytest.mark.visibility("visible")
def test_build_vocab_worked_example(student):
    """After build_vocab(["hello", "world"]): vocab_size == 8, encode("hello") == [3,2,4,4,5]"""
    tok = char_tokenizer(student)
    build(student, tok, ["hello", "world"])
    size = student.get(tok, "vocab_size")
    check(size == 8, lambda: f'after build_vocab(["hello", "world"]), vocab_size is {show(size)}, '
                             "expected 8")
    got = expect_ids(student.method(tok, "encode", "hello"), 'encode("hello")')
    check(got == [3, 2, 4, 4, 5], lambda: f'after build_vocab(["hello", "world"]), encode("hello") '
                                          f"is {show(got)}, expected [3, 2, 4, 4, 5]")


@pytest.mark.grades("CharTokenizer.build_vocab")
@pytest.mark.points(2)
def test_build_vocab_sorted(student):
    """build_vocab gives [UNK] + the sorted characters of the corpus, whitespace included"""
    toks = many(student, "CharTokenizer", [[]] * len(CORPORA))
    many(student, handle(student, "CharTokenizer", "build_vocab"), toks, CORPORA,
         describe=lambda row: f"build_vocab({show(row[1])})")
    found = {name: attributes(student, toks, name)
             for name in ("vocab", "vocab_size", "char_to_id", "id_to_char")}
    for i, corpus in enumerate(CORPORA):
        expected = ref.CharTokenizer()
        expected.build_vocab(corpus)
        what = f"after build_vocab({show(corpus)})"
        vocab = expect_str_list(found["vocab"][i], f"{what}, vocab")
        check(vocab == expected.vocab, lambda: f"{what}, vocab is "
                                               f"{versus(vocab, expected.vocab)}")
        size = found["vocab_size"][i]
        check(size == len(vocab),
              lambda: f"{what}, vocab_size is {show(size)}, expected {len(vocab)}")
        char_to_id = found["char_to_id"][i]
        check(same_char_map(char_to_id, expected.char_to_id),
              lambda: f"{what}, char_to_id is {versus(char_to_id, expected.char_to_id)}")
        id_to_char = as_id_map(found["id_to_char"][i], f"{what}, id_to_char")
        check(id_to_char == expected.id_to_char,
              lambda: f"{what}, id_to_char is {show(id_to_char)}, "
                      f"expected {show(expected.id_to_char)}")


@pytest.mark.grades("CharTokenizer.build_vocab")
@pytest.mark.points(2)
def test_build_vocab_replaces_old_vocabulary(student):
    """build_vocab replaces the old vocabulary and rebuilds both mappings"""
    tok = char_tokenizer(student, ["x", "y", "z", "a"])
    build(student, tok, ["ba", "ab"])
    expected = ref.CharTokenizer()
    expected.build_vocab(["ba", "ab"])
    what = 'after CharTokenizer(["x", "y", "z", "a"]).build_vocab(["ba", "ab"])'
    check_char_state(student, tok, expected, what)
    got = expect_ids(student.method(tok, "encode", "xab"), 'encode("xab")')
    check(got == [0, 1, 2], lambda: f'{what}, encode("xab") is {show(got)}, expected [0, 1, 2]')
    expect_raises("ValueError", f"{what}, decode([3])", student.method, tok, "decode", [3])
    build(student, tok, ["<UNK>", "c"])
    expected.build_vocab(["<UNK>", "c"])
    check_char_state(student, tok, expected, 'after a second build_vocab(["<UNK>", "c"])')


@pytest.mark.points(3)
@pytest.mark.grades("word_frequencies")
def test_word_frequencies(student):
    """word_frequencies counts every whitespace-separated word of every text"""
    got_all = many(student, "word_frequencies", CORPORA,
                   describe=lambda row: f"word_frequencies({show(row[0])})")
    for corpus, got in zip(CORPORA, got_all):
        expected = dict(ref.word_frequencies(corpus))
        what = f"word_frequencies({show(corpus)})"
        check(type(got) is dict and all(type(k) is str and is_int(v) for k, v in got.items()),
              lambda: f"{what} should return a Counter of str -> int, got {type(got).__name__} "
                      f"{show(got)}")
        got = {k: v for k, v in got.items() if v != 0}
        check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


def word_table(seed: int) -> tuple[dict, dict]:
    """``(word_tokens, word_freq)``: words split into tokens ending in EOW, with counts."""
    rng = random.Random(seed)
    words = {"".join(rng.choice(SMALL_ALPHABET) for _ in range(rng.randint(1, 6)))
             for _ in range(rng.randint(0, 5))}
    word_tokens, word_freq = {}, {}
    for word in sorted(words):
        symbols = list(word) + [EOW]
        cuts = sorted(rng.sample(range(1, len(symbols)), rng.randint(0, len(symbols) - 1)))
        bounds = [0, *cuts, len(symbols)]
        word_tokens[word] = ["".join(symbols[a:b]) for a, b in zip(bounds, bounds[1:])]
        word_freq[word] = rng.randint(1, 9)
    return word_tokens, word_freq


TABLES = by_size([word_table(seed) for seed in range(40)])


def check_pair_counts(got: object, word_tokens: dict, word_freq: dict) -> None:
    what = f"count_pairs({show(word_tokens, 60)}, {show(word_freq, 40)})"
    check(type(got) is dict and all(
        type(k) is tuple and len(k) == 2 and is_int(v) for k, v in got.items()  # type: ignore
    ), lambda: f"{what} should return a Counter of (str, str) -> int, got {type(got).__name__} "
               f"{show(got)}")
    got = {k: v for k, v in got.items() if v != 0}  # type: ignore[union-attr]
    expected = dict(ref.count_pairs(word_tokens, word_freq))
    check(got == expected, lambda: f"{what} returned {versus(got, expected)}")


def describe_tables(row) -> str:
    return f"count_pairs({show(row[0], 60)}, {show(row[1], 40)})"


@pytest.mark.points(3)
@pytest.mark.grades("count_pairs")
def test_count_pairs(student):
    """count_pairs counts adjacent pairs at every position, weighted by word frequency"""
    got_all = many(student, "count_pairs", [t for t, _ in TABLES], [f for _, f in TABLES],
                   describe=describe_tables)
    for (word_tokens, word_freq), got in zip(TABLES, got_all):
        check_pair_counts(got, word_tokens, word_freq)


@pytest.mark.points(2)
@pytest.mark.grades("count_pairs")
def test_count_pairs_repeated_pair(student):
    """A pair repeated inside a word counts at each position: aaa holds (a, a) twice"""
    cases = [
        ({"aaa": ["a", "a", "a", EOW]}, {"aaa": 5}),
        ({"abab": ["a", "b", "a", "b", EOW], "ba": ["b", "a", EOW]}, {"abab": 3, "ba": 2}),
        ({"aaaa": ["aa", "aa", EOW], "aa": ["a", "a", EOW]}, {"aaaa": 1, "aa": 7}),
    ]
    got_all = many(student, "count_pairs", [t for t, _ in cases], [f for _, f in cases],
                   describe=describe_tables)
    for (word_tokens, word_freq), got in zip(cases, got_all):
        check_pair_counts(got, word_tokens, word_freq)


def merge_case(seed: int) -> tuple[list[str], tuple[str, str]]:
    rng = random.Random(seed)
    tokens = [rng.choice(["a", "b", "ab", "aa", "ba", EOW, UNK, "é"])
              for _ in range(rng.randint(0, 10))]
    adjacent = list(zip(tokens, tokens[1:]))
    if adjacent and rng.random() < 0.7:
        return tokens, rng.choice(adjacent)
    return tokens, (rng.choice(["a", "b", "aa"]), rng.choice(["a", "b", EOW]))


# Merged strings with backslashes and regex metacharacters ("\\1" is a group reference
# in a re.sub replacement): merge_pair is about lists of strings, not patterns.
SPECIAL_MERGE_CASES = [(["\\", "1", "x", "\\", "1"], ("\\", "1")),
                       (["a", ".", "*", EOW], (".", "*")),
                       (["(", "a", "\\", "g<0>"], ("\\", "g<0>")),
                       (["$", "1", "$"], ("$", "1"))]
MERGE_CASES = by_size([merge_case(seed) for seed in range(60)] + SPECIAL_MERGE_CASES)


@pytest.mark.points(3)
@pytest.mark.grades("merge_pair")
def test_merge_pair(student):
    """merge_pair merges every occurrence of the pair, left to right, without overlap"""
    got_all = many(student, "merge_pair", [t for t, _ in MERGE_CASES],
                   [p for _, p in MERGE_CASES],
                   describe=lambda row: f"merge_pair({show(row[0])}, {show(row[1])})")
    for (tokens, pair), got in zip(MERGE_CASES, got_all):
        expected = ref.merge_pair(tokens, pair)
        got = expect_str_list(got, lambda: f"merge_pair({show(tokens)}, {show(pair)})")
        check(got == expected,
              lambda: f"merge_pair({show(tokens)}, {show(pair)}) returned {show(got)}, "
                      f"expected {show(expected)}")


@pytest.mark.points(1)
@pytest.mark.grades("merge_pair")
def test_merge_pair_no_overlap(student):
    """merge_pair(["a","a","a"], ("a","a")) == ["aa","a"]: occurrences do not overlap"""
    cases = [
        (["a", "a", "a"], ("a", "a"), ["aa", "a"]),
        (["a", "a", "a", "a"], ("a", "a"), ["aa", "aa"]),
        (["a", "a", "a", EOW], ("a", "a"), ["aa", "a", EOW]),
        (["b", "a", "a", "a", "b"], ("a", "b"), ["b", "a", "a", "ab"]),
        (["a", "b", "a", "b"], ("b", "a"), ["a", "ba", "b"]),
        ([], ("a", "a"), []),
        (["a"], ("a", "a"), ["a"]),
    ]
    for tokens, pair, expected in cases:
        got = expect_str_list(student.call("merge_pair", tokens, pair),
                              f"merge_pair({show(tokens)}, {show(pair)})")
        check(got == expected,
              lambda: f"merge_pair({show(tokens)}, {show(pair)}) returned {show(got)}, "
                      f"expected {show(expected)}")


@pytest.mark.points(2)
@pytest.mark.grades("merge_pair")
def test_merge_pair_returns_new_list(student):
    """merge_pair returns a new list and leaves its input unchanged"""
    for tokens, pair in ((["a", "b", "a", "b", EOW], ("a", "b")), (["a", "a", "a"], ("a", "a")),
                         (["x", "y"], ("a", "b"))):
        result, after = call_keeping_argument(student, "merge_pair", list(tokens), pair)
        expected = ref.merge_pair(tokens, pair)
        call = f"merge_pair({show(tokens)}, {show(pair)})"
        check(result == expected, lambda: f"{call} returned {versus(result, expected)}")
        check(after == tokens, lambda: f"{call} changed its input list to "
                                       f"{show(after)}; it should build and return a new list")
