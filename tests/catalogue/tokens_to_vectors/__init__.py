"""The tokens-to-vectors assignment's catalogue: wrong implementations per part, and
correct ones (``wrong_part1`` .. ``wrong_part6`` register the wrong entries with ``@wrong``).

The contract names correct alternatives (tensor2tensor's column layout, GPT-J's pairing of
dimensions, BLOOM's and MPT's forms of ALiBi, BPE-dropout with another number of draws):
each scores full marks but for the one test that checks its convention, whose message must
name the convention (``Correct.loses`` and ``Correct.named``).
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


# The one test that sees how many draws BPE-dropout takes, and in which order.
DRAWS = ("part4::test_exact_output_and_draws_for_fixed_seeds",)

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
    rewritten("draw_every_candidate", "BPE-dropout drawing once for every candidate of a "
                                      "round, then using the best candidate's draw",
              loses=DRAWS, named=("another number or order of draws",)),
    rewritten("no_draw_at_p0", "BPE-dropout that skips the draw when p = 0 (nothing can be "
                               "dropped)",
              loses=DRAWS, named=("another number or order of draws",)),
    rewritten("counter_segmentations", "dropout_segmentations returning its Counter (a dict) "
                                       "without wrapping it in dict()"),
    rewritten("float32_positions", "the sinusoidal table, the frequencies and RoPE computed "
                                   "in float32 as exp(-ln(base) 2i/d), returned as float32"),
    Correct("notebook_style", "a notebook (.ipynb): checks inline, the papers' notation "
                              "(div_term, torch-style RoPE, the BPE-dropout authors' loop, "
                              "VQ-VAE's distances, GPT-2's bytes_to_unicode), demo cells",
            notebook=True),
]
