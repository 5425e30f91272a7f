"""Inputs of the hidden tests of Parts 1-3: GPT-2's data, random text, small tokenizers.

Random text is drawn as the spec says: every character is a code point assigned in the
grader's ``unicodedata`` (category not ``Cn``), never a surrogate, found by rejection
sampling (a table of all assigned code points would cost the scoring process 0.2 s).
A string mixes fragments where GPT-2 implementations differ: White_Space runs and the
``str.isspace``-only U+001C-U+001F, contractions in both cases, digits of several
scripts and other numbers (``²``, ``Ⅻ``), emoji, words of one script, punctuation,
ASCII words, and any assigned character at all. Everything is seeded, so a submission
always meets the same strings.

GPT-2's files are read from ``solutions/production_tokenizers/data/gpt2/`` (copies of
the release's, kept equal by a repository test): the scorer needs them, and ``source/``
is not in the Gradescope bundle. Student code never sees the files: the tests build the
student's tokenizer with the constructor, from the data sent through the worker's pipe.
"""

import json
import random
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import solutions.production_tokenizers as ref
from autograder.sandbox import StudentError
from autograder.suite.ahead import ahead
from autograder.suite.checks import expect_remote

GPT2_DIR = Path(ref.__file__).resolve().parent / "data" / "gpt2"
ENDOFTEXT = "<|endoftext|>"

WHITE_SPACE_CHARS = sorted(ref.WHITE_SPACE)
ISSPACE_ONLY = ["\x1c", "\x1d", "\x1e", "\x1f"]  # str.isspace() is True, White_Space is not
CONTRACTIONS = ["'s", "'t", "'d", "'m", "'ll", "'ve", "'re", "'S", "'T", "'D", "'M", "'LL",
                "'Ve", "'RE", "'", "''", "'x"]
ASCII_WORDS = ["Hello", "world", "the", "GPT", "don", "I", "it", "x", "tokenization", "HELLO",
               "SolidGoldMagikarp", "<|endoftext|>", "<|end", "endoftext"]
NUMBERS = ["0123456789", "٠١٢٣٤٥٦٧٨٩", "०१२३४५६७८९", "０１２３", "²³¹", "½¼", "ⅫⅣ", "①②"]
PUNCTUATION = " !?.,;:-'\"()[]{}<>|/\\@#$%^&*_+=~`…—«»¿¡"


def _assigned(cp: int) -> bool:
    return not 0xD800 <= cp <= 0xDFFF and unicodedata.category(chr(cp)) != "Cn"


def any_char(rng: random.Random) -> str:
    """One assigned code point, most often from the BMP, sometimes from any plane."""
    top = 0x10000 if rng.random() < 0.7 else 0x110000
    while True:
        cp = rng.randrange(top)
        if _assigned(cp):
            return chr(cp)


def script_word(rng: random.Random) -> str:
    """Letters and marks near one random letter: one script, as words are."""
    while True:
        centre = rng.randrange(0x20000 if rng.random() < 0.2 else 0x10000)
        if _assigned(centre) and unicodedata.category(chr(centre))[0] == "L":
            break
    near = [chr(cp) for cp in range(max(0, centre - 48), centre + 48)
            if _assigned(cp) and unicodedata.category(chr(cp))[0] in "LM"]
    return "".join(rng.choice(near) for _ in range(rng.randint(1, 8)))


def emoji(rng: random.Random) -> str:
    while True:
        cp = rng.randrange(0x1F300, 0x1FAFF)
        if unicodedata.category(chr(cp)) == "So":
            return chr(cp) + (chr(0x1F3FB + rng.randrange(5)) if rng.random() < 0.2 else "")


