"""Part 2: ``CharTokenizer`` (15 points).

(Over 300 lines: one part's hidden tests, each short; the timing harness's calibration
table below documents its thresholds.)

Expected values come from the reference solution (``solutions``), computed here in the
scoring process; the student's tokenizer lives in its worker. Generated cases (seeded,
so grades are reproducible) run in one worker request each (``support.many``), smallest
first, so the first failure reported is a small one; the round trip is also a
hypothesis property.

Complexity timings (the last two tests): one call on an input of 16 N against 16 calls
on 16 other inputs of N (N = ``SMALL`` = 4,000 characters or IDs; the text holds an
astral character, so slicing it copies 4 bytes per character), each in one request, best
of up to 4 runs in turns (one turn when its ratio is at most ``MAX_RATIO`` / 2, as it is
for linear code), measured as the worker's CPU time, all threads and children
(``support.timed``). Every run has fresh inputs from ``long_case``, which also makes the
``LONG`` cases of the correctness tests (of the batch's size); the single run's input is
16 such pieces joined. A timing test judges time only: every timed output is checked
against the reference; where it differs, the deviation must be one the correctness tests
charged (then it is not charged again), and the single run's output must also be the
student's own outputs of the pieces joined, worked out untimed in a fresh worker
(``remote.Own``), so a run that skipped work (a long input answered with junk) still
fails. The batch needs no such answers: junk there makes the ratio larger. Code that
raises on these inputs is timed on plain ones (only the vocabulary's characters;
``remote.growth_or_plain``, made at import like the others), else the test fails saying
which tests charge the crash. The same total work, so the ratio is about 1 when linear
and about 16 when quadratic; fails above ``MAX_RATIO`` = 4. A single run over
``GIVE_UP`` = 8 times the batch's time (worker CPU time: a stall of the machine does
not stop it) is stopped and fails. (The table below was
measured before the inputs were fresh and the outputs checked; ``make timing-stability``
measures the current tests.)

Ratios measured here, 2 cores, with other graders running (load average 7-13, no idle
CPU). "quiet": this run's processes at autogroup nice -20, close to an idle machine;
"ambient": as is; "busy": ambient plus two ``while 1: pass`` loops:

    ========================================= ======= ============ ============
    implementation                             quiet   ambient      busy
    ========================================= ======= ============ ============
    encode, reference                          1.03    0.98 1.01    1.04 1.13
    encode, ``vocab.index`` per character      1.03    1.00 0.98    1.02 1.14
    encode, ``ids = ids + [i]``                stopped stopped x2   stopped x2
    encode, ``ch, text = text[0], text[1:]``   14.7    stopped x2   stopped x2
    encode, ``text[i:][0]``                    -       stopped x2   stopped x2
    decode, reference                          1.04    1.00 0.95    1.02 0.96
    decode, ``t in list(range(size))``         -       0.66 1.05    0.99 1.00
    decode, ``tokens.pop(0)``                  10.5    stopped x2   stopped x2
    decode, ``self.out = self.out + c``        12.7    stopped x2   stopped, 8.5
    ========================================= ======= ============ ============

Wall time instead of CPU time (``AUTOGRADER_TIMING_CLOCK=wall``) gave the reference
0.40 to 1.56 under the busy loops: too noisy, hence CPU time.
"""

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solutions.tokenization as ref
from autograder.suite.checks import (
    as_id_map,
    by_size,
    check,
    expect_ids,
    expect_raises,
    expect_remote,
    expect_str,
    expect_str_list,
    is_int,
    show,
    versus,
)
from autograder.suite.fixtures import HASH_SEED
from autograder.suite.remote import (
    Own,
    Run,
    attributes,
    call_keeping_argument,
    decode_of_encode,
    fetch_ids,
    growth_or_plain,
    handle,
    many,
    mro_names,
    ms_text,
    ratio_text,
)

from .inputs import (
    ANY_CHAR,
    CHAR_POOL,
    ROUND_TRIP_EXAMPLES,
    UNK,
    random_text,
    texts,
)

PART = 2

SMALL = 4_000  # characters or IDs
FACTOR = 16
MAX_RATIO = 4.0
GIVE_UP = 2 * MAX_RATIO  # a single run this many times slower than the batch is stopped


def make(student, vocab: object) -> object:
    return expect_remote(
        student.call("CharTokenizer", vocab), f"CharTokenizer({show(vocab)})", "CharTokenizer"
    )


