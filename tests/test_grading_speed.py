"""What makes grading fast must not change what it decides.

- Messages: a list of plain values crosses the pipe in one step (``SCALARS``), with the
  same result and the same limits as the item-by-item path.
- The dry run (``worker.survives``) is skipped only for a definition that cannot run code
  (``worker.inert``); another part's class that would run code when defined still gets
  one, so it cannot take the graded part's worker down.
- Trust follows each spec name's own tests (the ``grades`` marker): a function of
  another part that passed every test judging it runs as the student wrote it (no round
  trip per call), one that failed any stays a stand-in; a failed test of a method that
  Part 4 grades of Part 2's class (``CharTokenizer.build_vocab``) leaves Part 4's
  functions trusted.
"""

import builtins
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest
from security.hostile import submission

from autograder.sandbox import Worker, WorkerFailure
from autograder.sandbox import client as client_module
from autograder.sandbox.client import _decode, _encode
from autograder.sandbox.reference import reference_without
from autograder.sandbox.worker import inert
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION


def test_a_flat_list_is_encoded_and_decoded_as_item_by_item():
    ids = list(range(-3, 5000)) + [True, None, 1.5, "x"]
    assert _encode(ids) == ids and _decode(ids) == ids
    nested = [[1, 2], (3, "a"), {"k": [4]}, {5}]
    assert _decode(_encode(nested)) == [[1, 2], (3, "a"), {"k": [4]}, {5}]


def test_a_flat_list_still_counts_against_the_reply_limit(monkeypatch):
    monkeypatch.setattr(client_module, "MAX_ITEMS", 100)
    _decode([[0] * 50, [0] * 40])
    with pytest.raises(WorkerFailure, match="more than 100 values"):
        _decode([[0] * 50, [0] * 60])


def namespace(**names: object) -> dict:
    return {"__builtins__": builtins, **names}


INERT = [
    "class A:\n    'doc'\n    unk = 0\n    def f(self, x: int = 1, *a: str, **k) -> None:\n"
    "        return x()\n",
    "class A(Base):\n    @property\n    def size(self) -> int:\n        return 1\n"
    "    @staticmethod\n    def g(v: list[str] | None = None,\n"
    "          w: dict[str, tuple[int, ...]] = None):\n        pass\n",
    "def f(tokens: list[str], pair: tuple[str, str]) -> list[str]:\n    return tokens\n",
    "def f(x: Base | None = None, y: int | str | None = None):\n    pass\n",
]

RUNS_CODE = [
    "class A:\n    x = print('hi')\n",
    "class A(Hooked):\n    pass\n",  # Hooked.__init_subclass__ runs
    "class A(Base, metaclass=Meta):\n    pass\n",
    "class A(make()):\n    pass\n",
    "class A:\n    def f(self, x=compute()):\n        pass\n",
    "class A:\n    def f(self, x: compute()):\n        pass\n",
    "class A:\n    def f(self) -> Generic[int]:\n        pass\n",  # a class's __class_getitem__
    "class A:\n    def f(self) -> Instance | None:\n        pass\n",  # an object's __or__
    "class A:\n    @decorate\n    def f(self):\n        pass\n",
    "class A:\n    @size.setter\n    def f(self, v):\n        pass\n",
    "class A:\n    def list(self):\n        pass\n    def f(self) -> list[int]:\n        pass\n",
    "@decorate\ndef f():\n    pass\n",
    "def f(x=os._exit(1)):\n    pass\n",
    "x = 1\n",
    "class A:\n    pass\nclass B:\n    pass\n",
]


class Hooked:
    def __init_subclass__(cls) -> None:
        raise SystemExit


class Generic:
    def __class_getitem__(cls, item: object) -> object:
        raise SystemExit


class Meta(type):
    pass


class Base:
    pass


@pytest.mark.parametrize("source", INERT)
def test_a_definition_that_evaluates_only_constants_and_names_needs_no_dry_run(source):
    assert inert(source, namespace(Base=Base))


@pytest.mark.parametrize("source", RUNS_CODE)
def test_a_definition_that_could_run_code_gets_its_dry_run(source):
    names = namespace(Base=Base, Hooked=Hooked, Generic=Generic, Meta=Meta, Instance=object(),
                      decorate=lambda f: f, compute=lambda: 1, make=lambda: Base)
    assert not inert(source, names)


def test_a_rebound_builtin_is_not_taken_for_the_builtin():
    source = "class A:\n    def f(self) -> list[int]:\n        pass\n"
    assert inert(source, namespace())
    assert not inert(source, namespace(list=Generic))
    assert not inert(source, {"__builtins__": {**vars(builtins), "list": Generic}})
    assert not inert("class A:\n    @property\n    def f(self):\n        pass\n",
                     namespace(property=lambda f: f))