def fragment(rng: random.Random, ascii_words: list[str]) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        pool = WHITE_SPACE_CHARS + ISSPACE_ONLY + [" "] * 8
        return "".join(rng.choice(pool) for _ in range(rng.randint(1, 5)))
    if kind == 1:
        return rng.choice(CONTRACTIONS)
    if kind == 2:
        digits = rng.choice(NUMBERS)
        return rng.choice(["", " "]) + "".join(rng.choice(digits) for _ in range(rng.randint(1, 9)))
    if kind == 3:
        return "".join(emoji(rng) for _ in range(rng.randint(1, 3)))
    if kind == 4:
        return rng.choice(["", " "]) + script_word(rng)
    if kind == 5:
        return rng.choice(["", " ", "  "]) + rng.choice(ascii_words)
    if kind == 6:
        return "".join(rng.choice(PUNCTUATION) for _ in range(rng.randint(1, 3)))
    if kind == 7:
        return rng.choice(["\u00a0", "\u3000", "\x85", "\u2028", "\t", "\n"]) + rng.choice(
            ascii_words)
    return "".join(any_char(rng) for _ in range(rng.randint(1, 3)))


def random_text(rng: random.Random, max_fragments: int = 10, specials: bool = True) -> str:
    """A random string of up to ``max_fragments`` fragments; ``specials`` off: no text of
    a special token (for ``encode`` without ``allowed_special``)."""
    words = ASCII_WORDS if specials else [w for w in ASCII_WORDS if "<|" not in w]
    return "".join(fragment(rng, words) for _ in range(rng.randint(0, max_fragments)))


@cache
def random_texts(seed: int, count: int) -> tuple[str, ...]:
    rng = random.Random(seed)
    return tuple(random_text(rng) for _ in range(count))


# --- GPT-2 and the reference --------------------------------------------------------------


RANDOM_COUNT = 1000  # hidden random strings of the ID, piece and round-trip tests


def _prepare() -> tuple[tuple, ref.ByteLevelBPE]:
    """GPT-2's data and the reference tokenizer, its pattern compiled and its cache warm."""
    encoder = json.loads((GPT2_DIR / "vocab.json").read_text(encoding="utf-8"))
    lines = (GPT2_DIR / "merges.txt").read_text(encoding="utf-8").split("\n")[1:]
    merges = [tuple(line.split(" ")) for line in lines if line]
    data = (encoder, merges, {ENDOFTEXT: encoder[ENDOFTEXT]})
    tok = ref.ByteLevelBPE(*data)
    for text in random_texts(1, RANDOM_COUNT):
        tok.encode_ordinary(text)
    return data, tok


# Prepared in a thread from the moment this module is imported: about a second of work
# (reading GPT-2, compiling the reference's pattern). The zygote (``suite/zygote.py``)
# waits for it once, so the scoring runs it forks have it ready; a scoring process
# started cold overlaps it with the workers starting.
_PREPARED = ThreadPoolExecutor(max_workers=1, thread_name_prefix="p13-gpt2").submit(_prepare)


def gpt2_data() -> tuple[dict[str, int], list[tuple[str, str]], dict[str, int]]:
    """GPT-2's encoder, merges in rank order, and special tokens (read without any code
    under test)."""
    return _PREPARED.result()[0]


def reference_gpt2() -> ref.ByteLevelBPE:
    return _PREPARED.result()[1]


@ahead()
def gpt2_texts() -> tuple[str, str]:
    """GPT-2's encoder and merges as the two JSON texts the worker parses (see
    ``p13_worker_files``): the merges as one object whose keys repeat, in rank order."""
    encoder, merges, _ = gpt2_data()
    pairs = ",".join(f"{json.dumps(left)}:{json.dumps(right)}" for left, right in merges)
    return json.dumps(encoder), "{" + pairs + "}"


def student_gpt2(student):
    """The student's ``ByteLevelBPE`` with GPT-2's data, built once per worker; if the
    constructor raised, each later test of the worker gets the same error without sending
    GPT-2's data again (a megabyte the worker parses: a third of a second)."""
    from .p13_worker_files import gpt2_in_worker

    key = ("p13", "gpt2")
    if key not in student.cache:
        try:
            student.cache[key] = gpt2_in_worker(
                student, gpt2_texts(), gpt2_data()[2],
                "ByteLevelBPE(GPT-2's encoder, merges, special_tokens)")
        except StudentError as exc:
            student.cache[key] = exc
    if isinstance(student.cache[key], StudentError):
        raise student.cache[key]
    return student.cache[key]


