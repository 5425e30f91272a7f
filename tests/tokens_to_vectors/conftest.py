"""GPT-2 as an oracle for Parts 4 and 5, from the files the release ships (no network).

tiktoken is given GPT-2's ranks by its *own* loader of OpenAI's file formats
(``data_gym_to_mergeable_bpe_ranks``, which also checks the files' hashes and that vocab.json
agrees with merges.txt) and its own GPT-2 pattern, so nothing of the course's GPT-2 reference,
which built ``tinyshakespeare_gpt2.npy``, is shared with the oracle.
"""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source" / "tokens_to_vectors"
VOCAB, MERGES = DATA / "gpt2" / "vocab.json", DATA / "gpt2" / "merges.txt"
CORPUS, IDS = DATA / "tinyshakespeare.txt", DATA / "tinyshakespeare_gpt2.npy"
SHA256 = {
    VOCAB: "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    MERGES: "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
}


@pytest.fixture(scope="session")
def tiktoken_gpt2():
    """GPT-2 as tiktoken builds it from the local files (``get_encoding`` would download)."""
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", "")  # read the files, cache nothing
        ranks = data_gym_to_mergeable_bpe_ranks(
            str(MERGES), str(VOCAB), vocab_bpe_hash=SHA256[MERGES],
            encoder_json_hash=SHA256[VOCAB])
    return tiktoken.Encoding(name="gpt2-local", pat_str=r50k_pat_str, mergeable_ranks=ranks,
                             special_tokens={ENDOFTEXT: 50256})


@pytest.fixture(scope="session")
def gpt2_vocab() -> dict[str, int]:
    return json.loads(VOCAB.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def gpt2_merges() -> list[tuple[str, str]]:
    """GPT-2's merges in rank order, the header line left out."""
    lines = MERGES.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#version")
    return [tuple(line.split(" ")) for line in lines[1:] if line]
