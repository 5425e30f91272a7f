"""Correct implementations written in the styles of real course materials.

Each is the reference with one part written the way another course or library writes it.
Every one must score full marks: none of these styles is a deviation from the spec.

- ``try_except_import``: an optional progress bar, ``try: from tqdm import tqdm`` with a
  fallback, used by Part 4's ``word_frequencies``;
- ``numpy_utilities``: Part 5's statistics computed with numpy;
- ``literal_lowercase_constant``: BPE reads a lowercase module-level constant;
- ``tinytorch_messages``: Part 1's messages worded as TinyTorch's Module 10 words them;
- ``base_class_constants``: the base class holds the special tokens and a helper its
  subclasses use (TinyTorch's design); full marks since the stand-in design keeps the
  student's own ``Tokenizer`` when Parts 2-5 are graded (it lost 32 points before).
"""

from ..catalogue import Correct

STYLES = [
    Correct(
        "try_except_import",
        "an optional tqdm progress bar imported in try/except ImportError, used by Part 4",
        code='''
try:
    from tqdm import tqdm
except ImportError:
    def tqdm(iterable, **kwargs):
        """No progress bar without tqdm: the items as they are."""
        return iterable


def word_frequencies(corpus):
    """How often each str.split() word occurs, with a progress bar when tqdm is there."""
    counts = Counter()
    for text in tqdm(corpus, disable=True):
        counts.update(text.split())
    return counts
''',
    ),
    Correct(
        "numpy_utilities",
        "Part 5's analyze_tokenization computed with numpy arrays",
        code='''
import numpy as np


def analyze_tokenization(texts, tokenizer):
    """Summary statistics, with numpy doing the arithmetic."""
    sequences = [tokenizer.encode(text) for text in texts]
    lengths = np.array([len(ids) for ids in sequences], dtype=np.int64)
    flat = np.array([t for ids in sequences for t in ids], dtype=np.int64)
    total = int(lengths.sum())
    characters = int(np.sum([len(text) for text in texts], dtype=np.int64))
    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": float(total / len(texts)) if texts else 0.0,
        "max_sequence_length": int(lengths.max()) if len(texts) else 0,
        "unique_tokens": int(np.unique(flat).size),
        "compression_ratio": characters / total if total else 0.0,
        "unknown_rate": int(np.count_nonzero(flat == 0)) / total if total else 0.0,
    }
''',
    ),
    Correct(
        "literal_lowercase_constant",
        "BPE's end-of-word token kept in a lowercase module-level constant",
        code='''
end_of_word = " "


class BPETokenizer(BPETokenizer):
    def _get_word_tokens(self, word):
        return list(word) + [end_of_word]
''',
    ),
    Correct(
        "tinytorch_messages",
        "Part 1's NotImplementedError messages worded as TinyTorch's Module 10 words them",
        code='''
class Tokenizer:
    """Base tokenizer class: the interface every tokenizer provides."""

    def encode(self, text):
        raise NotImplementedError(
            f"encode() not implemented in base Tokenizer class\\n"
            f"  Called encode() on abstract base class {self.__class__.__name__}\\n"
            f"  Tokenizer is an interface - use a concrete implementation like "
            f"CharTokenizer or BPETokenizer"
        )

    def decode(self, tokens):
        raise NotImplementedError(
            f"decode() not implemented in base Tokenizer class\\n"
            f"  Called decode() on abstract base class {self.__class__.__name__}\\n"
            f"  Tokenizer is an interface - use a concrete implementation like "
            f"CharTokenizer or BPETokenizer"
        )
''',
    ),
    Correct(
        "base_class_constants",
        "special tokens and an ID check kept on the base class, read by both subclasses",
        code='''
class Tokenizer(Tokenizer):
    TOK_UNKNOWN = "<UNK>"
    TOK_EOW = " "

    def _checked(self, token_id, size):
        """A valid ID for a vocabulary of ``size`` entries, else ValueError."""
        return check_token_id(token_id, size)


class CharTokenizer(CharTokenizer):
    def decode(self, tokens):
        return "".join(self.id_to_char[self._checked(t, self.vocab_size)] for t in tokens)


class BPETokenizer(BPETokenizer):
    def _get_word_tokens(self, word):
        return list(word) + [self.TOK_EOW]
''',
    ),
]
