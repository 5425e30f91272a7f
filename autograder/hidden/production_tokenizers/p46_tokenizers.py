"""Part 6's tokenizers: total, built in the worker from plain data, run by the reference.

``fertility``, ``bytes_per_token`` and ``token_premium`` take an ``encode`` callable. The
grader hands them the bound ``encode`` of a ``WordPieceTokenizer`` (Part 4's class, which
the spec shows the students) built in Part 6's worker from a vocabulary. There that class
is a stand-in: each call of a method goes up the worker's pipe and the reference answers it
in the scoring process (``autograder/sandbox/standin.py``), so no reference code enters the
worker, and ``encode`` works on any string the student's code hands it. The expected values
come from the reference's ``WordPieceTokenizer`` built here from the same vocabulary.

Why WordPiece: it tokenizes each word on its own and gives white space no token, so on the
test's texts (white space that ``str.split`` and BERT's pre-tokenizer agree on: no
``\\x1c``-``\\x1f``) a text's tokens are those of its ``str.split()`` words, of the text
stripped, and a locale's total is that of its items joined with spaces. Code that counts
the tokens of the texts in any of these ways computes the spec's number and gets it graded
as such; a byte-level tokenizer (GPT-2's) would tell them apart, where the spec is silent.

- ``"a WordPiece tokenizer"``: the English words of the parallel text, the ASCII letters
  and ``[UNK]`` (other scripts become ``[UNK]``, one per word);
- ``"a WordPiece tokenizer of letters"``: the ASCII letters and ``[UNK]`` only: English one
  token per letter, other scripts ``[UNK]``.

The vocabularies are small on purpose: a stand-in sends the object's state with every
call, and code that encodes one word at a time makes thousands of calls.
"""

from collections.abc import Callable
from functools import cache

import solutions.production_tokenizers as ref
from autograder.sandbox import Remote
from autograder.suite.checks import check, show

from .p46_parallel import TEXTS as PARALLEL

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def vocabulary(characters: str, english: bool) -> dict[str, int]:
    words = sorted({w for text in PARALLEL["en"] for w in text.split()}) if english else []
    tokens = ["[UNK]", *words, *characters, *("##" + c for c in characters)]
    return {t: i for i, t in enumerate(dict.fromkeys(tokens))}


VOCABULARIES: dict[str, dict[str, int]] = {
    "a WordPiece tokenizer": vocabulary(LETTERS, english=True),
    "a WordPiece tokenizer of letters": vocabulary(LETTERS, english=False),
}


@cache
def reference_encode(name: str) -> Callable[[str], list[int]]:
    """The tokenizer ``name`` in the scoring process: what the expected values use."""
    return ref.WordPieceTokenizer(VOCABULARIES[name]).encode


def worker_encode(student, name: str) -> Remote:
    """The tokenizer ``name`` in the worker (built once per worker): its bound ``encode``."""
    key = ("p46", "encode", name)
    if key not in student.cache:
        tok = student.call("WordPieceTokenizer", VOCABULARIES[name])
        check(isinstance(tok, Remote),
              lambda: f"the grader could not build its tokenizer ({name}: Part 4's "
                      f"WordPieceTokenizer, served by the reference), got {show(tok)}")
        student.cache[key] = student.get(tok, "encode")
    return student.cache[key]
