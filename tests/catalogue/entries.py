"""Every catalogue entry, in part order (importing the part modules registers them)."""

from . import wrong_part1, wrong_part2, wrong_part3, wrong_part4, wrong_part5, wrong_part6  # noqa: F401
from .catalogue import ENTRIES

__all__ = ["ENTRIES"]
