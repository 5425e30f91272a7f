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

CORRECT = Path(__file__).parent / "correct"


def rewritten(name: str, description: str, **convention) -> Correct:
    """The reference with the functions that ``correct/<name>.py`` rewrites edited in."""
    return Correct(name, description, code=(CORRECT / f"{name}.py").read_text(encoding="utf-8"),
                   **convention)


CATALOGUE.correct = [
    Correct("reference", "the reference solution flattened into one .py file"),
    rewritten("p1_loops", "Part 1 with loops: a lookup and a one-hot row per ID, padding by "
                          "counting up, the parameters summed from every weight's shape"),
    rewritten("sines_then_cosines", "Part 2 in tensor2tensor's layout: all sines, then all "
                                    "cosines, and a shift matrix pairing column i with i + d/2",
              loses=("part2::test_sinusoidal_layout",), named=("all sines, then all cosines",)),
    rewritten("interleaved_rope", "RoPE pairing adjacent dimensions (GPT-J's rotate_every_two)",
              loses=("part3::test_rope_convention",),
              named=("interleaved pairs (GPT-J style)",)),
    rewritten("bloom_alibi", "ALiBi as BLOOM adds it: slope * j, -inf above the diagonal",
              loses=("part3::test_alibi_exact_form",),
              named=("a constant added to each row",)),
    rewritten("mpt_alibi", "ALiBi as MPT adds it: slope * (j - (T - 1)), float32's most "
                           "negative value above the diagonal",
              loses=("part3::test_alibi_exact_form",),
              named=("a finite mask", "a constant added to each row")),
    rewritten("float32_positions", "the sinusoidal table, the frequencies and RoPE computed "
                                   "in float32 as exp(-ln(base) 2i/d), returned as float32"),
    Correct("notebook_style", "a notebook (.ipynb): checks inline, the papers' notation "
                              "(div_term, torch-style RoPE), demo cells", notebook=True),
]
