"""The hidden suite's own data and fixed expectations for Parts 1-3 (``p13_*`` modules).

The scorer reads copies that must stay equal to what the release ships, and a few hidden
tests write their expected values out; this checks both against the sources of truth:

* GPT-2's files in ``solutions/production_tokenizers/data/gpt2/`` (the scorer's copy: the
  Gradescope bundle holds no ``source/``) are byte for byte the release's;
* the NormalizationTest sample of the hidden folder is a part of ``tests/data``'s subset
  (header kept), and the reference passes every invariant the hidden test derives from it;
* the literal expectations of the ``from_files`` and worked-example tests are the
  reference's;
* the timing corpora's relabelling moves the reference's answer as the Part 3 test says.
"""

import json

import pytest

import solutions.production_tokenizers as ref
from autograder.hidden.production_tokenizers import p13_corpora, p13_inputs
from autograder.hidden.production_tokenizers.p13_inputs import (
    CONFORMANCE,
    FROM_FILES_CASES,
    SMALL_VOCAB,
    WORKED,
    conformance_lines,
    invariants,
)

from .conftest import DATA, ROOT


@pytest.mark.parametrize("name", ["vocab.json", "merges.txt"])
def test_scorer_copy_of_gpt2_is_the_release(name):
    copy = p13_inputs.GPT2_DIR / name
    assert copy.read_bytes() == (DATA / "gpt2" / name).read_bytes(), (
        f"{copy} differs from the release's; copy source/production_tokenizers/gpt2/{name}")


def test_normalization_sample_is_part_of_the_subset():
    sample = CONFORMANCE.read_text(encoding="utf-8").splitlines()
    subset = (ROOT / "tests" / "data" / "NormalizationTest-14.0.0-subset.txt").read_text(
        encoding="utf-8").splitlines()
    assert sample[:5] == subset[:5], "Unicode's header (copyright, terms of use) must be kept"
    assert set(sample) - set(subset) <= {line for line in sample if line.startswith("# ")}
    assert len(conformance_lines()) > 1000


def test_reference_passes_the_hidden_conformance_invariants():
    cases = {case for line in conformance_lines() for case in invariants(line)}
    assert len(cases) > 5000
    wrong = [(t, f) for t, f, want in cases if ref.normalize(t, f) != want]
    assert not wrong


def test_written_expectations_are_the_reference(tmp_path):
    (tmp_path / "vocab.json").write_text(json.dumps(SMALL_VOCAB), encoding="utf-8")
    for label, merges, text, expected in FROM_FILES_CASES:
        (tmp_path / "merges.txt").write_text(merges, encoding="utf-8")
        tok = ref.ByteLevelBPE.from_files(tmp_path / "vocab.json", tmp_path / "merges.txt")
        assert tok.encode_ordinary(text) == expected, label
    gpt2 = p13_inputs.reference_gpt2()
    for text, expected in WORKED:
        assert gpt2.encode_ordinary(text) == expected, text


def test_relabelled_corpus_moves_the_reference_answer():
    corpus = p13_corpora.zipf_corpus(300, 300)
    target = p13_corpora.base_size(corpus) + 60
    vocab, merges = p13_corpora.reference(corpus, target)
    for block in (1, 6):
        moved = p13_corpora.relabel(corpus, block)
        assert moved != corpus
        assert ref.train_bpe_fast(list(moved), target) == (
            p13_corpora.relabel(vocab, block), p13_corpora.relabel(merges, block))


def test_random_text_is_drawn_from_assigned_code_points():
    import unicodedata

    texts = p13_inputs.random_texts(1, p13_inputs.RANDOM_COUNT)
    assert len(texts) >= 1000
    assert all(unicodedata.category(c) not in ("Cn", "Cs") for t in texts for c in t)
    joined = "".join(texts)
    for needed in ["\x1c", "\x85", "\xa0", "\u3000", "'S", "'ll"]:
        assert needed in joined, needed
