"""Part 1: GPT-2's byte-level BPE (25 points).

Expected values come from the reference (``solutions.production_tokenizers``), which the
repository's tests prove equal to tiktoken's GPT-2 on the worked examples and 10,000
random strings. The ID tests build the student's tokenizer once per worker with the
constructor and GPT-2's data (``p13_inputs.student_gpt2``); ``from_files`` has a test of
its own on small files that the worker writes into a fresh folder of its own
(``tempfile.mkdtemp`` in the worker; ``p13_worker_files``), so one loader bug is not
charged to every ID test. Special tokens are tested on a small tokenizer
(``p13_inputs.student_small``): cheap to build, with a special token that is a prefix of
another and one whose ID is not in the encoder.

Random strings (``p13_inputs.random_text``, seeded): the same 1,000 for the IDs, the
pieces, the round trip and the ID lists of the decode test; each batch is one worker
request (``many``), so a test costs the student's code, not round trips. The scoring
process prepares GPT-2 and the reference's answers in a thread while the workers start
(``p13_inputs._prepare``).

The timing test (the last) follows the first assignment's: one ``encode_ordinary`` of
16 N characters against 16 calls on 16 other texts of N (N = 8,000 characters of
Shakespeare-like text), worker CPU time, best of up to 4 turns, fresh texts every turn,
every output checked against the reference, else (the single run, for a deviation
already charged) against the student's own IDs of the 16 pieces that the single text
joins (each starts with `` the``, where GPT-2's pre-tokenizer starts a piece), untimed in
a fresh worker (``remote.Own``); ASCII words only for code that raises on the others.
A per-piece cache is allowed (the spec expects one), so the texts repeat their words and
the ratio measures the loop over the text: about 1 when linear; ``ids = ids + piece_ids``
is cut off at 8x at this size. Fails above ``MAX_RATIO`` = 4, stops a run at 8x. (At
N = 4,000, ``ids = ids + piece_ids`` measured 4.4 to 5.6x on a quiet machine, too close to
4 to be caught in every loaded run; the longer texts give the quadratic loop room.)

(About 470 lines: the suite keeps one module per part, and Part 1 has the most rules.)
"""

import ast
import functools
import json
import random

import pytest

from autograder.suite.ahead import ahead
from autograder.suite.checks import (
    Failures,
    check,
    expect_ids,
    expect_raises,
    expect_remote,
    expect_str,
    expect_str_list,
    show,
    versus,
)
from autograder.suite.fixtures import HASH_SEED
from autograder.suite.remote import (
    Own,
    Run,
    decode_of_encode,
    fetch_ids,
    growth_or_plain,
    handle,
    many,
    ms_text,
    ratio_text,
)

from .p13_inputs import (
    ENDOFTEXT,
    FROM_FILES_CASES,
    RANDOM_COUNT,
    SMALL_SPECIALS,
    SMALL_VOCAB,
    WORKED,
    random_texts,
    reference_gpt2,
    reference_small,
    small_data,
    student_gpt2,
    student_small,
)
from .p13_inputs import ref as ref
from .p13_worker_files import write_files

PART = 1

