"""The reference solution against every worked example and fact of the spec.

The spec (the assignment's content contract) lists worked examples "from an independent
implementation"; they are copied here as literals so this file needs nothing outside the
repository. Also checked: the named errors for bad input, and that training learns the same
merges whatever ``PYTHONHASHSEED`` is.
"""

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solutions.tokenization as ref
from solutions.tokenization import (
    EOW,
    UNK,
    BPETokenizer,
    CharTokenizer,
    Tokenizer,
    analyze_tokenization,
    attention_scores,
    attention_speedup,
    count_pairs,
    create_tokenizer,
    embedding_memory_bytes,
    merge_pair,
    tokenize_dataset,
    vocab_tradeoff,
    word_frequencies,
)

ROOT = Path(__file__).resolve().parents[1]
KIB, MIB, GIB = 1024, 1024**2, 1024**3

HELLO = ["hello", "hello", "help"]
HELLO_MERGES = [
    ("e", "l"),
    ("h", "el"),
    ("hel", "l"),
    ("hell", "o"),
    ("hello", " "),
    ("hel", "p"),
    ("help", " "),
]
SENNRICH = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3
SENNRICH_FIRST_FIVE = [("e", "s"), ("es", "t"), ("est", " "), ("l", "o"), ("lo", "w")]


def trained(corpus, vocab_size=1000):
    tok = BPETokenizer(vocab_size)
    tok.train(corpus)
    return tok


# ----------------------------------------------------------------------------- conventions


def test_conventions():
    assert UNK == "<UNK>"
    assert EOW == " "
    assert CharTokenizer(["a"]).char_to_id[UNK] == 0
    assert BPETokenizer().token_to_id[UNK] == 0


# ----------------------------------------------------------------------------- Part 1


@pytest.mark.parametrize("method, argument", [("encode", "hi"), ("decode", [1])])
def test_part1_base_class_names_the_subclass_duty(method, argument):
    with pytest.raises(NotImplementedError, match="(?i)subclass"):
        getattr(Tokenizer(), method)(argument)


# ----------------------------------------------------------------------------- Part 2


def test_part2_worked_example():
    tok = CharTokenizer(["h", "e", "l", "o"])
    assert tok.encode("hello") == [1, 2, 3, 3, 4]
    assert tok.vocab == [UNK, "h", "e", "l", "o"]
    assert tok.vocab_size == 5 and tok.unk_id == 0
    assert tok.char_to_id == {UNK: 0, "h": 1, "e": 2, "l": 3, "o": 4}
    assert tok.id_to_char == {0: UNK, 1: "h", 2: "e", 3: "l", 4: "o"}
    assert tok.encode("help") == [1, 2, 3, 0]
    assert tok.decode([1, 2, 3, 0]) == "hel<UNK>"


def test_part2_vocab_order_duplicates_and_unk_entries():
    assert CharTokenizer(["b", "a", "b", UNK, "c", "a"]).vocab == [UNK, "b", "a", "c"]
    assert CharTokenizer().vocab == [UNK]
    assert CharTokenizer([]).vocab_size == 1


@given(st.text())
@settings(max_examples=200, deadline=None)
def test_part2_round_trip(text):
    tok = CharTokenizer(sorted(set(text)))
    assert tok.decode(tok.encode(text)) == text


def test_part2_round_trip_whitespace_and_markup():
    text = " \t\n</w><UNK>\n"
    tok = CharTokenizer(list(text))
    assert tok.decode(tok.encode(text)) == text


@pytest.mark.parametrize("bad_vocab", [["ab"], ["a", ""], ["a", 5], [None], ["</w>"]])
def test_part2_vocab_entry_not_single_char_is_value_error(bad_vocab):
    with pytest.raises(ValueError):
        CharTokenizer(bad_vocab)


@pytest.mark.parametrize("bad_id", [3, 99, -1, True, False, 1.0, "1", None])
def test_part2_bad_id_is_value_error_naming_it(bad_id):
    tok = CharTokenizer(["a", "b"])
    with pytest.raises(ValueError) as info:
        tok.decode([1, bad_id])
    assert str(bad_id) in str(info.value)


@pytest.mark.parametrize("bad_text", [None, b"ab", ["a"], 3])
def test_part2_encode_non_str_is_type_error(bad_text):
    with pytest.raises(TypeError):
        CharTokenizer(["a"]).encode(bad_text)


# ----------------------------------------------------------------------------- Part 3