def make_many(student, vocabs: list) -> list:
    toks = many(student, "CharTokenizer", vocabs,
                describe=lambda row: f"CharTokenizer({show(row[0])})")
    for vocab, tok in zip(vocabs, toks):
        expect_remote(tok, f"CharTokenizer({show(vocab)})", "CharTokenizer")
    return toks


def same_char_map(got: object, expected: dict) -> bool:
    """``char_to_id`` as expected; whether it also maps the UNK string to 0 is free."""
    if type(got) is not dict:
        return False
    if UNK in got and got[UNK] != 0:
        return False
    return {k: v for k, v in got.items() if k != UNK} == {
        k: v for k, v in expected.items() if k != UNK}


def random_vocab(rng: random.Random) -> list[str]:
    """A vocabulary as a student passes it: characters, repeats, whitespace, UNK itself."""
    entries = list(CHAR_POOL) + [" ", "\t", "\n", "a", "a", "<", UNK]
    return [rng.choice(entries) for _ in range(rng.randint(0, 10))]


VOCABS = by_size([[], ["a"], ["a", "a"], [UNK], [UNK, "x", UNK], [" ", "\t", "\n"],
                  ["b", "a", "b", "<", "K"]]
                 + [random_vocab(random.Random(seed)) for seed in range(40)])
def long_case(seed: int, size: int, count: int = 1) -> tuple[list[str], list[str]]:
    """A vocabulary and ``count`` texts of ``size`` characters drawn from it, with a few
    characters it lacks (they encode to 0). Always with an astral character, so that the
    text takes 4 bytes per character (slicing it copies 4 bytes per character).

    The timing tests draw their inputs here, and so do the correctness tests (``LONG``):
    a timed input looks like any other."""
    rng = random.Random(seed)
    alphabet = rng.sample(CHAR_POOL, rng.randint(6, 14)) + ["\U0001f600", " "]
    vocab = alphabet[:-1] if rng.random() < 0.5 else alphabet
    rng.shuffle(vocab)
    pool = alphabet + rng.sample(CHAR_POOL, 2)  # two characters that may be unknown
    return vocab, ["".join(rng.choices(pool, k=size)) for _ in range(count)]


def long_ids(vocab: list[str], texts: list[str]) -> list[list[int]]:
    """The IDs of ``texts``: what a decode gets in the correctness and timing tests."""
    tokenizer = ref.CharTokenizer(vocab)
    return [tokenizer.encode(text) for text in texts]


# Inputs of the timing tests' batch size, made the same way, judged here for correctness
# (not the long ones: a quadratic submission would time out here, losing more than the
# timing test's point).
LONG = [long_case(500 + i, SMALL) for i in range(2)]
CASES = by_size([(vocab, random_text(rng))
                 for vocab, rng in ((random_vocab(random.Random(100 + i)), random.Random(i))
                                    for i in range(60))]
                + [(["h", "e", "l", "o"], "hello world"), (["a"], ""), ([], "abc"),
                   (list("<UNK>"), "<UNK>"), (list("</w>"), "a</w>b")]
                + [(vocab, text) for vocab, (text,) in LONG])


@pytest.mark.points(1)
@pytest.mark.visibility("visible")
def test_worked_example(student):
    """CharTokenizer(["h","e","l","o"]).encode("hello") == [1, 2, 3, 3, 4]"""
    tok = make(student, ["h", "e", "l", "o"])
    got = expect_ids(student.method(tok, "encode", "hello"), 'encode("hello")')
    check(got == [1, 2, 3, 3, 4],
          lambda: f'encode("hello") returned {show(got)}, expected [1, 2, 3, 3, 4]')


