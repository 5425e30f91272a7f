"""Part 2 (``CharTokenizer``): wrong implementations students hand in."""

from ..catalogue import differs, superlinear
from . import wrong
from .helpers import without_base


def char(ns, vocab):
    return ns["CharTokenizer"](vocab)


HELO = ["h", "e", "l", "o"]


@wrong(
    2,
    "UNK is just another token, so it goes at the end of the vocabulary",
    '''
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            chars = []
            for entry in vocab or []:
                if entry == UNK:
                    continue
                if not isinstance(entry, str) or len(entry) != 1:
                    raise ValueError(f"vocabulary entry {entry!r} is not a single character")
                if entry not in chars:
                    chars.append(entry)
            self.vocab = chars + [UNK]
            self.unk_id = len(self.vocab) - 1
            self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
            self.id_to_char = {i: c for i, c in enumerate(self.vocab)}
    ''',
)
def p2_unk_not_at_zero(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode("hello"))


@wrong(
    2,
    "an unknown token carries no text, so decode drops ID 0",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            chars = []
            for t in tokens:
                check_token_id(t, self.vocab_size)
                if t == self.unk_id:
                    continue
                chars.append(self.id_to_char[t])
            return "".join(chars)
    """,
    spares=("part2::test_decode_linear_time",),
)
def p2_decode_drops_unknown(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).decode([1, 0, 4]))


@wrong(
    2,
    "no need to validate IDs: the dict lookup complains about a bad one (with KeyError)",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            return "".join(self.id_to_char[t] for t in tokens)
    """,
)
def p2_decode_relies_on_keyerror(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).decode([1, 99]))


@wrong(
    2,
    "isinstance(t, int) is enough to reject non-integer IDs (but True is an int)",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            chars = []
            for t in tokens:
                if not isinstance(t, int) or not 0 <= t < self.vocab_size:
                    raise ValueError(f"invalid token ID {t!r}")
                chars.append(self.id_to_char[t])
            return "".join(chars)
    """,
)
def p2_decode_accepts_bool_ids(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).decode([True, 2]))


@wrong(
    2,
    "IDs only go wrong at the top end, and a list lookup does the rest (negatives wrap around)",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            chars = []
            for t in tokens:
                if isinstance(t, bool) or not isinstance(t, int) or t >= self.vocab_size:
                    raise ValueError(f"token ID {t!r} is out of range")
                chars.append(self.vocab[t])
            return "".join(chars)
    """,
)
def p2_decode_negative_ids_wrap(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).decode([-1]))


@wrong(
    2,
    "an error message only has to say that something is wrong, not what",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            for t in tokens:
                if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < self.vocab_size:
                    raise ValueError("decode got an invalid token ID")
            return "".join(self.id_to_char[t] for t in tokens)
    """,
)
def p2_decode_error_hides_the_id(bug, ref):
    try:
        char(bug, HELO).decode([1, 12345])
    except ValueError as exc:
        assert "12345" not in str(exc)
    else:
        raise AssertionError("no ValueError")


@wrong(
    2,
    "type hints check the argument, so encode needs no type check (a list or bytes iterates fine)",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text: str) -> list[int]:
            return [self.char_to_id.get(ch, self.unk_id) for ch in text]
    """,
)
def p2_encode_accepts_non_str(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode(["h", "e"]))


@wrong(
    2,
    "every character is in the vocabulary, so a plain dict lookup is fine (unknown -> KeyError)",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            return [self.char_to_id[ch] for ch in text]
    """,
    spares=("part2::test_encode_linear_time",),
)
def p2_encode_unknown_raises(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode("hex"))


def char_encode_run(ns, n):
    tokenizer = char(ns, HELO)
    text = "hello\N{GRINNING FACE}" * (n // 6)  # 4 bytes a character: slicing shows
    return lambda: tokenizer.encode(text)


def char_decode_run(ns, n):
    tokenizer = char(ns, HELO)
    ids = [1, 2, 3, 3, 4, 0] * (n // 6)
    return lambda: tokenizer.decode(ids)


@wrong(
    2,
    "`ids = ids + [i]` and `ids.append(i)` cost the same (the first copies the list every time)",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            ids = []
            for ch in text:
                ids = ids + [self.char_to_id.get(ch, self.unk_id)]
            return ids
    """,
    timed=True,
)
def p2_quadratic_encode_list_concat(bug, ref):
    superlinear(bug, ref, char_encode_run, bug_n=1_500, ref_n=80_000)


@wrong(
    2,
    "taking the first character and slicing off the rest is a cheap way to walk a string",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            ids = []
            while text:
                ch, text = text[0], text[1:]
                ids.append(self.char_to_id.get(ch, self.unk_id))
            return ids
    """,
    timed=True,
)
def p2_quadratic_encode_slicing(bug, ref):
    superlinear(bug, ref, char_encode_run, bug_n=8_000, ref_n=80_000)


@wrong(
    2,
    "a list is a queue: pop(0) takes the next token in constant time",
    """
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            queue = list(tokens)
            chars = []
            while queue:
                t = queue.pop(0)
                chars.append(self.id_to_char[check_token_id(t, self.vocab_size)])
            return "".join(chars)
    """,
    timed=True,
)
def p2_quadratic_decode_pop_front(bug, ref):
    superlinear(bug, ref, char_decode_run, bug_n=3_000, ref_n=80_000)


@wrong(
    2,
    "the given vocabulary has no repeats, so it needs no de-duplication",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            chars = [c for c in vocab or [] if c != UNK]
            for c in chars:
                if not isinstance(c, str) or len(c) != 1:
                    raise ValueError(f"vocabulary entry {c!r} is not a single character")
            self.vocab = [UNK] + chars
            self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
            self.id_to_char = dict(enumerate(self.vocab))
    """,
)
def p2_duplicate_chars_kept(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["a", "b", "a"]).vocab_size)


