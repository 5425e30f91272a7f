"""Part 2 (and the Part 4 ``build_vocab``): a character-level tokenizer.

Every character is one token. The vocabulary is ``[UNK]`` followed by the
characters, so ID 0 is always the unknown token and any character outside the
vocabulary encodes to 0.
"""

from .base import UNK, Tokenizer, check_token_id


class CharTokenizer(Tokenizer):
    """One token per character; unknown characters map to ``UNK`` (ID 0)."""

    unk_id = 0

    def __init__(self, vocab: list[str] | None = None) -> None:
        chars = []
        for entry in vocab or []:
            if not isinstance(entry, str) or (len(entry) != 1 and entry != UNK):
                raise ValueError(f"vocabulary entry {entry!r} is not a single character")
            chars.append(entry)
        self._set_vocab(chars)

    @property
    def vocab_size(self) -> int:
        """Number of tokens, ``UNK`` included."""
        return len(self.vocab)

    def _set_vocab(self, chars: list[str]) -> None:
        """Install ``[UNK] + chars`` (first occurrence kept) and rebuild both mappings."""
        # dict.fromkeys keeps the first occurrence of each character, in order.
        unique = [c for c in dict.fromkeys(chars) if c != UNK]
        self.vocab = [UNK] + unique
        self.char_to_id = {token: i for i, token in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))

    def build_vocab(self, corpus: list[str]) -> None:
        """Part 4: replace the vocabulary with every character seen in ``corpus``, sorted."""
        self._set_vocab(sorted({ch for text in corpus for ch in text}))

    def encode(self, text: str) -> list[int]:
        """One ID per character of ``text``; unknown characters give 0."""
        if not isinstance(text, str):
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        return [self.char_to_id.get(ch, self.unk_id) for ch in text]

    def decode(self, tokens: list[int]) -> str:
        """Concatenate the characters; ID 0 becomes the text ``<UNK>``."""
        return "".join(self.id_to_char[check_token_id(t, self.vocab_size)] for t in tokens)