@pytest.mark.points(2)
def test_constructor_vocabulary(student):
    """A Tokenizer subclass; the vocabulary is [UNK] + the given characters, first kept"""
    bases = mro_names(student, "CharTokenizer")
    check("Tokenizer" in bases[1:], lambda: f"CharTokenizer should be a subclass of Tokenizer "
          f"(class CharTokenizer(Tokenizer): ...); it derives from {', '.join(bases[1:])}")
    toks = make_many(student, VOCABS)
    found = {name: attributes(student, toks, name)
             for name in ("vocab", "vocab_size", "unk_id", "char_to_id", "id_to_char")}
    for i, vocab in enumerate(VOCABS):
        expected = ref.CharTokenizer(vocab)
        what = f"after CharTokenizer({show(vocab)}),"
        got = expect_str_list(found["vocab"][i], f"{what} vocab")
        check(got == expected.vocab,
              lambda: f"{what} vocab is {versus(got, expected.vocab)}")
        size = found["vocab_size"][i]
        check(is_int(size) and size == len(got),
              lambda: f"{what} vocab_size is {show(size)}, expected len(vocab) = {len(got)}")
        unk_id = found["unk_id"][i]
        check(is_int(unk_id) and unk_id == 0,
              lambda: f"{what} unk_id is {show(unk_id)}, expected 0")
        char_to_id = found["char_to_id"][i]
        check(same_char_map(char_to_id, expected.char_to_id),
              lambda: f"{what} char_to_id is {versus(char_to_id, expected.char_to_id)}")
        id_to_char = as_id_map(found["id_to_char"][i], f"{what} id_to_char")
        check(id_to_char == expected.id_to_char,
              lambda: f"{what} id_to_char is {versus(id_to_char, expected.id_to_char)}")


    for vocab in (["h", "e", "l", "o"], ["a", UNK, "a"], []):
        _, after = call_keeping_argument(student, "CharTokenizer", list(vocab))
        check(after == vocab,
              lambda: f"CharTokenizer({show(vocab)}) changed the list it was given to "
                      f"{show(after)}; it should build its own vocabulary")


@pytest.mark.points(1)
def test_constructor_rejects_entries_that_are_not_one_character(student):
    """A vocabulary entry that is not a single character raises ValueError"""
    for vocab in (["ab"], ["a", ""], ["a", "b", "cd"], ["<unk>"], ["</w>", "a"], ["UNK"],
                  ["a", ("b",)]):
        expect_raises("ValueError", f"CharTokenizer({show(vocab)})", student.call,
                      "CharTokenizer", vocab)
    # No vocabulary at all is fine: just [UNK].
    tok = make(student, None)
    got = student.get(tok, "vocab")
    check(got == [UNK], lambda: f"CharTokenizer(None).vocab is {show(got)}, expected ['<UNK>']")
    tok = expect_remote(student.call("CharTokenizer"), "CharTokenizer()", "CharTokenizer")
    got = student.get(tok, "vocab")
    check(got == [UNK], lambda: f"CharTokenizer().vocab is {show(got)}, expected ['<UNK>']")


def encode_cases(student, cases) -> list:
    """``encode`` of every ``(vocab, text)`` case, each on a tokenizer of its vocabulary."""
    toks = make_many(student, [vocab for vocab, _ in cases])
    encode = handle(student, "CharTokenizer", "encode")
    return many(student, encode, toks, [text for _, text in cases],
                describe=lambda row: f"encode({show(row[1])})")


@pytest.mark.points(2)
def test_encode_matches_reference(student):
    """encode gives one ID per character; unknown characters give 0"""
    for (vocab, text), got in zip(CASES, encode_cases(student, CASES)):
        expected = ref.CharTokenizer(vocab).encode(text)
        got = expect_ids(got, lambda: f"encode({show(text)})")
        check(got == expected,
              lambda: f"with vocabulary {show(vocab)}, encode({show(text)}) returned "
                      f"{versus(got, expected)}")


def round_trip_cases(student, cases, check_ids: bool = True) -> None:
    """``decode(encode(text)) == text`` for ``(vocab, text)`` whose vocab covers the text.

    With ``check_ids`` off, encode's output goes straight into decode in the worker
    (fewer requests; the seeded cases check the type of the IDs).
    """
    toks = make_many(student, [vocab for vocab, _ in cases])
    encode = handle(student, "CharTokenizer", "encode")
    decode = handle(student, "CharTokenizer", "decode")
    texts_ = [text for _, text in cases]
    if check_ids:
        ids = many(student, encode, toks, texts_,
                   describe=lambda row: f"encode({show(row[1])})")
        for text, got in zip(texts_, ids):
            expect_ids(got, lambda: f"encode({show(text)})")
        back = many(student, decode, toks, ids, describe=lambda row: f"decode({show(row[1])})")
    else:
        back = decode_of_encode(student, encode, decode, toks, texts_)
    for (vocab, text), got in zip(cases, back):
        got = expect_str(got, lambda: f"decode(encode({show(text)}))")
        check(got == text, lambda: f"with vocabulary {show(vocab)}, decode(encode({show(text)})) "
                                   f"returned {show(got)}")