# Where implementations of GPT-2's pattern differ: whitespace runs before words and at
# the end, contractions in both cases, U+001C-U+001F (isspace, not White_Space), U+0085,
# U+00A0, U+3000, digits and other numbers, emoji, letters of many scripts, and the edges
# of the code space that a scanner split by plane can miss: U+FFFF (the last BMP code
# point, a noncharacter), U+10000 (the first astral one, a letter) and U+10FFFF (the last).
FIXED = [
    "", " ", "  ", "a   b", "a  \n  b", "trailing  ", "\n\n\n", " \t x", "x\t\ty", "  leading",
    "we'll they've I'd you're she's I'm can't", "HELLO'S WE'LL I'D YOU'RE", "it's'", "'s's",
    "a'sb", "x''ll", "rock 'n' roll", "'", "' s", "ʼs",
    "a \x1cb", "a\x1c\x1d\x1e\x1fb", " \x1f", "x \x1c\x1c y", "a\x85b", "a \x85 b",
    "a\u00a0b", "a \u00a0b", "a\u3000b", "a\u2028\u2029b", "\u3000\u3000x", "a\u200bb",
    "1234567890", " 2024", "x=1+2", "٣٤٥ ४५६ ０１", "²³ ½ Ⅻ ①", "3.14159", "1,000,000",
    "🤗", "👍🏽 🎉🎉!", "🤗hug", "a🤗 b",
    "naïve café", "e\u0301", "Привет, мир!", "こんにちは世界", "東京2020", "Ελληνικά", "עברית",
    "العربية", "हिन्दी", "ภาษาไทย", "မြန်မာ", "한국어", "ქართული", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𐍈𐌰𐌹",
    "x = 1234567890\n\n    return x  ", "def f():\n\treturn None\n", "<|endoftext|>x",
    "a\U00010000b \uffff! \U0010ffff x\U00010000 \uffffz",
]


@ahead(lambda: [(tuple(FIXED),), (random_texts(1, RANDOM_COUNT),)])
def reference_ids(texts: tuple[str, ...]) -> list[list[int]]:
    tok = reference_gpt2()
    return [tok.encode_ordinary(text) for text in texts]


@ahead(lambda: [(tuple(FIXED),), (random_texts(1, RANDOM_COUNT),)])
def reference_pieces(texts: tuple[str, ...]) -> list[list[str]]:
    return [ref.gpt2_pretokenize(text) for text in texts]


def check_ids(student, tok, texts, label: str) -> None:
    """``encode_ordinary`` of every text equals GPT-2's IDs; every failing text is named."""
    got_all = many(student, student.get(tok, "encode_ordinary"), list(texts),
                   describe=lambda row: f"encode_ordinary({show(row[0])})")
    failures = Failures()
    for text, got, expected in zip(texts, got_all, reference_ids(tuple(texts))):
        with failures.case():
            got = expect_ids(got, lambda: f"encode_ordinary({show(text)})")
            check(got == expected, lambda: f"{label}: encode_ordinary({show(text)}) returned "
                                           f"{versus(got, expected)} (GPT-2's IDs)")
    failures.report()


@pytest.mark.points(2)
def test_bytes_to_unicode(student):
    """bytes_to_unicode is GPT-2's table, all 256 bytes"""
    got = student.call("bytes_to_unicode")
    expected = ref.bytes_to_unicode()
    check(type(got) is dict, lambda: f"bytes_to_unicode() should return a dict, got {show(got)}")
    check(sorted(got) == list(range(256)), "bytes_to_unicode() should have one key for each "
                                           "byte 0..255 (int keys)")
    wrong = [b for b in range(256) if got[b] != expected[b]]
    if wrong:
        first = wrong[0]
        check(False, lambda: f"bytes_to_unicode()[{first}] is {versus(got[first], expected[first])}"
                             f" ({len(wrong)} bytes differ; the 68 bytes that do not print map to "
                             "chr(256), chr(257), ... in increasing order)")


def check_pieces(student, texts, label: str) -> None:
    got_all = many(student, "gpt2_pretokenize", list(texts),
                   describe=lambda row: f"gpt2_pretokenize({show(row[0])})")
    failures = Failures()
    for text, got, expected in zip(texts, got_all, reference_pieces(tuple(texts))):
        with failures.case():
            got = expect_str_list(got, lambda: f"gpt2_pretokenize({show(text)})")
            check(got == expected, lambda: f"{label}: gpt2_pretokenize({show(text)}) returned "
                                           f"{versus(got, expected)}")
    failures.report()


@pytest.mark.points(2)
def test_pretokenize_fixed_cases(student):
    """gpt2_pretokenize on whitespace runs, contractions, U+001C-U+001F, numbers, scripts"""
    check_pieces(student, FIXED, "on a fixed case")


