"""The reference a worker receives: everything but the part being graded."""

import ast

import pytest

import solutions.tokenization as solutions
from autograder.sandbox.reference import reference_without
from tests.course import TOKENIZATION


def top_level_names(source: str) -> set[str]:
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


@pytest.mark.parametrize("part", sorted(TOKENIZATION.parts))
def test_the_graded_part_is_never_sent(part):
    source, exports = reference_without(TOKENIZATION, part)
    own = {name for name, p in TOKENIZATION.part_of.items() if p == part}
    assert not own & top_level_names(source)
    assert not own & set(exports)
    for (cls, method), p in TOKENIZATION.method_part.items():
        if p == part:
            namespace: dict = {}
            exec(source, namespace)
            assert not hasattr(namespace[cls], method)


@pytest.mark.parametrize("part", sorted(TOKENIZATION.parts))
def test_every_other_part_is_sent_and_works(part):
    source, exports = reference_without(TOKENIZATION, part)
    namespace: dict = {}
    exec(source, namespace)
    expected = {name for name, p in TOKENIZATION.part_of.items() if p != part}
    if part == 1:  # the tokenizer classes cannot exist without their base class
        expected -= {"CharTokenizer", "BPETokenizer"}
    assert expected <= set(exports)
    for name in exports:
        assert name in namespace


def test_the_whole_reference_behaves_like_the_package():
    namespace: dict = {}
    exec(reference_without(TOKENIZATION, 0)[0], namespace)
    tok = namespace["BPETokenizer"](1000)
    tok.train(["hello", "hello", "help"])
    expected = solutions.BPETokenizer(1000)
    expected.train(["hello", "hello", "help"])
    assert tok.merges == expected.merges
    assert namespace["Q1_EMBEDDING_MIB"] == solutions.Q1_EMBEDDING_MIB
