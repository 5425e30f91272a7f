"""Build the students' ``preflight.py`` from the grader's own extraction code.

The shipped file is ``preflight.py`` of this package (the student's front end) with each of
its imports from this package (``from .notebook import ...``, ``from .rules import ...``)
replaced by the whole of that module (how the grader reads a notebook, the rules it
applies), under a header saying it is generated. Those modules import the standard library
only, so the file runs wherever Python does. The repository holds the logic once:
``make release`` writes the file into each assignment's release (committed, because a
course server hands students the release folder; ``tests/test_preflight.py`` checks the
committed copy is fresh) and ``make student-bundle`` puts a fresh build in each zip.
``source/NAME/`` holds no copy.

    python -m autograder.extract.ship assignments/NAME [...]   # writes NAME/preflight.py
"""

import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# What students read names no file of the course's repository: they have the release only.
HEADER = ("# Generated from the course grader's own extraction code when the release is made;\n"
          "# do not edit: the staff change the grader and make the release again.\n")


def _without_docstring(source: str) -> list[str]:
    """``source``'s lines after its module docstring."""
    first = ast.parse(source).body[0]
    return source.splitlines(keepends=True)[first.end_lineno:]


def preflight_source() -> str:
    """The text of the students' ``preflight.py``."""
    front = (HERE / "preflight.py").read_text(encoding="utf-8")
    lines = front.splitlines(keepends=True)
    imports = [node for node in ast.parse(front).body
               if isinstance(node, ast.ImportFrom) and node.level == 1]
    out, done = [HEADER], 0
    for node in imports:
        module = (HERE / f"{node.module}.py").read_text(encoding="utf-8")
        out += [*lines[done:node.lineno - 1],
                f"# --- the grader's {node.module}.py ---\n",
                *_without_docstring(module),
                f"# --- end of the grader's {node.module}.py ---\n"]
        done = node.end_lineno
    return "".join([*out, *lines[done:]])


def main(argv: list[str]) -> int:
    text = preflight_source()
    for folder in argv:
        (Path(folder) / "preflight.py").write_text(text, encoding="utf-8")
        print(f"wrote {Path(folder) / 'preflight.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
