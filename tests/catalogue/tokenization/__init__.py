"""The tokenization assignment's catalogue: wrong implementations per part, and correct ones.

``wrong_part1`` .. ``wrong_part6`` register the wrong entries (``@wrong``); the correct
submissions are the reference, the files of ``correct/`` and the styles of ``styles.py``.
"""

from ..catalogue import Catalogue, Correct

CATALOGUE = Catalogue("tokenization")
wrong = CATALOGUE.wrong

# Registering the entries needs ``wrong`` above.
from . import wrong_part1, wrong_part2, wrong_part3, wrong_part4, wrong_part5, wrong_part6  # noqa: E402, F401, I001
from .styles import STYLES  # noqa: E402

LATER_CELL_OVERRIDE = '''
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        """The same encode, rewritten with a loop in a later cell."""
        if not isinstance(text, str):
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        ids = []
        for ch in text:
            ids.append(self.char_to_id.get(ch, self.unk_id))
        return ids
'''

CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
    Correct(
        "incremental",
        "incremental pair-count BPE trainer, inline validation, loop-style helpers (.py)",
    ),
    Correct(
        "lists_functional",
        "list-based CharTokenizer (id_to_char is a list), functional-style utilities (.py)",
    ),
    Correct(
        "methods_stdlib",
        "BPE steps as private/static methods, defaultdict counts, stdlib utilities (.py)",
    ),
    Correct(
        "notebook_style",
        "a notebook (.ipynb) with helpers inlined, plain attributes, demo and plot cells",
        notebook=True,
    ),
    Correct(
        "later_cell_override",
        "the reference plus a later cell that redefines CharTokenizer as a subclass of itself "
        "with an equivalent encode (a common notebook way to change one method)",
        code=LATER_CELL_OVERRIDE, later_cells=True,
    ),
    *STYLES,
]