def test_part3_untrained():
    tok = BPETokenizer(50)
    assert tok.vocab == [UNK, EOW] and tok.merges == []
    assert tok.vocab_size == 2 and tok.target_vocab_size == 50
    assert BPETokenizer().target_vocab_size == 1000


def test_part3_hello_worked_example():
    tok = trained(HELLO, 1000)
    assert tok.merges == HELLO_MERGES
    assert tok.merges[0] == ("e", "l")  # ties with ('h', 'e') at 3; the smaller pair wins
    assert len(tok.vocab) == 14 and tok.vocab_size == 14
    assert [tok.id_to_token[i] for i in tok.encode("hell")] == ["hell", " "]


def test_part3_sennrich_first_five_merges():
    assert trained(SENNRICH, 1000).merges[:5] == SENNRICH_FIRST_FIVE
    tok = BPETokenizer(1000)
    tok.train(SENNRICH, vocab_size=17)  # 12 base tokens + 5 merges
    assert tok.merges == SENNRICH_FIRST_FIVE
    assert tok.target_vocab_size == 17


def test_part3_decode_worked_example():
    tok = trained(HELLO, 1000)
    assert tok.decode(tok.encode("  hello\thelp x  ")) == "hello help <UNK>"
    # Only trailing spaces go (rstrip(" ")): a leading EOW token stays a space.
    assert tok.decode([tok.token_to_id[EOW], tok.token_to_id["hello "]]) == " hello"


def test_part3_helpers():
    tok = BPETokenizer()
    assert tok._get_word_tokens("low") == ["l", "o", "w", EOW]
    assert tok._get_pairs(["a", "a", "a", EOW]) == {("a", "a"), ("a", EOW)}
    tok.merges = [("l", "o"), ("lo", "w"), ("w", EOW)]
    assert tok._apply_merges(["l", "o", "w", EOW]) == ["low", EOW]
    tok.vocab = [UNK, EOW, "a", "a"]
    tok._build_mappings()
    assert tok.token_to_id["a"] == 2 and tok.id_to_token[3] == "a"


def test_part3_repeated_pair_and_recreated_string():
    # 'aaaa' holds ('a', 'a') three times; merging never overlaps.
    tok = trained(["aaaa"], 1000)
    assert tok.merges == [("a", "a"), ("aa", " "), ("aa", "aa ")]
    # Merging '<UNK' and '>' recreates the string '<UNK>', already in the vocabulary at ID 0:
    # the merge is recorded, the vocabulary does not grow.
    tok = trained(["<UNK> <UNK> x<UNK>"], 1000)
    assert ("<UNK", ">") in tok.merges
    assert tok.vocab.count(UNK) == 1 and tok.vocab[0] == UNK
    assert len(tok.vocab) == len([UNK, EOW, *"<>KNUx"]) + len(tok.merges) - 1
    assert tok.decode(tok.encode("<UNK> x<UNK>")) == "<UNK> x<UNK>"


def test_part3_stops_when_no_pair_left_and_at_target():
    assert trained(["a b"], 1000).vocab == [UNK, EOW, "a", "b", "a ", "b "]
    assert trained(SENNRICH, 5).merges == []  # base vocabulary already larger than 5
    assert trained([], 1000).vocab == [UNK, EOW]


def test_part3_corpus_order_does_not_matter():
    rng = random.Random(7)
    words = [rng.choice(["ab", "ba", "aab", "bba", "abab", "b"]) for _ in range(200)]
    texts = [" ".join(words[i : i + 5]) for i in range(0, 200, 5)]
    shuffled = texts[:]
    rng.shuffle(shuffled)
    assert trained(texts, 30).merges == trained(shuffled, 30).merges


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
@settings(max_examples=150, deadline=None)
def test_part3_round_trip(text):
    tok = trained([text, text.upper()], 40)
    assert tok.decode(tok.encode(text)) == " ".join(text.split())


def test_part3_unseen_characters_become_unk_in_place():
    tok = trained(HELLO, 1000)
    assert tok.decode(tok.encode("hexo zz")) == "he<UNK>o <UNK><UNK>"


def test_part3_literal_markup_round_trips():
    tok = trained(["a </w> <UNK> b"], 30)
    assert tok.decode(tok.encode("<UNK>  </w> b")) == "<UNK> </w> b"