def covering_vocab(text: str, extra: str, rng: random.Random) -> list[str]:
    chars = list(dict.fromkeys(text + extra))
    rng.shuffle(chars)
    return chars


# Other tokenizers' markers (Ġ byte-level BPE's space, ▁ SentencePiece's, ## WordPiece's
# continuation) and backslashes are ordinary characters here: they come back as themselves.
MARKER_TEXTS = ["Ġhello Ġworld", "▁the ▁cat", "play ##ing", "Ġ▁## \\1 a.b*", "ĠĠ▁▁####"]


@pytest.mark.points(3)
def test_round_trip(student):
    """decode(encode(text)) == text when every character is in the vocabulary"""
    rng = random.Random(3)
    texts_ = [t for _, t in CASES] + MARKER_TEXTS
    round_trip_cases(student, by_size([(covering_vocab(t, "", rng), t) for t in texts_]))

    @settings(max_examples=ROUND_TRIP_EXAMPLES)
    @given(text=texts(), extra=st.lists(ANY_CHAR, max_size=4).map("".join),
           seed=st.integers(0, 2**16))
    def round_trip(text, extra, seed):
        round_trip_cases(student, [(covering_vocab(text, extra, random.Random(seed)), text)],
                         check_ids=False)

    round_trip()


@pytest.mark.points(1)
def test_decode_matches_reference(student):
    """decode joins the characters; ID 0 gives the text <UNK>"""
    cases = []
    for i, vocab in enumerate(VOCABS):
        rng, size = random.Random(i), len(ref.CharTokenizer(vocab).vocab)
        cases.append((vocab, [rng.randrange(size) for _ in range(rng.randint(0, 12))]))
    cases += [(vocab, long_ids(vocab, texts_)[0]) for vocab, texts_ in LONG]
    cases = by_size(cases + [(["h", "e", "l", "o"], [0]), (["h", "e", "l", "o"], [1, 0, 4])])
    toks = make_many(student, [vocab for vocab, _ in cases])
    decode = handle(student, "CharTokenizer", "decode")
    got_all = many(student, decode, toks, [ids for _, ids in cases],
                   describe=lambda row: f"decode({show(row[1])})")
    for (vocab, ids), got in zip(cases, got_all):
        expected = ref.CharTokenizer(vocab).decode(ids)
        got = expect_str(got, lambda: f"decode({show(ids)})")
        check(got == expected,
              lambda: f"with vocabulary {show(vocab)}, decode({show(ids)}) returned "
                      f"{versus(got, expected)}")


@pytest.mark.points(2)
def test_decode_rejects_bad_ids(student):
    """decode raises ValueError naming an ID out of range or not an int"""
    tok = make(student, ["h", "e", "l", "o"])
    for bad in (5, 12345, -1, -7, True, 1.0, "2", None):
        error = expect_raises("ValueError", f"decode([1, {show(bad)}]) with 5 tokens",
                              student.method, tok, "decode", [1, bad])
        check(str(bad) in error.message or repr(bad) in error.message,
              f"the ValueError of decode([1, {show(bad)}]) should name the bad ID {show(bad)}; "
              f"its message was {show(error.message[:200], 220)}")


@pytest.mark.points(1)
def test_encode_rejects_non_str(student):
    """encode of something that is not a str raises TypeError"""
    tok = make(student, ["h", "e"])
    for bad in (None, 42, ["h", "e"], ("h",), 1.5):
        expect_raises("TypeError", f"encode({show(bad)})", student.method, tok, "encode", bad)


@functools.cache
def timed_case(method: str, seed: int, plain: bool) -> tuple[list[str], list, list]:
    """The vocabulary, the ``FACTOR`` pieces of ``SMALL`` and their expected outputs of one
    timed run of ``method`` (a single run's input is the pieces joined: its output is
    theirs joined, for any CharTokenizer). ``plain``: only characters of the vocabulary
    (for code that raises on the others). Never changed once made, so kept: the first
    turn's are made at import, once for every grading that a warm scoring process forks
    (``zygote.py``)."""
    vocab, texts_ = long_case(seed, SMALL, FACTOR)
    if plain:
        known = [c for c in vocab if c != " "] or ["a"]
        texts_ = ["".join(c if c in vocab else known[i % len(known)] for i, c in enumerate(t))
                  for t in texts_]
    tokenizer = ref.CharTokenizer(vocab)
    if method == "encode":
        return vocab, texts_, [tokenizer.encode(t) for t in texts_]
    inputs = long_ids(vocab, texts_)
    return vocab, inputs, [tokenizer.decode(ids) for ids in inputs]


