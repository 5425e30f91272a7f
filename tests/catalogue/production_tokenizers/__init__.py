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

CORRECT = Path(__file__).parent / "correct"


def rewritten(name: str, description: str) -> Correct:
    """The reference with the parts that ``correct/<name>.py`` rewrites edited in."""
    return Correct(name, description, code=(CORRECT / f"{name}.py").read_text(encoding="utf-8"))


CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
    rewritten("stdlib_scanner", "Parts 1-3: hand-written pre-tokenizer over unicodedata, "
                                "encoder.py's merge loop, decoder list, count-bucket trainer"),
    rewritten("byte_ranks", "Parts 1-3: regex pre-tokenizer, tiktoken-style merges on bytes, "
                            "heap trainer that recounts the touched words"),
    rewritten("sorted_queue", "Parts 1-3: \\p{White_Space} pattern, ranks keyed by text, "
                              "str.find for specials, bisect-sorted priority queue trainer"),
    rewritten("p46_trie_integers", "Parts 4-6: WordPiece tries, integer score comparisons, "
                                   "forward Viterbi on a trie, array for train.bin"),
    rewritten("p46_functional", "Parts 4-6: groupby pre-tokenizer, recursive WordPiece, float "
                                "scores, memoised top-down Unigram, struct for train.bin"),
    rewritten("p46_lattice_numpy", "Parts 4-6: incremental WordPiece trainer, a Lattice class, "
                                   "numpy for the costs and train.bin"),
    rewritten("p6_other_strings", "Part 6: tokens counted word by word, of stripped texts, "
                                  "of a locale's joined items"),
]
