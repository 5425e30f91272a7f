"""The toy assignment's reference solution."""

from .loud import Shouter, loudest
from .words import SEPARATOR, count_words

__all__ = ["SEPARATOR", "Shouter", "count_words", "loudest"]
