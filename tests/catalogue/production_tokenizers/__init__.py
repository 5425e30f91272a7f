"""The production-tokenizers assignment's catalogue: wrong implementations per part, and
correct ones (``wrong_part1`` .. ``wrong_part6`` register the wrong entries with ``@wrong``)."""

import importlib
from pathlib import Path

from ..catalogue import Catalogue, Correct

CATALOGUE = Catalogue("production_tokenizers")
wrong = CATALOGUE.wrong

# Registering the entries needs ``wrong`` above; the part modules land one by one.
for _module in sorted(Path(__file__).parent.glob("wrong_part*.py")):
    importlib.import_module(f"{__name__}.{_module.stem}")

CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
]