@pytest.mark.parametrize("bad_size", [0, -1, True, False, 1.5, "10", None])
def test_part3_bad_vocab_size_in_constructor(bad_size):
    with pytest.raises(ValueError):
        BPETokenizer(bad_size)


@pytest.mark.parametrize("bad_size", [0, -1, True, False, 1.5, "10"])
def test_part3_bad_vocab_size_in_train(bad_size):
    with pytest.raises(ValueError):
        BPETokenizer(10).train(["ab"], vocab_size=bad_size)


@pytest.mark.parametrize("bad_id", ["size", -1, True, 1.0, None])
def test_part3_bad_id_is_value_error(bad_id):
    tok = trained(["ab ab"], 10)
    if bad_id == "size":
        bad_id = tok.vocab_size
    with pytest.raises(ValueError):
        tok.decode([bad_id])


@pytest.mark.parametrize("bad_text", [None, b"ab", ["ab"]])
def test_part3_encode_non_str_is_type_error(bad_text):
    with pytest.raises(TypeError):
        trained(HELLO).encode(bad_text)


# Trains on random corpora full of ties and prints the merges as JSON; run once per hash seed.
HASHSEED_SCRIPT = """
import json, random
from solutions.tokenization import BPETokenizer
out = []
for seed in range(6):
    rng = random.Random(seed)
    alphabet = "abcde"[: 2 + seed % 4]
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(60)]
    corpus = [" ".join(rng.sample(words, 8)) for _ in range(40)]
    tok = BPETokenizer(60)
    tok.train(corpus)
    out.append([tok.merges, tok.vocab])
print(json.dumps(out))
"""


