"""Part 6 (who pays for tokens): wrong implementations and wrong numeric answers.

(About 420 lines: 27 entries, each the whole function a student hands in.)

Fertility and bytes per token, the token premium (per-item means, the wrong reference
locale), the cost of a request, ``train.bin`` (byte order, IDs that do not fit, partial
writes), and the answers measured with GPT-2. Each witness shows the bug on a small input.
"""

import tempfile
from pathlib import Path

from ..catalogue import differs
from . import wrong


def by_char(text):
    return [ord(c) for c in text]


def by_byte(text):
    return list(text.encode("utf-8"))


TEXTS = ["to be", "or not", "", "é", "a  b\tc"]
PARALLEL = {"xx": ["ab", "abcd"], "en": ["abcdef", "a"], "yy": ["a", "abcdefghijklmno"]}


def packed(ns, ids, dtype="uint16", old=b""):
    """``(return value, file bytes)`` of ``pack_tokens``, or the exception and the file."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "train.bin")
        path.write_bytes(old)
        try:
            value = ns["pack_tokens"](list(ids), str(path), dtype)
        except Exception as exc:  # noqa: BLE001 - the outcome is what we compare
            value = type(exc).__name__
        return value, path.read_bytes()


# --- fertility and bytes per token ---------------------------------------------------


@wrong(
    6,
    "words are what split(' ') returns",
    """
    def fertility(texts, encode):
        words = sum(len(text.split(" ")) for text in texts)
        if words == 0:
            raise ValueError("fertility needs at least one word")
        return sum(len(encode(text)) for text in texts) / words
    """,
)
def p6_fertility_split_on_space(bug, ref):
    differs(bug, ref, lambda ns: ns["fertility"](TEXTS, by_char))


@wrong(
    6,
    "fertility is the mean of each text's tokens per word",
    """
    def fertility(texts, encode):
        ratios = [len(encode(text)) / len(text.split()) for text in texts if text.split()]
        if not ratios:
            raise ValueError("fertility needs at least one word")
        return sum(ratios) / len(ratios)
    """,
)
def p6_fertility_mean_of_ratios(bug, ref):
    differs(bug, ref, lambda ns: ns["fertility"](TEXTS, by_char))


@wrong(
    6,
    "with no words there is nothing to report: fertility 0",
    """
    def fertility(texts, encode):
        words = sum(len(text.split()) for text in texts)
        return sum(len(encode(text)) for text in texts) / words if words else 0.0
    """,
)
def p6_fertility_no_words_is_zero(bug, ref):
    differs(bug, ref, lambda ns: ns["fertility"]([""], by_char))


@wrong(
    6,
    "a text's length is its number of bytes",
    """
    def bytes_per_token(texts, encode):
        tokens = sum(len(encode(text)) for text in texts)
        if tokens == 0:
            raise ValueError("bytes_per_token needs at least one token")
        return sum(len(text) for text in texts) / tokens
    """,
)
def p6_bytes_are_characters(bug, ref):
    differs(bug, ref, lambda ns: ns["bytes_per_token"](TEXTS, by_char))


@wrong(
    6,
    "bytes per token is the mean over the texts",
    """
    def bytes_per_token(texts, encode):
        ratios = [len(text.encode("utf-8")) / len(encode(text)) for text in texts if encode(text)]
        if not ratios:
            raise ValueError("bytes_per_token needs at least one token")
        return sum(ratios) / len(ratios)
    """,
)
def p6_bytes_mean_of_ratios(bug, ref):
    differs(bug, ref, lambda ns: ns["bytes_per_token"](["a", "bbbbbbbb"],
                                                       lambda t: [0] * (1 if len(t) < 3 else 4)))


@wrong(
    6,
    "dividing by zero tokens raises an error by itself",
    """
    def bytes_per_token(texts, encode):
        tokens = sum(len(encode(text)) for text in texts)
        return sum(len(text.encode("utf-8")) for text in texts) / tokens
    """,
)
def p6_bytes_zero_division(bug, ref):
    differs(bug, ref, lambda ns: ns["bytes_per_token"]([""], by_char))


# --- token premium ---------------------------------------------------------------------


@wrong(
    6,
    "the premium is the mean of the per-item ratios",
    """
    def token_premium(parallel, encode, reference="en"):
        if reference not in parallel:
            raise ValueError(f"reference locale {reference!r} is not in parallel")
        base = [len(encode(text)) for text in parallel[reference]]
        return {locale: sum(len(encode(t)) / b for t, b in zip(texts, base)) / len(base)
                for locale, texts in parallel.items()}
    """,
)
def p6_premium_mean_of_item_ratios(bug, ref):
    differs(bug, ref, lambda ns: ns["token_premium"](PARALLEL, by_char))


@wrong(
    6,
    "the premium is always against English",
    """
    def token_premium(parallel, encode, reference="en"):
        if "en" not in parallel:
            raise ValueError("the reference locale 'en' is not in parallel")
        base = sum(len(encode(text)) for text in parallel["en"])
        return {locale: sum(len(encode(t)) for t in texts) / base
                for locale, texts in parallel.items()}
    """,
)
def p6_premium_always_english(bug, ref):
    differs(bug, ref, lambda ns: ns["token_premium"](PARALLEL, by_char, "yy"))


@wrong(
    6,
    "the reference locale is the first one in the data",
    """
    def token_premium(parallel, encode, reference="en"):
        if reference not in parallel:
            raise ValueError(f"reference locale {reference!r} is not in parallel")
        totals = {locale: sum(len(encode(t)) for t in texts) for locale, texts in parallel.items()}
        base = totals[next(iter(parallel))]
        return {locale: total / base for locale, total in totals.items()}
    """,
)
def p6_premium_first_locale(bug, ref):
    differs(bug, ref, lambda ns: ns["token_premium"](PARALLEL, by_char))


@wrong(
    6,
    "the premium says how much cheaper English is: reference over locale",
    """
    def token_premium(parallel, encode, reference="en"):
        if reference not in parallel:
            raise ValueError(f"reference locale {reference!r} is not in parallel")
        totals = {locale: sum(len(encode(t)) for t in texts) for locale, texts in parallel.items()}
        return {locale: totals[reference] / total for locale, total in totals.items()}
    """,
)
def p6_premium_inverted(bug, ref):
    differs(bug, ref, lambda ns: ns["token_premium"](PARALLEL, by_char))


@wrong(
    6,
    "a missing locale fails by itself when it is looked up",
    """
    def token_premium(parallel, encode, reference="en"):
        base = sum(len(encode(t)) for t in parallel[reference])
        return {locale: sum(len(encode(t)) for t in texts) / base
                for locale, texts in parallel.items()}
    """,
)
def p6_premium_missing_reference_keyerror(bug, ref):
    differs(bug, ref, lambda ns: ns["token_premium"]({"fr": ["a"]}, by_char))


# --- estimate_cost ----------------------------------------------------------------------


@wrong(
    6,
    "prices are per thousand tokens",
    """
    def estimate_cost(input_tokens, output_tokens, usd_per_million_input, usd_per_million_output):
        return (input_tokens * usd_per_million_input
                + output_tokens * usd_per_million_output) / 1_000
    """,
)
def p6_cost_per_thousand(bug, ref):
    differs(bug, ref, lambda ns: ns["estimate_cost"](1200, 300, 2.5, 10.0))


@wrong(
    6,
    "the input price goes with the output tokens",
    """
    def estimate_cost(input_tokens, output_tokens, usd_per_million_input, usd_per_million_output):
        return (input_tokens * usd_per_million_output
                + output_tokens * usd_per_million_input) / 1_000_000
    """,
)
def p6_cost_swapped_prices(bug, ref):
    differs(bug, ref, lambda ns: ns["estimate_cost"](1200, 300, 2.5, 10.0))


@wrong(
    6,
    "money is rounded to cents",
    """
    def estimate_cost(input_tokens, output_tokens, usd_per_million_input, usd_per_million_output):
        return round((input_tokens * usd_per_million_input
                      + output_tokens * usd_per_million_output) / 1_000_000, 2)
    """,
)
def p6_cost_rounded_to_cents(bug, ref):
    differs(bug, ref, lambda ns: ns["estimate_cost"](1200, 300, 2.5, 10.0))


# --- pack_tokens -------------------------------------------------------------------------


def pack_source(write: str, check: str = "", head: str = "") -> str:
    """A ``pack_tokens`` that validates the dtype, runs ``check`` on each ID, then ``write``s
    (``head``: a statement before it, such as an import)."""
    return f"""
    {head}
    def pack_tokens(ids, path, dtype="uint16"):
        widths = {{"uint16": 2, "uint32": 4}}
        if dtype not in widths:
            raise ValueError(f"dtype must be 'uint16' or 'uint32', got {{dtype!r}}")
        width = widths[dtype]
        for i in ids:
            {check or "pass"}
        {write}
    """


RANGE_CHECK = ("if not 0 <= i < 1 << (8 * width): raise ValueError(f'ID {i} does not fit')")


@wrong(
    6,
    "a binary file is written most significant byte first",
    pack_source("data = b''.join(i.to_bytes(width, 'big') for i in ids)\n"
                "        Path(path).write_bytes(data)\n        return len(data)", RANGE_CHECK),
)
def p6_pack_big_endian(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [1, 258]))


@wrong(
    6,
    "numpy converts the IDs to the file's type",
    pack_source("data = np.asarray(ids, dtype=np.int64).astype('<u2' if width == 2 else '<u4')"
                ".tobytes()\n        Path(path).write_bytes(data)\n        return len(data)",
                head="import numpy as np"),
)
def p6_pack_wraps_around(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [70_000]))


@wrong(
    6,
    "pack_tokens returns how many tokens it wrote",
    pack_source("Path(path).write_bytes(b''.join(i.to_bytes(width, 'little') for i in ids))\n"
                "        return len(ids)", RANGE_CHECK),
)
def p6_pack_returns_token_count(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [1, 2, 3]))


@wrong(
    6,
    "IDs are written one by one, each checked as it comes",
    """
    def pack_tokens(ids, path, dtype="uint16"):
        widths = {"uint16": 2, "uint32": 4}
        if dtype not in widths:
            raise ValueError(f"dtype must be 'uint16' or 'uint32', got {dtype!r}")
        width = widths[dtype]
        with open(path, "wb") as file:
            for i in ids:
                if not 0 <= i < 1 << (8 * width):
                    raise ValueError(f"ID {i} does not fit in {dtype}")
                file.write(i.to_bytes(width, "little"))
        return len(ids) * width
    """,
)
def p6_pack_writes_before_checking(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [1, 70_000], old=b"old"))


@wrong(
    6,
    "train.bin grows: new IDs are appended to the file",
    pack_source("data = b''.join(i.to_bytes(width, 'little') for i in ids)\n"
                "        with open(path, 'ab') as file:\n            file.write(data)\n"
                "        return len(data)", RANGE_CHECK),
)
def p6_pack_appends(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [1], old=b"old"))


@wrong(
    6,
    "struct checks the range by itself",
    """
    import struct


    def pack_tokens(ids, path, dtype="uint16"):
        codes = {"uint16": "H", "uint32": "I"}
        if dtype not in codes:
            raise ValueError(f"dtype must be 'uint16' or 'uint32', got {dtype!r}")
        data = struct.pack(f"<{len(ids)}{codes[dtype]}", *ids)
        Path(path).write_bytes(data)
        return len(data)
    """,
)
def p6_pack_struct_error(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [70_000]))


@wrong(
    6,
    "anything that is not uint32 is written as uint16",
    """
    def pack_tokens(ids, path, dtype="uint16"):
        width = 4 if dtype == "uint32" else 2
        for i in ids:
            if not 0 <= i < 1 << (8 * width):
                raise ValueError(f"ID {i} does not fit in {dtype}")
        data = b"".join(i.to_bytes(width, "little") for i in ids)
        Path(path).write_bytes(data)
        return len(data)
    """,
)
def p6_pack_any_dtype(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [1], "int16"))


@wrong(
    6,
    "uint16 holds IDs up to 65,536",
    pack_source("data = b''.join((i % 65_536 if width == 2 else i).to_bytes(width, 'little')"
                " for i in ids)\n        Path(path).write_bytes(data)\n        return len(data)",
                "if not 0 <= i <= 1 << (8 * width): raise ValueError(f'ID {i} does not fit')"),
)
def p6_pack_limit_off_by_one(bug, ref):
    differs(bug, ref, lambda ns: packed(ns, [65_536]))


# --- the numeric answers -------------------------------------------------------------------


@wrong(6, "train.bin has one byte per token", "SHAKESPEARE_TRAIN_BIN_BYTES = 338_025")
def p6_answer_bin_bytes_per_token(bug, ref):
    assert bug["SHAKESPEARE_TRAIN_BIN_BYTES"] != ref["SHAKESPEARE_TRAIN_BIN_BYTES"]


@wrong(
    6,
    "the corpus is encoded line by line and the counts added up",
    "SHAKESPEARE_GPT2_TOKENS = 298_027",
)
def p6_answer_tokens_per_line(bug, ref):
    assert bug["SHAKESPEARE_GPT2_TOKENS"] != ref["SHAKESPEARE_GPT2_TOKENS"]


@wrong(
    6,
    "the items of a locale are joined into one text before encoding",
    'HIGHEST_PREMIUM_LOCALE = "ta"\nGPT2_PREMIUM_MY = 13.31',
)
def p6_answer_premium_of_joined_text(bug, ref):
    assert bug["HIGHEST_PREMIUM_LOCALE"] != ref["HIGHEST_PREMIUM_LOCALE"]


@wrong(6, "the premium is the mean of per-item ratios", "GPT2_PREMIUM_MY = 11.15")
def p6_answer_premium_mean_of_ratios(bug, ref):
    assert abs(bug["GPT2_PREMIUM_MY"] - ref["GPT2_PREMIUM_MY"]) > 0.01


@wrong(6, "the premium is English over Burmese", "GPT2_PREMIUM_MY = 0.1")
def p6_answer_premium_inverted(bug, ref):
    assert abs(bug["GPT2_PREMIUM_MY"] - ref["GPT2_PREMIUM_MY"]) > 0.01