@pytest.mark.points(2)
def test_pretokenize_random(student):
    """gpt2_pretokenize splits 1,000 random strings exactly as GPT-2's pattern"""
    check_pieces(student, random_texts(1, RANDOM_COUNT), "on a random string")


@pytest.mark.points(2)
@pytest.mark.visibility("visible")
def test_encode_worked_examples(student):
    """Worked examples: GPT-2's IDs for the spec's strings, and <|endoftext|> allowed"""
    tok = student_gpt2(student)
    for text, expected in WORKED:
        got = expect_ids(student.method(tok, "encode_ordinary", text),
                         f"encode_ordinary({show(text)})")
        check(got == expected,
              lambda: f"encode_ordinary({show(text)}) returned {versus(got, expected)}")
    got = expect_ids(student.method(tok, "encode", ENDOFTEXT, allowed_special={ENDOFTEXT}),
                     'encode("<|endoftext|>", allowed_special={"<|endoftext|>"})')
    check(got == [50256], lambda: 'encode("<|endoftext|>", allowed_special={"<|endoftext|>"}) '
                                  f"returned {show(got)}, expected [50256]")


@pytest.mark.points(3)
def test_encode_fixed_cases(student):
    """GPT-2's IDs on whitespace runs, contractions, U+001C-U+001F, U+0085, numbers, scripts"""
    check_ids(student, student_gpt2(student), FIXED, "on a fixed case")


@pytest.mark.points(3)
def test_encode_random(student):
    """GPT-2's exact IDs on 1,000 random strings"""
    check_ids(student, student_gpt2(student), random_texts(1, RANDOM_COUNT), "on a random string")


@pytest.mark.points(2)
def test_round_trip(student):
    """decode(encode_ordinary(t)) == t on fixed cases and 1,000 random strings"""
    tok = student_gpt2(student)
    encode, decode = student.get(tok, "encode_ordinary"), student.get(tok, "decode")
    texts = FIXED + list(random_texts(1, RANDOM_COUNT))
    back = decode_of_encode(student, encode, decode, None, texts)
    failures = Failures()
    for text, got in zip(texts, back):
        with failures.case():
            got = expect_str(got, lambda: f"decode(encode_ordinary({show(text)}))")
            check(got == text, lambda: f"decode(encode_ordinary({show(text)})) returned "
                                       f"{versus(got, text)}")
    failures.report()


@ahead([(4, 400)])
def decode_cases(seed: int, count: int) -> tuple[list[list[int]], list[bytes], list[str]]:
    """ID lists that cut characters apart: random IDs, and GPT-2's IDs of random text with
    some IDs left out or reversed; and the reference's ``decode_bytes`` and ``decode`` of
    each."""
    rng = random.Random(seed)
    tok = reference_gpt2()
    lists = []
    for i in range(count):
        if i % 2:
            lists.append([rng.randrange(50257) for _ in range(rng.randint(0, 12))])
        else:
            ids = tok.encode_ordinary(random_texts(1, RANDOM_COUNT)[i])
            if ids and rng.random() < 0.7:
                del ids[rng.randrange(len(ids))]
            lists.append(ids[::-1] if rng.random() < 0.3 else ids)
    lists += [[50256], [15496, 50256, 995], []]
    return lists, [tok.decode_bytes(ids) for ids in lists], [tok.decode(ids) for ids in lists]


def bytes_lists(student, decode_bytes, lists: list[list[int]]) -> list:
    """``decode_bytes`` of every list, read back through the ``repr`` of the list of
    results (``bytes`` do not cross the pipe as values; a ``repr`` is parsed as a literal,
    never run). A result that is not ``bytes`` comes back as ``None``."""
    kept = student.map(decode_bytes, lists, keep=True)
    text = student.method(kept, "__repr__")
    try:
        values = ast.literal_eval(text) if type(text) is str else None
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        values = None
    if type(values) is not list or len(values) != len(lists):
        values = [None] * len(lists)
    return [v if type(v) is bytes else None for v in values]