def test_part3_merges_do_not_depend_on_hash_seed(tmp_path):
    # The subprocesses import the same ``solutions`` package as this test.
    package_parent = str(Path(ref.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
    results = {}
    for seed in ["0", "1", "2024", "987654321"]:
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": path}
        proc = subprocess.run(
            [sys.executable, "-c", HASHSEED_SCRIPT],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        results[seed] = json.loads(proc.stdout)
    first = results["0"]
    assert sum(len(merges) for merges, _ in first) > 100  # the corpora do train
    for seed, result in results.items():
        assert result == first, f"merges differ between PYTHONHASHSEED=0 and {seed}"


# ----------------------------------------------------------------------------- Part 4


def test_part4_build_vocab_worked_example():
    tok = CharTokenizer(["x", "y"])
    tok.build_vocab(["hello", "world"])
    assert tok.vocab_size == 8
    assert tok.vocab == [UNK, "d", "e", "h", "l", "o", "r", "w"]
    assert tok.encode("hello") == [3, 2, 4, 4, 5]
    assert tok.encode("xy") == [0, 0]  # the old vocabulary is replaced
    assert tok.decode([7, 5, 6, 4, 1]) == "world"


def test_part4_word_frequencies():
    freq = word_frequencies(["the cat", "the  dog\n", "", "cat\tthe"])
    assert isinstance(freq, Counter)
    assert freq == Counter({"the": 3, "cat": 2, "dog": 1})


def test_part4_count_pairs_every_position_weighted():
    tokens = {"aaa": ["a", "a", "a", EOW], "ab": ["a", "b", EOW]}
    counts = count_pairs(tokens, {"aaa": 2, "ab": 5})
    assert isinstance(counts, Counter)
    assert counts == Counter({("a", "a"): 4, ("a", EOW): 2, ("a", "b"): 5, ("b", EOW): 5})


def test_part4_merge_pair_left_to_right_no_overlap_new_list():
    tokens = ["a", "a", "a", EOW]
    assert merge_pair(tokens, ("a", "a")) == ["aa", "a", EOW]
    assert tokens == ["a", "a", "a", EOW]
    assert merge_pair(["a"] * 4, ("a", "a")) == ["aa", "aa"]
    assert merge_pair(["l", "o", "w", EOW], ("w", EOW)) == ["l", "o", "w "]
    assert merge_pair([], ("a", "b")) == []


# ----------------------------------------------------------------------------- Part 5


def test_part5_create_tokenizer():
    char = create_tokenizer("char", corpus=HELLO)
    assert isinstance(char, CharTokenizer) and char.vocab == [UNK, "e", "h", "l", "o", "p"]
    bpe = create_tokenizer("bpe", vocab_size=9, corpus=HELLO)
    assert isinstance(bpe, BPETokenizer) and bpe.merges == HELLO_MERGES[:2]
    assert create_tokenizer("char").vocab == [UNK]


def test_part5_unknown_strategy_lists_valid_ones():
    with pytest.raises(ValueError) as info:
        create_tokenizer("wordpiece", corpus=HELLO)
    assert "'bpe'" in str(info.value) and "'char'" in str(info.value)


def test_part5_tokenize_dataset():
    tok = CharTokenizer(list("abc"))
    texts = ["abc", "ab", "", "cabx"]
    assert tokenize_dataset(texts, tok) == [[1, 2, 3], [1, 2], [], [3, 1, 2, 0]]
    assert tokenize_dataset(texts, tok, max_length=2) == [[1, 2], [1, 2], [], [3, 1]]
    assert tokenize_dataset(texts, tok, max_length=0) == [[], [], [], []]
    assert texts == ["abc", "ab", "", "cabx"]


@pytest.mark.parametrize("bad_length", [-1, -100])
def test_part5_negative_max_length_is_value_error(bad_length):
    with pytest.raises(ValueError):
        tokenize_dataset(["abc"], CharTokenizer(list("abc")), max_length=bad_length)


def test_part5_analyze_tokenization():
    tok = CharTokenizer(list("dehlorw"))
    texts = ["hello world", "hi"]
    stats = analyze_tokenization(texts, tok)
    assert stats == {
        "vocab_size": 8,
        "total_tokens": 13,
        "avg_sequence_length": 6.5,
        "max_sequence_length": 11,
        "unique_tokens": 8,
        "compression_ratio": 1.0,
        "unknown_rate": 2 / 13,
    }
    assert texts == ["hello world", "hi"]
    assert analyze_tokenization(["hello help"], trained(HELLO))["compression_ratio"] == 5.0


@pytest.mark.parametrize("texts, tokenizer", [([], "char"), ([""], "char"), (["", "  "], "bpe")])
def test_part5_analyze_empty_gives_zeros(texts, tokenizer):
    stats = analyze_tokenization(texts, create_tokenizer(tokenizer, corpus=HELLO))
    assert all(value == 0 for key, value in stats.items() if key != "vocab_size")


# ----------------------------------------------------------------------------- Part 6


def test_part6_embedding_facts():
    assert embedding_memory_bytes(30_000, 768) == 92_160_000
    assert round(embedding_memory_bytes(30_000, 768) / MIB, 2) == 87.89
    assert embedding_memory_bytes(100, 512) == 200 * KIB
    assert round(embedding_memory_bytes(50_000, 512) / MIB, 2) == 97.66
    assert round(embedding_memory_bytes(50_000, 12_288) / GIB, 2) == 2.29
    assert embedding_memory_bytes(100, 512, bytes_per_param=2) == 100 * KIB


def test_part6_attention_facts():
    assert attention_scores(200, batch_size=32) == 1_280_000
    assert attention_scores(50, batch_size=32) == 80_000
    assert attention_scores(200, 32) / attention_scores(50, 32) == 16
    assert attention_speedup(200, 50) == 16.0
    assert isinstance(attention_speedup(200, 50), float)
    assert attention_scores(7) == 49


def test_part6_compression_fact():
    assert 10_000 / 2_500 == ref.Q4_COMPRESSION_RATIO == 4.0
    assert attention_speedup(ref.Q4_COMPRESSION_RATIO, 1) == 16.0


def test_part6_numeric_answers():
    assert ref.Q1_EMBEDDING_MIB == 87.89
    assert ref.Q2_CHAR_ATTENTION_SCORES == 1_280_000
    assert ref.Q2_BPE_ATTENTION_SCORES == 80_000
    assert ref.Q4_COMPRESSION_RATIO == 4.0


def test_part6_vocab_tradeoff():
    rows = vocab_tradeoff(HELLO, [3, 8, 1000], embed_dim=16)
    assert [row["vocab_size"] for row in rows] == [3, 8, 1000]
    assert [row["actual_vocab_size"] for row in rows] == [7, 8, 14]
    assert [row["avg_sequence_length"] for row in rows] == [17 / 3, 14 / 3, 1.0]
    assert [row["embedding_bytes"] for row in rows] == [7 * 16 * 4, 8 * 16 * 4, 14 * 16 * 4]
    for row in rows:
        assert isinstance(row["attention_scores"], float)
        assert row["attention_scores"] == row["avg_sequence_length"] ** 2
    assert vocab_tradeoff([], [10], 4)[0]["avg_sequence_length"] == 0.0
