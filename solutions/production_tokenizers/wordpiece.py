"""Part 4: BERT's WordPiece tokenizer (inference side).

Follows the tokenizer Google released with BERT (Devlin et al., 2019) as HF ``tokenizers``
runs it with ``pre_tokenizers.BertPreTokenizer`` and ``models.WordPiece``: split on white
space, isolate every punctuation character, then cut each word greedily into the longest
vocabulary pieces from the left, marking every piece after the first with ``##``.

Left out on purpose: BERT's normalizer (lower-casing, accent stripping, spaces around CJK
characters, control-character removal), special tokens such as ``[CLS]``/``[SEP]``, and
offsets. Punctuation and white space follow the running Python's Unicode tables; HF's
tables are older, so the two disagree on a few recent code points (U+2E56, U+11666, ...).
"""

import unicodedata

CONTINUATION = "##"

# The Unicode White_Space property (unchanged since Unicode 6.3). Not ``str.isspace()``:
# that also accepts U+001C-U+001F, which are separators but not White_Space.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def is_bert_punctuation(char: str) -> bool:
    """BERT's punctuation: every non-alphanumeric printable ASCII character, or category P*.

    ASCII 33-47, 58-64, 91-96 and 123-126 include ``$ + < = > ^ ` | ~``, which Unicode
    files under symbols (S*), so the ASCII ranges are checked separately.
    """
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def bert_pretokenize(text: str) -> list[str]:
    """Split on White_Space, then make every punctuation character a word of its own.

    >>> bert_pretokenize("Hello, world!  (x=1)")
    ['Hello', ',', 'world', '!', '(', 'x', '=', '1', ')']
    """
    words: list[str] = []
    current: list[str] = []  # characters of the word being read
    for char in text:
        if char in WHITE_SPACE or is_bert_punctuation(char):
            # A boundary: close the current word; punctuation stands alone, space vanishes.
            if current:
                words.append("".join(current))
                current = []
            if char not in WHITE_SPACE:
                words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


def wordpiece_tokenize(
    word: str,
    vocab: dict[str, int] | set[str],
    unk_token: str = "[UNK]",
    max_input_chars_per_word: int = 100,
) -> list[str]:
    """Greedy longest-match-first segmentation of one word into vocabulary pieces.

    Every piece after the first is looked up with the ``##`` prefix. If no piece matches at
    some position, or the word has more than ``max_input_chars_per_word`` characters, the
    whole word becomes ``[unk_token]`` (never a partial segmentation). HF's default limit is
    100 characters; Google's original BERT code uses 200.

    >>> wordpiece_tokenize("unaffable", {"un": 0, "##aff": 1, "##able": 2})
    ['un', '##aff', '##able']
    """
    if len(word) > max_input_chars_per_word:
        return [unk_token]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        # Try the longest candidate first and shrink it until the vocabulary knows it.
        for end in range(len(word), start, -1):
            candidate = word[start:end] if start == 0 else CONTINUATION + word[start:end]
            if candidate in vocab:
                pieces.append(candidate)
                start = end
                break
        else:
            return [unk_token]  # nothing matches here: the whole word is unknown
    return pieces


class WordPieceTokenizer:
    """Text <-> IDs with BERT's pre-tokenizer and a fixed WordPiece vocabulary."""

    def __init__(
        self,
        vocab: dict[str, int],
        unk_token: str = "[UNK]",
        max_input_chars_per_word: int = 100,
    ) -> None:
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self.max_input_chars_per_word = max_input_chars_per_word
        self.id_to_token = {i: token for token, i in self.vocab.items()}

    def tokenize(self, text: str) -> list[str]:
        """The pieces of ``text``: pre-tokenize, then WordPiece each word."""
        pieces: list[str] = []
        for word in bert_pretokenize(text):
            pieces += wordpiece_tokenize(
                word, self.vocab, self.unk_token, self.max_input_chars_per_word
            )
        return pieces

    def encode(self, text: str) -> list[int]:
        """The IDs of ``tokenize(text)``; ``ValueError`` if ``[UNK]`` is needed but absent."""
        ids = []
        for piece in self.tokenize(text):
            if piece not in self.vocab:  # only the unknown token can be missing
                raise ValueError(f"unk_token {piece!r} is needed but not in the vocabulary")
            ids.append(self.vocab[piece])
        return ids

    def decode(self, ids: list[int]) -> str:
        """Join the pieces with spaces, then glue every ``##`` piece to the one before it.

        Lossy by design: the spaces around punctuation and the original white space are gone.
        """
        tokens = []
        for i in ids:
            if i not in self.id_to_token:
                raise ValueError(f"unknown token ID {i!r}")
            tokens.append(self.id_to_token[i])
        return " ".join(tokens).replace(" " + CONTINUATION, "")