# Part 1's base class exits the worker when Part 2's class is defined on it: a plain class
# statement, but one that runs the student's code. Part 3's worker must survive it.
EXITS_ON_SUBCLASS = '''
import os


class Tokenizer(Tokenizer):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__name__ == "CharTokenizer":
            os._exit(1)


class CharTokenizer(Tokenizer):
    def encode(self, text):
        return []
'''


def test_a_class_whose_base_runs_code_when_subclassed_cannot_stop_another_part(tmp_path):
    code = submission(tmp_path, reference_without(TOKENIZATION, 0)[0] + EXITS_ON_SUBCLASS)
    with Worker(TOKENIZATION, code, part=3, timeout=30) as worker:
        tok = worker.call("BPETokenizer", 30)
        worker.method(tok, "train", ["low lower newest widest"])
        assert worker.get(tok, "merges")


# count_pairs ignores the frequencies (fails Part 4's tests); merge_pair passes every test
# of its own but joins the pair back to front in any word holding an "s" (Part 4's cases
# hold none, Part 3's do). Still one token fewer per merge, so a trainer built on it ends
# (one that left such words alone never ended: two call timeouts of 5 s per grading).
WRONG_COUNTS = '''
def count_pairs(word_tokens, word_freq):
    counts = Counter()
    for tokens in word_tokens.values():
        for pair in zip(tokens, tokens[1:]):
            counts[pair] += 1
    return counts


def merge_pair(tokens, pair):
    backwards = "s" in tokens
    merged, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            a, b = tokens[i], tokens[i + 1]
            merged.append(b + a if backwards else a + b)
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged
'''
# The same merge_pair, which now also fails one of its own tests.
WRONG_MERGES_TOO = WRONG_COUNTS + '''

_own_merge_pair = merge_pair


def merge_pair(tokens, pair):
    if pair == ("a", "a"):
        return list(tokens)
    return _own_merge_pair(tokens, pair)
'''


# Part 4's build_vocab keeps the order characters are first seen in (fails its tests).
WRONG_COUNTS_AND_BUILD_VOCAB = WRONG_COUNTS + '''

class CharTokenizer(CharTokenizer):
    def build_vocab(self, corpus):
        self._set_vocab(list(dict.fromkeys(ch for text in corpus for ch in text)))
'''


def grade_with(tmp_path, overrides: dict[str, str]) -> dict[str, dict]:
    """Each override appended to the reference, graded at once (2 cores): test statuses."""
    paths = {}
    for name, override in overrides.items():
        paths[name] = tmp_path / f"{name}.py"
        paths[name].write_text(reference_without(TOKENIZATION, 0)[0]
                               + textwrap.dedent(override), encoding="utf-8")
    with ThreadPoolExecutor(max_workers=len(paths)) as pool:
        futures = {name: pool.submit(grade_file, path, "trust", assignment=TOKENIZATION,
                                     timeout=300) for name, path in paths.items()}
        results = {name: future.result() for name, future in futures.items()}
    for result in results.values():
        assert result["status"] == "graded", result["error"]
    return {name: {t["id"]: t["status"] for t in result["tests"]}
            for name, result in results.items()}


@pytest.mark.slow
def test_trust_follows_each_functions_own_tests(tmp_path):
    graded = grade_with(tmp_path, {"counts": WRONG_COUNTS,
                                   "build_vocab": WRONG_COUNTS_AND_BUILD_VOCAB,
                                   "merges": WRONG_MERGES_TOO})
    tests = graded["counts"]
    assert tests["part4::test_count_pairs"] == "failed"
    assert all(s == "passed" for t, s in tests.items() if "merge_pair" in t)
    # merge_pair passed all its tests: Part 3's trainer runs the student's own.
    assert any(s == "failed" for t, s in tests.items() if t.startswith("part3::"))

    tests = graded["build_vocab"]
    assert tests["part4::test_build_vocab_sorted"] == "failed"
    # build_vocab's tests judge that method alone: merge_pair is still trusted.
    assert any(s == "failed" for t, s in tests.items() if t.startswith("part3::"))

    tests = graded["merges"]
    assert tests["part4::test_merge_pair_no_overlap"] == "failed"
    # merge_pair failed one of its tests: Part 3 uses the reference's and loses nothing.
    assert all(s == "passed" for t, s in tests.items() if t.startswith("part3::")), tests
