"""Helpers of the tokenization catalogue's witnesses: training, corpora, a class unbased."""

import ast

from tests.course import TOKENIZATION

from ..catalogue import Namespace, reference_source


def trained(ns: Namespace, corpus: list[str], vocab_size: int = 1000):
    tokenizer = ns["BPETokenizer"](vocab_size)
    tokenizer.train(list(corpus))
    return tokenizer


# Corpora the witnesses use; the hidden suite has its own.
HELLO = ["hello", "hello", "help"]
SENNRICH = ["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3


def without_base(name: str, drop: tuple[str, ...] = ()) -> str:
    """The reference's class ``name`` written without its base class (and minus ``drop``)."""
    module = ast.parse(reference_source(TOKENIZATION))
    node = next(n for n in module.body if isinstance(n, ast.ClassDef) and n.name == name)
    node.bases = []
    node.body = [item for item in node.body
                 if not (isinstance(item, ast.FunctionDef) and item.name in drop)]
    return ast.unparse(node) + "\n"