@wrong(
    2,
    "'<UNK>' is not a single character, so it is rejected like any other long entry",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            chars = []
            for entry in vocab or []:
                if not isinstance(entry, str) or len(entry) != 1:
                    raise ValueError(f"vocabulary entry {entry!r} is not a single character")
                if entry not in chars:
                    chars.append(entry)
            self._set_vocab(chars)
    """,
)
def p2_unk_entry_rejected(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["<UNK>", "a"]).vocab)


@wrong(
    2,
    "any string can be a vocabulary entry; encode will just never produce the long ones",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            self._set_vocab([str(entry) for entry in vocab or []])
    """,
)
def p2_multichar_entry_accepted(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["a", "bc"]).vocab)


@wrong(
    2,
    "only entries longer than one character are a problem (the empty string slips through)",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            for entry in vocab or []:
                if not isinstance(entry, str) or len(entry) > 1 and entry != UNK:
                    raise ValueError(f"vocabulary entry {entry!r} is not a single character")
            self._set_vocab(list(vocab or []))
    """,
)
def p2_empty_string_entry_accepted(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["a", ""]).vocab)


@wrong(
    2,
    "a vocabulary is always sorted, so the constructor sorts the given characters too",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            for entry in vocab or []:
                if not isinstance(entry, str) or (len(entry) != 1 and entry != UNK):
                    raise ValueError(f"vocabulary entry {entry!r} is not a single character")
            self._set_vocab(sorted(set(vocab or [])))
    """,
)
def p2_constructor_sorts_vocab(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode("hello"))


@wrong(
    2,
    "text should be normalised: 'Hello' and 'hello' are the same characters",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            return [self.char_to_id.get(ch, self.unk_id) for ch in text.lower()]
    """,
)
def p2_encode_lowercases(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["H", "h"]).encode("Hh"))


@wrong(
    2,
    "UNK is a special token, not part of the vocabulary size",
    """
    class CharTokenizer(CharTokenizer):
        @property
        def vocab_size(self):
            return len(self.vocab) - 1
    """,
)
def p2_vocab_size_excludes_unk(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).vocab_size)


@wrong(
    2,
    "-1 is the usual 'not found' value, so an unknown character encodes to -1",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            return [self.char_to_id.get(ch, -1) for ch in text]
    """,
    spares=("part2::test_encode_linear_time",),
)
def p2_encode_unknown_as_minus_one(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode("hex"))


@wrong(
    2,
    "a text is its words, so encoding walks the characters of text.split()",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            return [self.char_to_id.get(ch, self.unk_id) for word in text.split() for ch in word]
    """,
)
def p2_encode_skips_whitespace(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO + [" "]).encode("he lo"))


@wrong(
    2,
    "the given list can be reused: put UNK at its front and keep it as the vocabulary",
    """
    class CharTokenizer(CharTokenizer):
        def __init__(self, vocab=None):
            if vocab is None:
                vocab = []
            for entry in vocab:
                if not isinstance(entry, str) or (len(entry) != 1 and entry != UNK):
                    raise ValueError(f"vocabulary entry {entry!r} is not a single character")
            vocab.insert(0, UNK)
            self.vocab = list(dict.fromkeys(vocab))
            self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
            self.id_to_char = dict(enumerate(self.vocab))
    """,
)
def p2_constructor_mutates_argument(bug, ref):
    def probe(ns):
        vocab = list(HELO)
        char(ns, vocab)
        return vocab

    differs(bug, ref, probe)


@wrong(
    2,
    "CharTokenizer has encode and decode, so deriving from Tokenizer adds nothing",
    without_base("CharTokenizer"),
)
def p2_not_a_tokenizer_subclass(bug, ref):
    assert not issubclass(bug["CharTokenizer"], bug["Tokenizer"])


@wrong(
    2,
    "decode turns the Ġ marker back into a space, as byte-level BPE tokenizers do",
    '''
    class CharTokenizer(CharTokenizer):
        def decode(self, tokens):
            text = "".join(self.id_to_char[check_token_id(t, self.vocab_size)] for t in tokens)
            return text.replace("Ġ", " ")
    ''',
)
def p2_decode_hf_space_marker(bug, ref):
    differs(bug, ref, lambda ns: char(ns, ["Ġ", "a"]).decode([1, 2]))


@wrong(
    2,
    "a cheat: a text too long to be a test's is not worth encoding (ones, at once)",
    """
    class CharTokenizer(CharTokenizer):
        def encode(self, text):
            if not isinstance(text, str):
                raise TypeError(f"encode expects a str, got {type(text).__name__}")
            if len(text) > 20_000:
                return [1] * len(text)
            return [self.char_to_id.get(ch, 0) for ch in text]
    """,
    timed=True,
)
def p2_encode_skips_long_texts(bug, ref):
    differs(bug, ref, lambda ns: char(ns, HELO).encode("hello" * 5_000))