# A small byte-level tokenizer for the special-token tests: the 256 bytes, a few merges,
# three special tokens, one of them a prefix of another and one with an ID beyond the
# encoder's. Cheap to send, so each test may build its own.
SMALL_SPECIALS = {ENDOFTEXT: 300, "<|end": 301, "<|fim|>": 302}


@ahead()
def small_data() -> tuple[dict[str, int], list[tuple[str, str]]]:
    table = ref.bytes_to_unicode()
    encoder = {table[b]: b for b in range(256)}
    merges = [("h", "e"), ("l", "l"), ("he", "ll"), ("Ġ", "w"), ("o", "r"), ("Ġw", "or"),
              ("<", "|"), ("e", "n"), ("en", "d")]
    for left, right in merges:
        encoder[left + right] = len(encoder)
    encoder[ENDOFTEXT] = 300  # GPT-2's vocab.json lists its special token too
    return encoder, merges


@ahead()
def reference_small() -> ref.ByteLevelBPE:
    encoder, merges = small_data()
    return ref.ByteLevelBPE(encoder, merges, SMALL_SPECIALS)


def student_small(student):
    key = ("p13", "small")
    if key not in student.cache:
        encoder, merges = small_data()
        tok = student.call("ByteLevelBPE", encoder, merges, SMALL_SPECIALS)
        student.cache[key] = expect_remote(
            tok, "ByteLevelBPE(a small encoder, merges, three special tokens)", "ByteLevelBPE")
    return student.cache[key]


# The spec's worked examples, with GPT-2's IDs written out (the reference agrees).
WORKED = [
    ("Hello world", [15496, 995]),
    ("hello world", [31373, 995]),
    ("To be or not to be, that is the question.",
     [2514, 307, 393, 407, 284, 307, 11, 326, 318, 262, 1808, 13]),
    ("HELLO'S", [13909, 3069, 46, 6, 50]),
    (ENDOFTEXT, [27, 91, 437, 1659, 5239, 91, 29]),
]


# Small files for from_files, written by the worker into a fresh folder of its own.
SMALL_VOCAB = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5, "#": 6, "##": 7, "Ġ": 8,
               "Ġa": 9, "Ã": 10, "©": 11, "Ã©": 12, ENDOFTEXT: 13}
FROM_FILES_CASES = [
    # (label, merges.txt, text, expected IDs)
    ("merges.txt without a #version header", "b c\na b\n", "abc", [0, 4]),
    ("merges.txt with a #version header", "#version: 0.2\na b\nb c\nab c\n", "abc", [5]),
    ("merges.txt whose first merge is '# #'", "# #\nĠ a\nÃ ©", "## a é", [7, 9, 8, 12]),
    ("merges.txt without a final newline", "#version: 0.2\nb c\na bc", "abc cab", [5, 8, 2, 0, 1]),
]


# --- Part 2: Unicode's conformance file -----------------------------------------------

FORMS = ("NFC", "NFD", "NFKC", "NFKD")
CONFORMANCE = Path(__file__).with_name("p13_normalization_test.txt")  # see test_part2


@cache
def conformance_lines() -> tuple[tuple[str, ...], ...]:
    """Each test line's five columns (source, NFC, NFD, NFKC, NFKD) as strings."""
    lines = []
    for line in CONFORMANCE.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in "#@":
            continue
        columns = line.split(";")[:5]
        lines.append(tuple("".join(chr(int(cp, 16)) for cp in c.split()) for c in columns))
    return tuple(lines)


def invariants(columns: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """``(text, form, expected)`` of every invariant of one line (the file's CONFORMANCE)."""
    c1, c2, c3, c4, c5 = columns
    cases = [(c, "NFC", c2) for c in (c1, c2, c3)] + [(c, "NFC", c4) for c in (c4, c5)]
    cases += [(c, "NFD", c3) for c in (c1, c2, c3)] + [(c, "NFD", c5) for c in (c4, c5)]
    cases += [(c, "NFKC", c4) for c in columns] + [(c, "NFKD", c5) for c in columns]
    return cases
