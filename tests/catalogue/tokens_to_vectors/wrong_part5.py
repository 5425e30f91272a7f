"""Part 5 (tokens beyond subwords): wrong implementations students hand in.

ByT5's IDs without the end-of-sequence ID, shifted by 2 (as if only pad and end came
first) or taken from code points rather than UTF-8 bytes; a decoder that treats only a
trailing end ID as special, or that drops a cut character where ``errors="replace"`` shows
it; patches taken column by column, flattened channel first, or cut by a plain reshape
(rows of pixels, not squares); codebook codes whose ties go to the largest index, or found
through the ``(N, K, D)`` broadcast (right answers, 1,000 MiB at the graded size: only the
memory test catches it, and it is no timing test, so the entry is not ``timed``); GPT-2's
incomplete tokens read as Latin-1, looked for only at a token's end, or listed in the
vocabulary's order (one hidden vocabulary lists its IDs from the largest down); unused IDs
counted only up to the largest ID seen; and the attention factor left unsquared.
"""

import numpy as np

from ..catalogue import differs
from . import wrong
from .helpers import allocates_more, mutated, rounded

BYTES = """
def byte_tokens(text):
    if not isinstance(text, str):
        raise TypeError(f"byte_tokens expects a str, got {type(text).__name__}")
    return [byte + 3 for byte in text.encode("utf-8")] + [1]
"""


@wrong(5, "the byte IDs are the whole sequence: ByT5 adds nothing at the end",
       mutated(BYTES, " + [1]", ""))
def p5_byte_tokens_without_the_end_id(bug, ref):
    differs(bug, ref, lambda ns: ns["byte_tokens"]("hi"))


@wrong(5, "a byte-level model reads characters: each code point plus 3",
       mutated(BYTES, 'byte + 3 for byte in text.encode("utf-8")', "ord(ch) + 3 for ch in text"))
def p5_byte_tokens_code_points(bug, ref):
    differs(bug, ref, lambda ns: ns["byte_tokens"]("é"))


@wrong(5, "two IDs come before the bytes (pad and end), so each byte is shifted by 2",
       mutated(BYTES, "byte + 3", "byte + 2"))
def p5_byte_tokens_offset_two(bug, ref):
    differs(bug, ref, lambda ns: ns["byte_tokens"]("hi"))


DETOKENIZE = """
def byte_detokenize(ids):
    for token in ids:
        if isinstance(token, bool) or not isinstance(token, (int, np.integer)) or not (
                0 <= token <= 258):
            raise ValueError(f"a ByT5 ID is an int in 0-258, got {token!r}")
    data = bytes(int(token) - 3 for token in ids if token >= 3)
    return data.decode("utf-8", errors="replace")
"""


@wrong(5, "only the end-of-sequence ID at the end is special; the rest are bytes",
       mutated(DETOKENIZE, "data = bytes(int(token) - 3 for token in ids if token >= 3)",
               "if ids and ids[-1] == 1:\n        ids = ids[:-1]\n"
               "    data = bytes(int(token) - 3 for token in ids)"))
def p5_byte_detokenize_keeps_special_ids(bug, ref):
    differs(bug, ref, lambda ns: ns["byte_detokenize"]([0, 0, 110, 107, 1]))


@wrong(5, "a character cut in half is noise: it is left out of the text",
       mutated(DETOKENIZE, 'errors="replace"', 'errors="ignore"'))
def p5_byte_detokenize_ignores_cut_characters(bug, ref):
    differs(bug, ref, lambda ns: ns["byte_detokenize"]([3 + "é".encode()[0]]))


PATCHIFY = """
def patchify(image, patch):
    image = np.asarray(image)
    patch = check_size(patch, "patch")
    if image.ndim != 3:
        raise ValueError(f"an image has shape (H, W, C), got shape {image.shape}")
    height, width, channels = image.shape
    if height % patch or width % patch:
        raise ValueError(f"a patch of {patch} does not divide {height} x {width}")
    rows, cols = height // patch, width // patch
    blocks = image.reshape(rows, patch, cols, patch, channels).transpose(0, 2, 1, 3, 4)
    return blocks.reshape(rows * cols, patch * patch * channels)
"""


def patches(ns, shape=(4, 6, 2), patch=2):
    image = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    return rounded(ns["patchify"](image, patch))


@wrong(5, "patches are numbered down the columns of the grid",
       mutated(PATCHIFY, "transpose(0, 2, 1, 3, 4)", "transpose(2, 0, 1, 3, 4)"))
def p5_patchify_column_major(bug, ref):
    differs(bug, ref, patches)


@wrong(5, "a patch is flattened channel by channel, as torch's (C, H, W) images are",
       mutated(PATCHIFY, "transpose(0, 2, 1, 3, 4)", "transpose(0, 2, 4, 1, 3)"))
def p5_patchify_channels_first(bug, ref):
    differs(bug, ref, patches)


@wrong(5, "a reshape to (number of patches, patch * patch * C) cuts the image into patches",
       mutated(PATCHIFY, "blocks = image.reshape(rows, patch, cols, patch, channels)"
                         ".transpose(0, 2, 1, 3, 4)\n    return blocks.reshape",
               "return image.reshape"))
def p5_patchify_plain_reshape(bug, ref):
    differs(bug, ref, patches)