@pytest.mark.points(2)
def test_decode_random_ids(student):
    """decode_bytes joins the tokens' bytes; decode replaces invalid UTF-8 (random IDs)"""
    tok = student_gpt2(student)
    lists, wants_raw, wants_text = decode_cases(4, 400)
    got_bytes = bytes_lists(student, student.get(tok, "decode_bytes"), lists)
    got_text = many(student, student.get(tok, "decode"), lists,
                    describe=lambda row: f"decode({show(row[0])})")
    failures = Failures()
    for ids, raw, text, want_raw, want_text in zip(lists, got_bytes, got_text, wants_raw,
                                                   wants_text):
        shown = versus(raw, want_raw) if raw is not None else "something else than bytes"
        failures.check(raw == want_raw, lambda: f"decode_bytes({show(ids)}) returned {shown}")
        failures.check(type(text) is str and text == want_text,
                       f"decode({show(ids)}) returned {versus(text, want_text)} (the bytes of "
                       "all tokens joined, then decoded with errors='replace')")
    failures.report()


@pytest.mark.points(1)
def test_decode_rejects_unknown_ids(student):
    """decode raises ValueError naming an ID that is not in the vocabulary"""
    tok = student_gpt2(student)
    for bad in (50257, -1, 123456):
        for name in ("decode", "decode_bytes"):
            error = expect_raises("ValueError", f"{name}([15496, {bad}])", student.method, tok,
                                  name, [15496, bad])
            check(str(bad) in error.message,
                  lambda: f"the ValueError of {name}([15496, {bad}]) should "
f"name the ID {bad}; its message was {show(error.message[:200], 220)}")


SPECIAL_CASES = [
    # (text, allowed_special)
    # (A text holding <|endoftext|> holds the special <|end too: both are allowed.)
    ("Hi<|endoftext|>there", {ENDOFTEXT, "<|end"}),
    ("Hi<|endoftext|>there", "all"),
    ("<|endoftext|><|endoftext|>", "all"),
    ("<|endoftext|>!", {ENDOFTEXT, "<|end"}),
    ("<|end of hello world", {"<|end"}),
    ("<|end<|endoftext|>", "all"),
    ("a<|fim|>b <|fim|>", {"<|fim|>"}),
    ("<|endoftext", "all"),
    ("hello world", ()),
    ("hello world", "all"),
    ("<|en|d", ()),
]
DISALLOWED = [
    # (text, allowed_special): the error must name a special token of the text not allowed
    ("Hi<|endoftext|>there", ()),
    ("Hi<|endoftext|>there", set()),
    ("Hi<|endoftext|>there", {"<|end"}),
    ("x <|fim|>", {ENDOFTEXT}),
    ("x <|end", {"<|fim|>"}),
]


