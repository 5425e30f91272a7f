"""Part 5's reference and its data: bytes, patches and codebook codes as tokens, and GPT-2's
tokens that are not whole characters or that the corpus never uses.

The shipped IDs are checked against tiktoken's GPT-2 (built from the local files), the token
facts against tiktoken's own decoding, ``patchify`` against explicit loops over the patches,
and ``vq_tokenize`` against the ``(N, K, D)`` broadcast that it exists to avoid.
"""

import hashlib
import importlib.util
import sys
import tracemalloc

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref

from .conftest import CORPUS, DATA, IDS

CORPUS_BYTES, GPT2_TOKENS, GPT2_VOCAB = 1_115_394, 338_025, 50_257
MAGIKARP = 43_453


@pytest.fixture(scope="module")
def ids() -> np.ndarray:
    return np.load(IDS, allow_pickle=False)


# --- the shipped IDs ------------------------------------------------------------------------


def test_the_ids_are_tiktokens_gpt2_encoding_of_the_corpus(ids, tiktoken_gpt2):
    assert ids.dtype == np.uint16 and ids.shape == (GPT2_TOKENS,)
    text = CORPUS.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) == CORPUS_BYTES
    expected = tiktoken_gpt2.encode_ordinary(text)
    assert len(expected) == GPT2_TOKENS
    np.testing.assert_array_equal(ids, expected)
    assert tiktoken_gpt2.decode_bytes(ids.tolist()) == CORPUS.read_bytes()


def test_the_readme_states_the_shipped_files_hashes():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for path in (CORPUS, IDS, DATA / "gpt2" / "vocab.json", DATA / "gpt2" / "merges.txt"):
        assert hashlib.sha256(path.read_bytes()).hexdigest() in readme, path.name


