"""Helpers of the production catalogue's witnesses: tokenizers built in a namespace.

Witnesses run in this process on the built submission and on the reference. GPT-2 is
built only where a bug needs it (the reference's pre-tokenizer costs half a second per
namespace to compile); the small byte-level tokenizer of the hidden suite serves the
rest.
"""

import json
import tempfile
from pathlib import Path

from autograder.hidden.production_tokenizers.p13_inputs import (
    SMALL_SPECIALS,
    gpt2_data,
    small_data,
)

from ..catalogue import Namespace


def gpt2(ns: Namespace):
    return ns["ByteLevelBPE"](*gpt2_data())


def small(ns: Namespace):
    encoder, merges = small_data()
    return ns["ByteLevelBPE"](encoder, merges, SMALL_SPECIALS)


def loaded(ns: Namespace, vocab: dict[str, int], merges_text: str):
    """``ByteLevelBPE.from_files`` on files holding ``vocab`` and ``merges_text``."""
    folder = Path(tempfile.mkdtemp())
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text(merges_text, encoding="utf-8")
    return ns["ByteLevelBPE"].from_files(str(folder / "vocab.json"), str(folder / "merges.txt"))


def mutated(source: str, old: str, new: str) -> str:
    """``source`` with its one occurrence of ``old`` replaced: an entry changed in one place."""
    assert source.count(old) == 1, old
    return source.replace(old, new)