@pytest.mark.points(3)
def test_special_tokens(student):
    """Allowed specials (a set or "all", longest first) become IDs; others raise ValueError"""
    tok, expected_tok = student_small(student), reference_small()
    failures = Failures()
    for text, allowed in SPECIAL_CASES:
        call = f"encode({show(text)}, allowed_special={show(allowed)})"
        with failures.case():
            got = expect_ids(student.method(tok, "encode", text, allowed_special=allowed), call)
            expected = expected_tok.encode(text, allowed_special=allowed)
            check(got == expected, lambda: f"with special tokens {SMALL_SPECIALS}, {call} returned "
                                           f"{versus(got, expected)}")
    for text, allowed in DISALLOWED:
        call = f"encode({show(text)}, allowed_special={show(allowed)})"
        named = [s for s in SMALL_SPECIALS if s in text and s not in allowed]
        with failures.case():
            error = expect_raises("ValueError", f"with special tokens {SMALL_SPECIALS}, {call}",
                                  student.method, tok, "encode", text, allowed_special=allowed)
            check(any(s in error.message for s in named),
                  lambda: f"the ValueError of {call} should "
f"name the special token {' or '.join(map(repr, named))} that is not allowed; "
f"its message was {show(error.message[:200], 220)}")
    with failures.case():
        got = expect_ids(student.method(tok, "encode_ordinary", "<|fim|><|endoftext|>"),
                         'encode_ordinary("<|fim|><|endoftext|>")')
        expected = expected_tok.encode_ordinary("<|fim|><|endoftext|>")
        check(got == expected,
              lambda: f'encode_ordinary("<|fim|><|endoftext|>") returned '
                      f"{versus(got, expected)}: special-token text is ordinary text")
    with failures.case():
        text = expect_str(student.method(tok, "decode", [104, 301, 302, 300]),
                          "decode([104, 301, 302, 300])")
        check(text == "h<|end<|fim|><|endoftext|>", lambda: "with special tokens "
              f"{SMALL_SPECIALS}, decode([104, 301, 302, 300]) returned {show(text)}, expected "
              "'h<|end<|fim|><|endoftext|>' (a special token's ID decodes to its text)")
    with failures.case():  # special_tokens is optional: without it, nothing is special
        encoder, merges = small_data()
        plain = expect_remote(student.call("ByteLevelBPE", encoder, merges),
                              "ByteLevelBPE(a small encoder, merges)", "ByteLevelBPE")
        call = "ByteLevelBPE(encoder, merges).encode('Hi<|endoftext|>there')"
        got = expect_ids(student.method(plain, "encode", "Hi<|endoftext|>there"), call)
        expected = ref.ByteLevelBPE(encoder, merges).encode("Hi<|endoftext|>there")
        check(got == expected, lambda: f"{call} returned {versus(got, expected)}: without "
                                       "special tokens the text is ordinary text")
    failures.report()


@pytest.mark.points(2)
def test_from_files(student):
    """from_files reads vocab.json and merges.txt (skips only a #version line); str paths"""
    files = {"vocab.json": json.dumps(SMALL_VOCAB)}
    files.update({f"merges{i}.txt": merges for i, (_, merges, _, _) in
                  enumerate(FROM_FILES_CASES)})
    paths = write_files(student, files)
    cls = handle(student, "ByteLevelBPE")
    failures = Failures()
    for i, (label, merges, text, expected) in enumerate(FROM_FILES_CASES):
        with failures.case():
            tok = student.method(cls, "from_files", paths["vocab.json"], paths[f"merges{i}.txt"])
            got = expect_ids(student.method(tok, "encode_ordinary", text),
                             f"from_files(...).encode_ordinary({show(text)})")
            check(got == expected, lambda: f"with {label} ({show(merges)}) and vocab.json "
                  f"{show(SMALL_VOCAB)}, encode_ordinary({show(text)}) returned "
                  f"{versus(got, expected)}")
    with failures.case():
        tok = student.method(cls, "from_files", paths["vocab.json"], paths["merges1.txt"])
        got = expect_ids(student.method(tok, "encode", "ab<|endoftext|>", allowed_special="all"),
                         'from_files(...).encode("ab<|endoftext|>", allowed_special="all")')
        check(got == [3, 13], lambda: 'after from_files, encode("ab<|endoftext|>", allowed_special='
              f'"all") returned {show(got)}, expected [3, 13]: <|endoftext|> from vocab.json '
              "becomes a special token")
    failures.report()


# --- linear time ------------------------------------------------------------------------

SMALL = 8_000  # characters per short text
FACTOR = 16
MAX_RATIO = 4.0


@functools.cache
def _words() -> tuple[str, ...]:
    """Pieces of Shakespeare-like text: words, punctuation, numbers, some Unicode."""
    base = str.split("the of and to a in that is it you he was for on are with as I his they be at "
            "one have this from or had by not word but what some we can out other were all "
            "there when up use your how said an each she which do their time if will way "
            "about many then them write would like so these her long make thing see him two "
            "has look more day could go come did number sound no most people my over know "
            "water than call first who may down side been now find")
    extra = ["HELLO'S", "don't", "naïve", "café", "東京", "мир", "🤗", "2024", "3.14", "!", ",",
             "?", "--", "\n", "\n\n", "  ", "\t"]
    return tuple(base + extra)


