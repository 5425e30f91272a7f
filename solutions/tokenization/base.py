"""Part 1: the contract every tokenizer in this module follows.

A tokenizer is two inverse functions: ``encode`` turns text into a list of integer
IDs (what a model actually sees) and ``decode`` turns IDs back into text. The base
class only fixes that contract; subclasses decide what a token is.

The two shared symbols live here too: ``UNK`` (always ID 0) and ``EOW``, the
end-of-word symbol BPE appends to every word.
"""

UNK = "<UNK>"
EOW = " "


class Tokenizer:
    """Abstract tokenizer: subclasses implement ``encode`` and ``decode``."""

    def encode(self, text: str) -> list[int]:
        """Turn ``text`` into token IDs. Subclasses must override this."""
        raise NotImplementedError(
            f"{type(self).__name__}.encode: a subclass must implement encode(text) "
            "and return the list of token IDs for the text"
        )

    def decode(self, tokens: list[int]) -> str:
        """Turn token IDs back into text. Subclasses must override this."""
        raise NotImplementedError(
            f"{type(self).__name__}.decode: a subclass must implement decode(tokens) "
            "and return the text those token IDs stand for"
        )


def check_token_id(token_id: object, vocab_size: int) -> int:
    """Return ``token_id`` if it is a valid ID for a vocabulary of ``vocab_size``.

    ``bool`` is rejected although it is a subclass of ``int``: ``True`` is
    almost always a bug, not token 1.
    """
    if isinstance(token_id, bool) or not isinstance(token_id, int):
        raise ValueError(f"token ID {token_id!r} is not an int")
    if not 0 <= token_id < vocab_size:
        raise ValueError(f"token ID {token_id} is outside [0, {vocab_size})")
    return token_id
