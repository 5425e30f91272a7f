"""Part 1 (the ``Tokenizer`` base class): wrong implementations students hand in."""

from ..catalogue import differs
from . import wrong


def base_error(ns, method: str):
    """The exception the base class raises for ``method``: (class name, message)."""
    tokenizer = ns["Tokenizer"]()
    try:
        getattr(tokenizer, method)("text" if method == "encode" else [1, 2])
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__, str(exc)
    return None


@wrong(
    1,
    "an abstract method only needs `raise NotImplementedError`; the message is optional",
    '''
    class Tokenizer:
        """Base class for tokenizers."""

        def encode(self, text):
            raise NotImplementedError

        def decode(self, tokens):
            raise NotImplementedError
    ''',
)
def p1_notimplemented_without_message(bug, ref):
    assert base_error(bug, "encode") == ("NotImplementedError", "")


@wrong(
    1,
    "`NotImplemented` and `NotImplementedError` are the same thing",
    '''
    class Tokenizer:
        """Base class for tokenizers."""

        def encode(self, text):
            raise NotImplemented("subclasses must implement encode(text) -> list[int]")

        def decode(self, tokens):
            raise NotImplemented("subclasses must implement decode(tokens) -> str")
    ''',
)
def p1_raises_notimplemented_constant(bug, ref):
    assert base_error(bug, "encode")[0] == "TypeError"


@wrong(
    1,
    "an abstract method is one with an empty body",
    '''
    class Tokenizer:
        """Base class for tokenizers: subclasses override encode and decode."""

        def encode(self, text):
            """Subclasses turn text into token IDs."""
            pass

        def decode(self, tokens):
            """Subclasses turn token IDs into text."""
            pass
    ''',
)
def p1_abstract_methods_return_none(bug, ref):
    assert base_error(bug, "encode") is None


@wrong(
    1,
    "abstract base classes are made with abc, so the base class cannot even be instantiated",
    '''
    from abc import ABC, abstractmethod

    class Tokenizer(ABC):
        """Base class for tokenizers."""

        @abstractmethod
        def encode(self, text):
            raise NotImplementedError("subclasses must implement encode(text)")

        @abstractmethod
        def decode(self, tokens):
            raise NotImplementedError("subclasses must implement decode(tokens)")
    ''',
)
def p1_abc_base_not_instantiable(bug, ref):
    differs(bug, ref, lambda ns: ns["Tokenizer"]())


@wrong(
    1,
    "decode was copy-pasted from encode and its message still names encode's duty",
    '''
    class Tokenizer:
        """Base class for tokenizers."""

        def encode(self, text):
            raise NotImplementedError(
                "a subclass of Tokenizer must implement encode(text) and return token IDs"
            )

        def decode(self, tokens):
            raise NotImplementedError(
                "a subclass of Tokenizer must implement encode(text) and return token IDs"
            )
    ''',
)
def p1_decode_message_copy_pasted(bug, ref):
    kind, message = base_error(bug, "decode")
    assert kind == "NotImplementedError" and "decode" not in message


@wrong(
    1,
    "the base class should give a harmless default: no text, no tokens",
    '''
    class Tokenizer:
        """Base class for tokenizers; subclasses override encode and decode."""

        def encode(self, text):
            return []

        def decode(self, tokens):
            return ""
    ''',
)
def p1_base_returns_empty_defaults(bug, ref):
    assert base_error(bug, "encode") is None


@wrong(
    1,
    "calling a method that is not there is a type error",
    '''
    class Tokenizer:
        """Base class for tokenizers."""

        def encode(self, text):
            raise TypeError("a subclass must implement encode(text) -> list[int]")

        def decode(self, tokens):
            raise TypeError("a subclass must implement decode(tokens) -> str")
    ''',
)
def p1_raises_type_error(bug, ref):
    assert base_error(bug, "encode")[0] == "TypeError"
