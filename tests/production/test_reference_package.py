"""The production-tokenizers reference as a package: its names, its data, its independence."""

import hashlib
import importlib
import inspect

import solutions.production_tokenizers as ref

from .conftest import DATA, ROOT, SHA256

# Parts 1-3 of the spec, by name (production.md).
SPEC_NAMES = [
    "bytes_to_unicode",
    "gpt2_pretokenize",
    "ByteLevelBPE",
    "normalize",
    "clean_text",
    "train_bpe_fast",
]
PARTS_1_TO_3_MODULES = [
    "byte_table",
    "pretokenize",
    "byte_bpe",
    "normalization",
    "gotchas",
    "train_fast",
]
BYTE_LEVEL_BPE_MEMBERS = ["from_files", "encode_ordinary", "encode", "decode_bytes", "decode"]


def test_every_spec_name_is_exported():
    assert set(ref.__all__) == {name for name in ref.__all__ if hasattr(ref, name)}
    assert set(SPEC_NAMES) <= set(ref.__all__)
    assert set(ref.GOTCHA_TEXTS) <= set(ref.__all__)
    assert all(hasattr(ref.ByteLevelBPE, member) for member in BYTE_LEVEL_BPE_MEMBERS)


def test_every_module_says_what_it_follows_and_leaves_out():
    for name in PARTS_1_TO_3_MODULES:
        doc = inspect.getdoc(importlib.import_module(f"solutions.production_tokenizers.{name}"))
        assert "Follows" in doc and "Left out" in doc, name


def test_bundled_data_is_byte_identical_to_the_published_files():
    for path, digest in SHA256.items():
        assert path.parent.is_relative_to(DATA)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, path.name


def test_nothing_reads_the_shared_folder():
    sources = [
        *(ROOT / "solutions" / "production_tokenizers").glob("*.py"),
        *(ROOT / "tests" / "production").glob("*.py"),
    ]
    for path in sources:
        assert "shared" + "/" not in path.read_text(encoding="utf-8"), path