@wrong(5, "the nearest code is a broadcast away: vectors[:, None] - codebook[None]",
       """
def vq_tokenize(vectors, codebook):
    vectors = np.asarray(vectors, dtype=np.float64)
    codebook = np.asarray(codebook, dtype=np.float64)
    if vectors.ndim != 2 or codebook.ndim != 2 or vectors.shape[1] != codebook.shape[1]:
        raise ValueError(f"shapes {vectors.shape} and {codebook.shape} do not fit")
    if len(codebook) == 0:
        raise ValueError("the codebook is empty")
    differences = vectors[:, None, :] - codebook[None, :, :]
    return np.argmin((differences ** 2).sum(axis=-1), axis=1)
""")
def p5_vq_tokenize_broadcasts(bug, ref):
    n, k, d = 200, 128, 32
    generator = np.random.default_rng(5)
    vectors, codebook = generator.normal(size=(n, d)), generator.normal(size=(k, d))
    allocates_more(bug, ref, lambda ns: ns["vq_tokenize"](vectors, codebook),
                   at_least=n * k * d * 8)


@wrong(5, "a running minimum kept with <=: equal distances go to the later code",
       """
def vq_tokenize(vectors, codebook):
    vectors = np.asarray(vectors, dtype=np.float64)
    codebook = np.asarray(codebook, dtype=np.float64)
    if vectors.ndim != 2 or codebook.ndim != 2 or vectors.shape[1] != codebook.shape[1]:
        raise ValueError(f"shapes {vectors.shape} and {codebook.shape} do not fit")
    if len(codebook) == 0:
        raise ValueError("the codebook is empty")
    best = np.full(len(vectors), np.inf)
    nearest = np.zeros(len(vectors), dtype=np.int64)
    for index, code in enumerate(codebook):
        distance = ((vectors - code) ** 2).sum(axis=1)
        closer = distance <= best
        best[closer] = distance[closer]
        nearest[closer] = index
    return nearest
""")
def p5_vq_tokenize_ties_to_the_largest_index(bug, ref):
    book = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])  # all three at distance 1
    differs(bug, ref, lambda ns: ns["vq_tokenize"](np.zeros((1, 2)), book).tolist())


INCOMPLETE = """
def incomplete_utf8_tokens(vocab):
    decoder = gpt2_byte_decoder()
    broken = []
    for token, token_id in vocab.items():
        data = bytes(decoder[ch] for ch in token)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            broken.append(token_id)
    return sorted(broken)
"""


@wrong(5, "GPT-2's token strings are Latin-1: encoding them gives the bytes back",
       mutated(INCOMPLETE, "data = bytes(decoder[ch] for ch in token)",
               'data = token.encode("latin-1", errors="ignore")'))
def p5_incomplete_tokens_read_as_latin1(bug, ref):
    # GPT-2 writes the bytes of "’" (e2 80 99) as "âĢĻ": Latin-1 cannot encode Ģ and Ļ,
    # so the entry is left with e2 alone and calls a whole character incomplete.
    differs(bug, ref, lambda ns: ns["incomplete_utf8_tokens"]({"âĢĻ": 0, "a": 1}))


@wrong(5, "a token is incomplete when its last character is cut off",
       """
def incomplete_utf8_tokens(vocab):
    decoder = gpt2_byte_decoder()
    broken = []
    for token, token_id in vocab.items():
        data = bytes(decoder[ch] for ch in token)
        # walk back to the byte that starts the last character
        start = len(data) - 1
        while start > 0 and 0x80 <= data[start] < 0xC0:
            start -= 1
        lead = data[start] if data else 0
        length = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if len(data) - start < length:
            broken.append(token_id)
    return sorted(broken)
""")
def p5_incomplete_tokens_only_cut_at_the_end(bug, ref):
    # "Ļ" is the byte 0x99 alone, the tail of "’": no character starts in it.
    differs(bug, ref, lambda ns: ns["incomplete_utf8_tokens"]({"Ļ": 0, "a": 1}))


@wrong(5, "the IDs come out in the vocabulary's order, which is already sorted",
       mutated(INCOMPLETE, "return sorted(broken)", "return broken"))
def p5_incomplete_tokens_in_vocabulary_order(bug, ref):
    differs(bug, ref, lambda ns: ns["incomplete_utf8_tokens"]({"Ã": 2, "a": 0, "ð": 1}))


@wrong(5, "np.bincount counts every ID: the zeros are the unused ones",
       """
def unused_tokens(ids, vocab_size):
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = np.asarray(ids).reshape(-1)
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError(f"token IDs must be ints in [0, {vocab_size})")
    return np.flatnonzero(np.bincount(ids.astype(np.int64)) == 0)
""")
def p5_unused_tokens_stop_at_the_largest_id(bug, ref):
    differs(bug, ref, lambda ns: ns["unused_tokens"](np.array([0, 2, 2, 5]), 7).tolist())


@wrong(5, "a byte-level model pays for its extra tokens once, not squared",
       """
Q_BYTE_LEVEL_ATTENTION_FACTOR = 1_115_394 / 338_025
""")
def p5_attention_factor_not_squared(bug, ref):
    differs(bug, ref, lambda ns: round(ns["Q_BYTE_LEVEL_ATTENTION_FACTOR"], 3))
