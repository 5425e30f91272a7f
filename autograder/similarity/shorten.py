"""``python -m autograder.similarity.shorten FILE COPY``: a large submission with its long
string literals emptied (``documents.shortened_text``), written to ``COPY`` by a child
process under extraction's CPU and memory limits (``extract.set_limits``).

The similarity report reads a whole class in one process. Extraction runs in a limited
child already, but a large file is shortened before it (parsing a 10 MB literal takes
minutes), and that reading is work a hostile file can make long or large too: a notebook
of millions of short damaged outputs took seconds a megabyte to step over, and its cells,
held as dicts, gigabytes. So it happens here; a file this child cannot shorten within the
limits goes to extraction as it is, which refuses it under its own.
"""

import sys
from pathlib import Path

from ..extract import set_limits
from .documents import shortened_text


def main(argv: list[str]) -> int:
    set_limits()
    try:
        text = shortened_text(Path(argv[0]))
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, MemoryError):
        return 1
    Path(argv[1]).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