def long_text(seed: int, size: int, plain: bool = False) -> str:
    """A text of ``size`` characters that starts with `` the``: whatever comes before it,
    GPT-2's pre-tokenizer starts a piece there, so texts joined encode to their IDs joined.
    ``plain``: ASCII words only (for code that raises on the others)."""
    rng = random.Random(seed)
    words = [w for w in _words() if w.isascii()] if plain else _words()
    parts, length = [" the"], 4
    while length < size:
        word = rng.choice(words)
        piece = word if word.isspace() else rng.choice([" ", " ", "", "\n"]) + word
        parts.append(piece)
        length += len(piece)
    return "".join(parts)[:size]


# The timing runs of the first two turns, the most a linear encoder needs (``growth``).
@ahead(lambda: [(5000 + 100 * turn, FACTOR) for turn in range(2)]
               + [(5050 + 100 * turn, 1) for turn in range(2)])
def timing_case(seed: int, count: int, plain: bool = False) -> tuple[list, list, list]:
    """A timing run's pieces, its texts (the pieces, or them joined when ``count`` is 1),
    and GPT-2's IDs of each text."""
    pieces = [long_text(seed + i, SMALL, plain) for i in range(FACTOR)]
    texts = pieces if count > 1 else ["".join(pieces)]
    tok = reference_gpt2()
    return pieces, texts, [tok.encode_ordinary(text) for text in texts]


@pytest.mark.points(1)
def test_encode_linear_time(student, spawn):
    """encode_ordinary takes time proportional to the length of the text"""
    tok = student_gpt2(student)
    encode = student.get(tok, "encode_ordinary")
    charged_by = "the ID tests"
    own = Own(spawn, HASH_SEED, charged_by)

    def run(seed: int, count: int, plain: bool) -> Run:
        # a single run encodes the pieces joined, and its IDs are theirs joined
        pieces, texts, wants = timing_case(seed, count, plain)

        def yours(other) -> list:  # the single run's text is the pieces joined
            outputs = many(other, other.get(student_gpt2(other), "encode_ordinary"), pieces)
            return [[i for ids in outputs for i in ids]]

        def judge(got: object) -> None:
            check(type(got) is list and len(got) == count,
                  lambda: f"{count} encode_ordinary calls gave {show(got)}")
            if got == wants:
                return
            if count > 1:  # the baseline run: its deviation needs the gate only (``Own``)
                own.gate()
                return
            for text, ids, want in zip(texts, got, own(yours)):
                check(ids == want, lambda: f"encode_ordinary of a text of {len(text)} characters "
                      f"(in a timing test) returned {show(ids)}, but your own encode_ordinary "
                      f"gives {show(want)} on it when not timed: the timed run skipped work; the "
                      f"text began {show(text[:30])}")

        # the texts are sent inside the clock: work done as they arrive counts (``Run``)
        return Run(lambda: student.map(encode, student.put(texts), keep=True),
                   functools.partial(fetch_ids, student), judge)

    ratio, t_batch, t_single = growth_or_plain(
        student,
        lambda plain: (lambda turn: run(5000 + 100 * turn, FACTOR, plain),
                       lambda turn: run(5050 + 100 * turn, 1, plain)),
        charged_by,
        give_up=2 * MAX_RATIO,
        clear=MAX_RATIO / 2,
    )
    print(f"timing: gpt2 encode ratio={ratio:.2f} batch={t_batch * 1e3:.2f}ms "
          f"single={t_single * 1e3:.2f}ms")
    check(ratio <= MAX_RATIO,
          lambda: f"one encode_ordinary of a text {FACTOR}x longer took "
                  f"{ratio_text(ratio, 2 * MAX_RATIO)} as long as {FACTOR} calls on texts of "
                  f"{SMALL} characters ({ms_text(t_single)} against {ms_text(t_batch)}); in linear "
                  "time they take about as long. Look for work that grows with what came before: "
                  "ids = ids + ..., slicing the rest of the text, rescanning from the start.")
