"""Shared fixtures of the production-tokenizers reference tests: GPT-2 from the project's files.

The files are the ones the release ships (``source/production_tokenizers/gpt2/``). The
oracle is tiktoken, given GPT-2's ranks by its *own* loader of OpenAI's file formats
(``data_gym_to_mergeable_bpe_ranks``, which also checks the files' hashes and that
vocab.json agrees with merges.txt) and its own GPT-2 pattern: no network, and nothing of
the reference is shared with the oracle.
"""

from pathlib import Path

import pytest

from solutions.production_tokenizers import ByteLevelBPE

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source" / "production_tokenizers"
VOCAB, MERGES = DATA / "gpt2" / "vocab.json", DATA / "gpt2" / "merges.txt"
CORPUS = DATA / "tinyshakespeare.txt"
SHA256 = {  # as published with the data (merges.txt: the hash tiktoken checks for vocab.bpe)
    VOCAB: "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    MERGES: "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
    CORPUS: "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed",
}


def tiktoken_gpt2():
    """GPT-2 as tiktoken builds it, from the local files (``get_encoding`` needs the network)."""
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", "")  # read the files, cache nothing
        ranks = data_gym_to_mergeable_bpe_ranks(
            str(MERGES), str(VOCAB), vocab_bpe_hash=SHA256[MERGES], encoder_json_hash=SHA256[VOCAB]
        )
    return tiktoken.Encoding(
        name="gpt2-local",
        pat_str=r50k_pat_str,
        mergeable_ranks=ranks,
        special_tokens={ENDOFTEXT: 50256},
    )


@pytest.fixture(scope="session")
def gpt2() -> ByteLevelBPE:
    """The reference, loaded by ``from_files``."""
    return ByteLevelBPE.from_files(VOCAB, MERGES)


@pytest.fixture(scope="session")
def oracle():
    return tiktoken_gpt2()