def joined(pieces: list) -> object:
    """The pieces as one input (a str or a list of IDs)."""
    return "".join(pieces) if pieces and type(pieces[0]) is str else sum(pieces, [])


def linear_time(student, spawn, method: str) -> None:
    """Fail unless one ``tok.method`` on an input of FACTOR x SMALL costs about as much as
    FACTOR calls on inputs of SMALL (fresh inputs every round). Every timed output is
    checked against the reference, else (the single run) against the student's own
    outputs of the pieces, worked out untimed in a fresh worker (``remote.Own``): a
    deviation the correctness tests charge is not charged here; a timed run that skipped
    work is."""
    charged_by = f"the {method} tests"
    own = Own(spawn, HASH_SEED, charged_by)

    def run(seed: int, count: int, plain: bool) -> Run:
        vocab, pieces, expected = timed_case(method, seed, plain)
        inputs = pieces if count > 1 else [joined(pieces)]
        want = expected if count > 1 else [joined(expected)]
        func = student.get(make(student, vocab), method)
        if method == "encode":
            fetch = functools.partial(fetch_ids, student)
        else:
            fetch = functools.partial(student.get, name=None)

        def yours(other) -> list:  # the single run's input is the pieces joined
            return [joined(many(other, handle(other, "CharTokenizer", method),
                                [make(other, vocab)] * len(pieces), pieces))]

        def judge(got: object) -> None:
            check(type(got) is list and len(got) == count,
                  lambda: f"{count} {method} calls gave {show(got)}")
            if got == want:
                return
            if count > 1:  # the baseline run: its deviation needs the gate only (``Own``)
                own.gate()
                return
            mine = own(yours)
            for source, value, wanted in zip(inputs, got, mine):
                check(value == wanted, lambda: f"with vocabulary {show(vocab)}, {method} of a "
                      f"{'text' if method == 'encode' else 'list of IDs'} of "
                      f"{len(source)} (in a timing test) returned {show(value)}, but your own "
                      f"{method} gives {show(wanted)} on it when not timed: the timed run "
                      f"skipped work; the input began {show(source[:20])}")

        return Run(lambda: student.map(func, student.put(inputs), keep=True), fetch, judge)

    ratio, t_batch, t_single = growth_or_plain(
        student,
        lambda plain: (lambda turn: run(BATCH_SEED + 2 * turn, FACTOR, plain),
                       lambda turn: run(SINGLE_SEED + 2 * turn, 1, plain)),
        charged_by,
        give_up=GIVE_UP,
        clear=MAX_RATIO / 2,
    )
    print(f"timing: {method} ratio={ratio:.2f} batch={t_batch * 1e3:.2f}ms "
          f"single={t_single * 1e3:.2f}ms")
    what = "text" if method == "encode" else "list of IDs"
    size = "characters" if method == "encode" else "IDs"
    check(ratio <= MAX_RATIO,
          f"one {method} of a {what} {FACTOR}x longer took {ratio_text(ratio, GIVE_UP)} as long "
          f"as {FACTOR} {method} calls of the short one ({ms_text(t_single)} against "
          f"{ms_text(t_batch)} for {SMALL * FACTOR} {size} in all); in linear time "
          "they take about as long. Look for work inside the loop that grows with the input: "
          "list + list, slicing, list.pop(0), str + str on an attribute, searching a list.")


BATCH_SEED, SINGLE_SEED = 1000, 1001  # of the first turn; turn t adds 2 t
for _method in ("encode", "decode"):
    for _plain in (False, True):  # plain: for code that raises on unknown characters (a stub too)
        timed_case(_method, BATCH_SEED, _plain)
        timed_case(_method, SINGLE_SEED, _plain)


@pytest.mark.points(1)
def test_encode_linear_time(student, spawn):
    """encode takes time proportional to the text length"""
    linear_time(student, spawn, "encode")


@pytest.mark.points(1)
def test_decode_linear_time(student, spawn):
    """decode takes time proportional to the number of IDs"""
    linear_time(student, spawn, "decode")
