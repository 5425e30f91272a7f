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

CORRECT_DIR = Path(__file__).with_name("correct")

CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
    # Parts 1-3 written another way, edited into the reference (Parts 4-6 stay its own).
    *(Correct(path.stem, (path.read_text(encoding="utf-8").split("\n\n")[0]).strip('"'),
              code=path.read_text(encoding="utf-8"))
      for path in sorted(CORRECT_DIR.glob("*.py"))),
]
