"""Build ``tinyshakespeare_gpt2.npy``: the bundled corpus as GPT-2 token IDs.

Part 5 counts which of GPT-2's 50,257 tokens a real text uses, and Part 6 compares the cost
of a context in characters, bytes and GPT-2 tokens. Students do not have a GPT-2 tokenizer
of their own in this assignment (they build one in the second assignment), so the release
ships the IDs. They are made here, offline, by the repository's own GPT-2 reference
(``solutions/production_tokenizers``, loaded from the GPT-2 files that the second
assignment ships), and saved as ``uint16`` (every ID is below 2**16 = 65,536).

The output is deterministic: the same corpus and files give the same bytes (``np.save``
writes a fixed header). The script refuses to write anything unless the corpus, the files
and the ID count are the ones the assignment's text states, so a changed input cannot slip
into a release unnoticed. ``make release`` runs it before nbgrader copies this folder.

    python source/tokens_to_vectors/make_data.py          # from the repository's root
    python -m source.tokens_to_vectors.make_data          # the same, as a module
"""

import hashlib
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GPT2 = ROOT / "source" / "production_tokenizers" / "gpt2"
CORPUS = HERE / "tinyshakespeare.txt"
OUT = HERE / "tinyshakespeare_gpt2.npy"

# What the notebook's text and the hidden tests take as given.
CORPUS_BYTES = 1_115_394
EXPECTED_IDS = 338_025
SHA256 = {
    CORPUS: "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed",
    GPT2 / "vocab.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    GPT2 / "merges.txt": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
}


def check_inputs() -> None:
    """Raise ``RuntimeError`` unless every input file has its published sha256."""
    for path, expected in SHA256.items():
        found = hashlib.sha256(path.read_bytes()).hexdigest()
        if found != expected:
            raise RuntimeError(f"{path} has sha256 {found}, expected {expected}")


def encode_corpus() -> np.ndarray:
    """The corpus encoded by the GPT-2 reference, as ``uint16``.

    ``encode_ordinary`` treats every character as text: the corpus holds no special token,
    and the IDs must not depend on whether one would be allowed.
    """
    if str(ROOT) not in sys.path:  # run as a script, the repository's root is not on the path
        sys.path.insert(0, str(ROOT))
    from solutions.production_tokenizers import ByteLevelBPE

    gpt2 = ByteLevelBPE.from_files(GPT2 / "vocab.json", GPT2 / "merges.txt")
    text = CORPUS.read_text(encoding="utf-8")
    if len(text.encode("utf-8")) != CORPUS_BYTES:
        raise RuntimeError(f"{CORPUS} is not the {CORPUS_BYTES:,}-byte tinyshakespeare")
    ids = np.asarray(gpt2.encode_ordinary(text), dtype=np.int64)
    if ids.size and ids.max() >= 2**16:  # cannot happen with GPT-2; uint16 would wrap silently
        raise RuntimeError(f"token ID {ids.max()} does not fit in uint16")
    return ids.astype(np.uint16)


def main() -> None:
    check_inputs()
    ids = encode_corpus()
    if ids.size != EXPECTED_IDS:
        raise SystemExit(f"GPT-2 gives {ids.size:,} tokens, expected {EXPECTED_IDS:,}; "
                         f"{OUT.name} was not written")
    np.save(OUT, ids, allow_pickle=False)
    digest = hashlib.sha256(OUT.read_bytes()).hexdigest()
    print(f"wrote {OUT.relative_to(ROOT)}: {ids.size:,} uint16 IDs, sha256 {digest}")


if __name__ == "__main__":
    main()
