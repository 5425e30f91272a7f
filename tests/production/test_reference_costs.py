"""Part 6's reference (who pays for tokens), its constants, and parallel.json.

GPT-2's encoder here is tiktoken built from the bundled vocab.json (no download): the ranks
are vocab.json's IDs of the byte strings, the pattern GPT-2's. The constants of
``solutions.production_tokenizers.costs`` are recomputed with it; parallel.json is rebuilt by
its script with the pinned babel and must come out byte for byte the same.
"""

import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import tiktoken

from solutions.production_tokenizers import (
    GPT2_PREMIUM_MY,
    HIGHEST_PREMIUM_LOCALE,
    SHAKESPEARE_GPT2_TOKENS,
    SHAKESPEARE_TRAIN_BIN_BYTES,
    bytes_per_token,
    estimate_cost,
    fertility,
    pack_tokens,
    token_premium,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source" / "production_tokenizers"
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


@pytest.fixture(scope="module")
def gpt2() -> tiktoken.Encoding:
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    others = [b for b in range(256) if b not in printable]
    char_to_byte = {chr(b): b for b in printable}
    char_to_byte |= {chr(256 + n): b for n, b in enumerate(others)}
    vocab = json.loads((DATA / "gpt2" / "vocab.json").read_text(encoding="utf-8"))
    ranks = {
        bytes(char_to_byte[c] for c in token): i
        for token, i in vocab.items()
        if token != "<|endoftext|>"
    }
    return tiktoken.Encoding(
        name="gpt2-local",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": 50256},
    )


@pytest.fixture(scope="module")
def parallel() -> dict[str, list[str]]:
    return json.loads((DATA / "parallel.json").read_text(encoding="utf-8"))["texts"]


def test_the_oracle_is_gpt2(gpt2):
    assert gpt2.encode_ordinary("Hello world") == [15496, 995]
    assert gpt2.encode_ordinary("HELLO'S") == [13909, 3069, 46, 6, 50]
    assert gpt2.encode("<|endoftext|>", allowed_special="all") == [50256]


# --- the functions by hand ---------------------------------------------------------------


def chars(text: str) -> list[int]:
    """A toy encoder: one token per character."""
    return [ord(c) for c in text]


def test_fertility_and_bytes_per_token():
    texts = ["ab cd", "é  f"]  # 4 words, 9 characters, 10 UTF-8 bytes
    assert fertility(texts, chars) == 9 / 4
    assert bytes_per_token(texts, chars) == 10 / 9
    assert fertility(["a b"], lambda t: [0]) == 0.5
    with pytest.raises(ValueError):
        fertility(["", "  "], chars)
    with pytest.raises(ValueError):
        bytes_per_token([""], chars)


def test_premium_is_total_over_total_against_the_reference_locale():
    parallel = {"en": ["ab", "c"], "xx": ["abcd", "cc"], "yy": ["a", "b"]}
    assert token_premium(parallel, chars) == {"en": 1.0, "xx": 2.0, "yy": 2 / 3}
    # Totals, not the mean of per-item ratios (that would be (2 + 2) / 2 for xx, 0.75 for yy).
    assert token_premium(parallel, chars, reference="xx") == {"en": 0.5, "xx": 1.0, "yy": 1 / 3}
    with pytest.raises(ValueError, match="fr"):
        token_premium(parallel, chars, reference="fr")
    with pytest.raises(ValueError):
        token_premium({"en": ["a", "b"], "xx": ["a"]}, chars)


def test_estimate_cost():
    assert estimate_cost(1_000_000, 0, 2.5, 10.0) == 2.5
    assert estimate_cost(2_000, 500, 3.0, 15.0) == pytest.approx(0.006 + 0.0075)
    assert estimate_cost(0, 0, 1.0, 1.0) == 0.0


@pytest.mark.parametrize(
    ("dtype", "numpy_type", "width"), [("uint16", "<u2", 2), ("uint32", "<u4", 4)]
)
def test_pack_tokens_writes_little_endian(tmp_path, dtype, numpy_type, width):
    ids = [0, 1, 258, 50256, (1 << (8 * width)) - 1]
    path = tmp_path / "train.bin"
    assert pack_tokens(ids, path, dtype) == len(ids) * width == path.stat().st_size
    assert np.fromfile(path, dtype=numpy_type).tolist() == ids
    assert path.read_bytes()[2 * width : 3 * width] == (258).to_bytes(width, "little")
    as_numpy = np.array(ids, dtype=np.int64)  # numpy integers are integers too
    assert pack_tokens(as_numpy, tmp_path / "np.bin", dtype) == path.stat().st_size


def test_pack_tokens_default_and_defaults_of_nanogpt(tmp_path):
    assert pack_tokens([1, 2], tmp_path / "a.bin") == 4
    assert (tmp_path / "a.bin").read_bytes() == b"\x01\x00\x02\x00"
    assert pack_tokens([], tmp_path / "empty.bin") == 0


@pytest.mark.parametrize(
    ("ids", "dtype"), [([1, 65_536], "uint16"), ([70_000], "uint16"), ([-1], "uint16"),
                       ([1 << 32], "uint32"), ([-1], "uint32")]  # fmt: skip
)
def test_pack_tokens_refuses_ids_that_do_not_fit(tmp_path, ids, dtype):
    path = tmp_path / "train.bin"
    with pytest.raises(ValueError, match=str(ids[-1])):
        pack_tokens(ids, path, dtype)
    assert not path.exists()  # nothing half-written


def test_pack_tokens_refuses_an_unknown_dtype(tmp_path):
    with pytest.raises(ValueError, match="uint16"):
        pack_tokens([1], tmp_path / "x.bin", "int16")


# --- the constants and parallel.json with GPT-2 --------------------------------------------


def test_shakespeare_constants(gpt2, tmp_path):
    text = (DATA / "tinyshakespeare.txt").read_text(encoding="utf-8")
    ids = gpt2.encode_ordinary(text)
    assert len(ids) == SHAKESPEARE_GPT2_TOKENS
    assert pack_tokens(ids, tmp_path / "train.bin") == SHAKESPEARE_TRAIN_BIN_BYTES


def test_premium_constants_and_the_shape_of_the_unfairness(gpt2, parallel):
    premium = token_premium(parallel, gpt2.encode_ordinary)
    assert max(premium, key=premium.get) == HIGHEST_PREMIUM_LOCALE
    assert round(premium["my"], 2) == GPT2_PREMIUM_MY
    # Measured: es 1.24, ru 3.82, hi 5.68, my 10.04 (items encoded one by one).
    assert premium["en"] == 1.0 < premium["es"] < 1.5 < premium["ru"] < premium["hi"]
    assert premium["hi"] < premium["my"]
    # Scripts GPT-2 barely learned fall back to about one token per byte.
    assert bytes_per_token(parallel["my"], gpt2.encode_ordinary) < 1.1
    assert bytes_per_token(parallel["en"], gpt2.encode_ordinary) > 2.5


def test_parallel_json_has_the_same_items_in_about_30_locales(parallel):
    document = json.loads((DATA / "parallel.json").read_text(encoding="utf-8"))
    assert {"en", "es", "ru", "hi", "my"} <= set(parallel) and 25 <= len(parallel) <= 40
    assert all(len(texts) == len(document["items"]) for texts in parallel.values())
    assert all(text.strip() for texts in parallel.values() for text in texts)
    kinds = {item.split(":")[0] for item in document["items"]}
    assert kinds == {"language", "territory", "month", "weekday"}
    assert "Unicode License" in document["license"]


def load_make_parallel():
    path = DATA / "make_parallel.py"
    spec = importlib.util.spec_from_file_location("make_parallel", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop("make_parallel", None)
    spec.loader.exec_module(module)
    return module


def test_regenerating_parallel_json_gives_the_same_bytes():
    make_parallel = load_make_parallel()
    assert make_parallel.build().encode("utf-8") == (DATA / "parallel.json").read_bytes()


def test_babel_is_pinned_to_the_version_the_script_expects():
    version = load_make_parallel().BABEL_VERSION
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    environment = (ROOT / "environment.yml").read_text(encoding="utf-8")
    assert re.search(rf'"babel=={re.escape(version)}"', pyproject)
    assert re.search(rf"^\s*- babel={re.escape(version)}\s*$", environment, re.M)
