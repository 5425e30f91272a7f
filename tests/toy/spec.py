"""The toy assignment's spec for the engine (format: ``autograder/assignment.py``)."""

from pathlib import Path

TITLE = "Toy"
PARTS = {1: "Counting words", 2: "Shouting"}
POINTS = {1: 4, 2: 6}
PART_OF = {"count_words": 1, "Shouter": 2, "loudest": 2}
SHARED_NAMES = ("SEPARATOR",)
REFERENCE = Path(__file__).parent / "reference"
REFERENCE_MODULES = ("words", "loud")
