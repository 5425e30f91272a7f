"""The tokens-to-vectors assignment's catalogue: wrong implementations per part, and
correct ones (``wrong_part1`` .. ``wrong_part3`` register the wrong entries with ``@wrong``).

The contract names correct alternatives (tensor2tensor's column layout, GPT-J's pairing of
dimensions, BLOOM's and MPT's forms of ALiBi): each scores full marks but for the one test
that checks its convention, whose message must name the convention (``Correct.loses`` and
``Correct.named``).
"""

import importlib
from pathlib import Path

from ..catalogue import Catalogue, Correct

CATALOGUE = Catalogue("tokens_to_vectors")
wrong = CATALOGUE.wrong

# Registering the entries needs ``wrong`` above.
for _module in sorted(Path(__file__).parent.glob("wrong_part*.py")):
    importlib.import_module(f"{__name__}.{_module.stem}")

CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
]