def test_the_builder_refuses_a_wrong_count(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # no __pycache__ beside the notebook
    spec = importlib.util.spec_from_file_location("make_data", DATA / "make_data.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    monkeypatch.setattr(builder, "OUT", tmp_path / "ids.npy")
    monkeypatch.setattr(builder, "EXPECTED_IDS", GPT2_TOKENS + 1)
    monkeypatch.setattr(builder, "encode_corpus", lambda: np.zeros(GPT2_TOKENS, np.uint16))
    with pytest.raises(SystemExit, match="338,025 tokens"):
        builder.main()
    assert not (tmp_path / "ids.npy").exists()


def test_the_autograded_ratios(ids):
    assert pytest.approx(CORPUS.stat().st_size / ids.size) == ref.Q_BYTES_PER_GPT2_TOKEN
    assert round(ref.Q_BYTES_PER_GPT2_TOKEN, 4) == 3.2997
    assert pytest.approx(3.2997**2, rel=1e-4) == ref.Q_BYTE_LEVEL_ATTENTION_FACTOR


# --- GPT-2's unused and incomplete tokens ---------------------------------------------------


def test_unused_tokens_in_the_corpus(ids, tiktoken_gpt2):
    unused = ref.unused_tokens(ids, GPT2_VOCAB)
    assert isinstance(unused, np.ndarray) and unused.dtype.kind in "iu"
    assert unused.tolist() == sorted(set(range(GPT2_VOCAB)) - set(ids.tolist()))
    assert unused.size == 38_551
    assert tiktoken_gpt2.encode(" SolidGoldMagikarp") == [MAGIKARP]
    assert MAGIKARP in unused
    assert ref.unused_tokens([], 3).tolist() == [0, 1, 2]
    assert ref.unused_tokens(np.array([[2, 0]]), 4).tolist() == [1, 3]
    for bad_ids, size in (([0, 4], 4), ([-1], 4), ([1.0], 4), ([0], 0), ([0], True)):
        with pytest.raises(ValueError):
            ref.unused_tokens(bad_ids, size)


def test_incomplete_utf8_tokens_by_tiktokens_bytes(gpt2_vocab, tiktoken_gpt2):
    found = ref.incomplete_utf8_tokens(gpt2_vocab)
    assert found == sorted(found) and len(found) == 344

    def complete(token: int) -> bool:
        try:
            tiktoken_gpt2.decode_single_token_bytes(token).decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    assert found == [t for t in range(GPT2_VOCAB) if not complete(t)]
    for token in found:
        assert "\ufffd" in tiktoken_gpt2.decode([token])
    # a tiny vocabulary: "Ã" is the byte 0xC3 alone, "Ã©" is 0xC3 0xA9 ("é")
    assert ref.incomplete_utf8_tokens({"a": 5, "Ã": 7, "Ã©": 1, "Ġ": 3}) == [7]


# --- bytes as tokens (ByT5) -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "hello", "é", "naïve café", "日本", "🙂 ok", "\x00\n"])
def test_byte_tokens_are_the_utf8_bytes_plus_three_then_eos(text):
    ids = ref.byte_tokens(text)
    assert ids == [b + 3 for b in text.encode("utf-8")] + [1]
    assert all(type(i) is int for i in ids)
    assert ref.byte_detokenize(ids) == text


def test_byte_detokenize_drops_special_ids_and_replaces_cut_characters():
    assert ref.byte_detokenize([0, 107, 2, 111, 1, 0]) == "hl"
    cut = ref.byte_tokens("é")[:1]  # the first of two bytes
    assert ref.byte_detokenize(cut) == "\ufffd"
    assert ref.byte_detokenize(np.array([107, 258])) == "h\ufffd"
    assert ref.byte_detokenize([]) == ""
    for bad in ([259], [-1], [True], [3.0], ["a"]):
        with pytest.raises(ValueError):
            ref.byte_detokenize(bad)


# --- image patches (ViT) --------------------------------------------------------------------


def patches_by_loops(image: np.ndarray, patch: int) -> np.ndarray:
    """Patches row by row, each read pixel row by pixel row, channel values innermost."""
    height, width, _ = image.shape
    rows = []
    for top in range(0, height, patch):
        for left in range(0, width, patch):
            values = []
            for y in range(top, top + patch):
                for x in range(left, left + patch):
                    values.extend(image[y, x].tolist())
            rows.append(values)
    return np.array(rows, dtype=image.dtype)


@pytest.mark.parametrize(("shape", "patch"), [((4, 6, 3), 2), ((8, 8, 1), 4), ((6, 9, 2), 3),
                                              ((5, 5, 3), 5), ((3, 3, 4), 1)])
def test_patchify_against_loops(shape, patch):
    image = np.random.default_rng(sum(shape)).standard_normal(shape)
    out = ref.patchify(image, patch)
    np.testing.assert_array_equal(out, patches_by_loops(image, patch))


def test_a_vit_image():
    image = np.arange(224 * 224 * 3, dtype=np.float32).reshape(224, 224, 3)
    tokens = ref.patchify(image, 16)
    assert tokens.shape == (196, 768)
    np.testing.assert_array_equal(tokens[1, :3], image[0, 16])  # the second patch's first pixel
    np.testing.assert_array_equal(tokens[14, 3:6], image[16, 1])  # row 2 of patches starts at 14
    for bad in (0, 15, 3.0, True):
        with pytest.raises(ValueError):
            ref.patchify(image, bad)
    with pytest.raises(ValueError):
        ref.patchify(np.zeros((4, 4)), 2)


# --- codebook codes (VQ-VAE, VQ-GAN) --------------------------------------------------------


def nearest_by_broadcast(vectors: np.ndarray, codebook: np.ndarray) -> np.ndarray:
    """The naive form: every difference ``(N, K, D)``, squared and summed."""
    return np.argmin(((vectors[:, None, :] - codebook[None, :, :]) ** 2).sum(axis=-1), axis=1)


@pytest.mark.parametrize("seed", range(6))
def test_vq_tokenize_against_the_broadcast(seed):
    rng = np.random.default_rng(seed)
    n, k, d = rng.integers(1, 60), rng.integers(1, 40), rng.integers(1, 9)
    vectors, codebook = rng.standard_normal((n, d)), rng.standard_normal((k, d))
    codes = ref.vq_tokenize(vectors, codebook)
    assert codes.shape == (n,) and codes.dtype.kind in "iu"
    np.testing.assert_array_equal(codes, nearest_by_broadcast(vectors, codebook))


def test_vq_ties_go_to_the_smallest_index_and_shapes_are_checked():
    codebook = np.array([[1.0, 0], [0, 1], [1, 0], [0, 1]])
    assert ref.vq_tokenize([[1.0, 0], [0, 1], [0.5, 0.5]], codebook).tolist() == [0, 1, 0]
    for vectors, book in ((np.zeros((2, 3)), np.zeros((4, 2))), (np.zeros(3), np.zeros((4, 3))),
                          (np.zeros((2, 3)), np.zeros((0, 3)))):
        with pytest.raises(ValueError):
            ref.vq_tokenize(vectors, book)


def test_vq_tokenize_peak_memory_at_the_graded_size():
    n, k, d = 10_000, 512, 64
    rng = np.random.default_rng(0)
    vectors, codebook = rng.standard_normal((n, d)), rng.standard_normal((k, d))
    tracemalloc.start()
    ref.vq_tokenize(vectors, codebook)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    table, naive = n * k * 8, n * k * d * 8
    print(f"\nvq_tokenize at N={n:,}, K={k}, D={d}: peak {peak / 1e6:.0f} MB; one (N, K) "
          f"array {table / 1e6:.0f} MB, the (N, K, D) broadcast {naive / 1e9:.1f} GB")
    assert peak <= 3 * table < naive / 20
