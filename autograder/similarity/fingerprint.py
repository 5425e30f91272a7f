"""Fingerprints of code and the overlap of two of them, with the ``copydetect`` library.

copydetect does the work: Pygments tokens with every name replaced by ``V``/``F``/``O``,
every string by ``S`` and comments and blank space dropped (``filter_code``), robust
winnowing (``winnow``), the overlap of two fingerprint sets mapped back to the original
text (``compare_files``), and the highlighting of the HTML view (``highlight_overlap``).

One step is ours: the hash of each k-gram. copydetect hashes with Python's ``hash``,
which is salted per process, so winnowing keeps different k-grams on every run and the
scores move by a few points from one run to the next. ``_kgram_hashes`` is a polynomial
hash of the code points, the same on every run and machine. Boilerplate (the released
stub) is removed as copydetect removes it: its fingerprints are dropped from every
document's.
"""

from dataclasses import dataclass

import numpy as np
from copydetect.detector import compare_files
from copydetect.utils import filter_code, get_token_coverage, winnow

# copydetect's defaults: a match must be 25 filtered characters long to count, and any
# match of 30 is found (window 30 - 25 + 1).
K = 25
WINDOW = 6
_BASE = np.uint64(1_000_003)


@dataclass
class Fingerprint:
    """What ``copydetect.detector.compare_files`` reads of a ``CodeFingerprint``."""

    raw_code: str
    filtered_code: str
    offsets: np.ndarray
    hashes: set
    hash_idx: dict
    k: int
    token_coverage: float


def _kgram_hashes(text: str, k: int) -> np.ndarray:
    """A hash of every ``k`` characters of ``text``, the same on every run (int64)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(codes) - k + 1
    if count <= 0:
        return np.array([], dtype=np.int64)
    hashes = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            hashes = hashes * _BASE + codes[j: j + count]
    return hashes.view(np.int64)


def fingerprint(code: str, boilerplate: np.ndarray | None = None) -> Fingerprint:
    """The winnowed fingerprints of Python ``code``, without those of ``boilerplate``."""
    filtered, offsets = filter_code(code, "code.py", "python")
    hashes, idx = winnow(_kgram_hashes(filtered, K), WINDOW, remove_duplicates=False)
    if boilerplate is not None and len(boilerplate) and len(hashes):
        keep = ~np.isin(hashes, boilerplate)
        hashes, idx = hashes[keep], idx[keep]
    hash_idx: dict[int, list[int]] = {}
    for value, index in zip(hashes.tolist(), idx.tolist()):
        hash_idx.setdefault(value, []).append(index)
    return Fingerprint(code, filtered, offsets, set(hash_idx), hash_idx, K,
                       float(get_token_coverage(hash_idx, K, len(filtered))))


def statement_of(fp: Fingerprint, starts: list[int]) -> dict[int, int]:
    """Each fingerprint of ``fp`` -> the statement (index into ``starts``, the statements'
    first characters in ``fp.raw_code``) where it first occurs."""
    found = {}
    for value, positions in fp.hash_idx.items():
        raw = positions[0]
        if len(fp.offsets):  # filtered position -> original position, as copydetect maps
            row = min(int(np.searchsorted(fp.offsets[:, 0], raw)), len(fp.offsets) - 1)
            raw += int(fp.offsets[row, 1])
        found[value] = max(0, int(np.searchsorted(starts, raw, side="right")) - 1)
    return found


def shared_slices(a: Fingerprint, b: Fingerprint) -> tuple[np.ndarray, np.ndarray]:
    """The shared regions of ``a`` and ``b`` in their original text (2 x N: starts, ends),
    by copydetect's ``compare_files``."""
    if not a.hashes or a.hashes.isdisjoint(b.hashes):
        return np.zeros((2, 0), dtype=int), np.zeros((2, 0), dtype=int)
    _, _, (slices_a, slices_b) = compare_files(a, b)
    return slices_a, slices_b
