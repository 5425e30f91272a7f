"""Part 5: tokens that are not subwords, and tokens a model never sees.

Bytes as tokens (ByT5: each UTF-8 byte plus 3, after the pad, end and unknown IDs), image
patches as tokens (ViT: a 224 x 224 x 3 image in 16 x 16 patches is 196 tokens of 768
values), codebook codes as tokens (VQ-VAE, VQ-GAN: the index of the nearest codebook row),
and two facts about GPT-2's vocabulary: the tokens whose bytes are not valid UTF-8 on
their own, and the tokens a corpus never uses (the glitch tokens' story).

Left out: ByT5's sentinel IDs, patch embeddings (a linear layer after ``patchify``),
training a codebook, and anything that needs the model's weights.
"""

import numpy as np
from numpy.typing import ArrayLike

from .embedding import check_size

BYTE_OFFSET = 3  # ByT5: 0 pad, 1 end of sequence, 2 unknown, then the 256 bytes
EOS_ID = 1

# Autograded answers on tinyshakespeare (1,115,394 bytes) encoded with GPT-2 (338,025 IDs).
Q_BYTES_PER_GPT2_TOKEN = 1_115_394 / 338_025  # 3.2997 bytes a token
Q_BYTE_LEVEL_ATTENTION_FACTOR = Q_BYTES_PER_GPT2_TOKEN ** 2  # 10.89 times the scores


def byte_tokens(text: str) -> list[int]:
    """ByT5's IDs of ``text``: each UTF-8 byte plus 3, then the end-of-sequence ID 1."""
    if not isinstance(text, str):
        raise TypeError(f"byte_tokens expects a str, got {type(text).__name__}")
    return [byte + BYTE_OFFSET for byte in text.encode("utf-8")] + [EOS_ID]


def byte_detokenize(ids: list[int]) -> str:
    """The text of ByT5 IDs: the special IDs 0-2 are dropped, the rest are bytes plus 3,
    decoded with ``errors="replace"`` (a cut character becomes U+FFFD). ``ValueError`` for
    an ID outside 0-258 or one that is not an int."""
    data = bytearray()
    for token in ids:
        if isinstance(token, bool) or not isinstance(token, (int, np.integer)) or not (
                0 <= token < 256 + BYTE_OFFSET):
            raise ValueError(f"a ByT5 ID is an int in 0-258, got {token!r}")
        if token >= BYTE_OFFSET:
            data.append(int(token) - BYTE_OFFSET)
    return data.decode("utf-8", errors="replace")


def patchify(image: ArrayLike, patch: int) -> np.ndarray:
    """ViT's tokens: ``image`` ``(H, W, C)`` cut into ``patch x patch`` squares, row by row,
    each flattened in (row, column, channel) order: shape ``(H/patch * W/patch,
    patch * patch * C)``. ``ValueError`` unless ``patch`` is a positive int dividing both
    ``H`` and ``W``, and the image has three axes."""
    image = np.asarray(image)
    patch = check_size(patch, "patch")
    if image.ndim != 3:
        raise ValueError(f"an image has shape (H, W, C), got shape {image.shape}")
    height, width, channels = image.shape
    if height % patch or width % patch:
        raise ValueError(f"a patch of {patch} does not divide an image of {height} x {width}")
    rows, cols = height // patch, width // patch
    # (rows, patch, cols, patch, C) -> (rows, cols, patch, patch, C) -> one row per patch
    blocks = image.reshape(rows, patch, cols, patch, channels).transpose(0, 2, 1, 3, 4)
    return blocks.reshape(rows * cols, patch * patch * channels)


def vq_tokenize(vectors: ArrayLike, codebook: ArrayLike) -> np.ndarray:
    """For each row of ``vectors`` ``(N, D)``, the index of the nearest row of ``codebook``
    ``(K, D)`` by squared Euclidean distance, ties to the smallest index (``argmin``).

    Uses ``|x - c|^2 = |x|^2 - 2 x.c + |c|^2``: an ``(N, K)`` array, never the ``(N, K, D)``
    broadcast (at N = 10,000, K = 512, D = 64 that is 2.6 GB against 41 MB). ``|x|^2`` is
    the same for every code of a row, so it is left out of the comparison. ``ValueError``
    for shapes that do not fit."""
    vectors, codebook = np.asarray(vectors, dtype=np.float64), np.asarray(codebook,
                                                                          dtype=np.float64)
    if vectors.ndim != 2 or codebook.ndim != 2 or vectors.shape[1] != codebook.shape[1]:
        raise ValueError(f"vectors (N, D) and codebook (K, D) must share D, got "
                         f"{vectors.shape} and {codebook.shape}")
    if codebook.shape[0] == 0:
        raise ValueError("the codebook is empty")
    distances = (codebook * codebook).sum(axis=1)[None, :] - 2 * vectors @ codebook.T
    return np.argmin(distances, axis=1)


def gpt2_byte_decoder() -> dict[str, int]:
    """GPT-2's published table from its printable characters back to bytes (the inverse of
    ``bytes_to_unicode``): printable Latin-1 bytes stand for themselves, the 68 others are
    ``chr(256)``, ``chr(257)``, ... in increasing order."""
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    moved = [b for b in range(256) if b not in printable]
    table = {chr(b): b for b in printable}
    table.update({chr(256 + n): b for n, b in enumerate(moved)})
    return table


def incomplete_utf8_tokens(vocab: dict[str, int]) -> list[int]:
    """The sorted IDs of a GPT-2 style vocabulary (token text in GPT-2's byte alphabet ->
    ID) whose bytes are not valid UTF-8 on their own: pieces of a character that only
    decode beside their neighbours (GPT-2 has 344)."""
    decoder = gpt2_byte_decoder()
    broken = []
    for token, token_id in vocab.items():
        data = bytes(decoder[ch] for ch in token)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            broken.append(token_id)
    return sorted(broken)


def unused_tokens(ids: ArrayLike, vocab_size: int) -> np.ndarray:
    """The sorted IDs in ``[0, vocab_size)`` that never occur in ``ids`` (a corpus's tokens).
    ``ValueError`` for an ID outside that range."""
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = np.asarray(ids).reshape(-1)
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError(f"token IDs must be ints in [0, {vocab_size})")
    seen = np.bincount(ids.astype(np.int64), minlength=vocab_size)
    return np.flatnonzero(seen == 0)
