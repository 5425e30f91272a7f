"""Build the students' ``preflight.py`` from the grader's own extraction code.

The shipped file is ``preflight.py`` of this package (the student's front end) with its
``from .rules import ...`` replaced by the whole of ``rules.py`` (the rules the grader
applies), under a header saying it is generated. The repository holds the logic once:
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
    rules = (HERE / "rules.py").read_text(encoding="utf-8")
    lines = front.splitlines(keepends=True)
    (imported,) = [node for node in ast.parse(front).body
                   if isinstance(node, ast.ImportFrom) and node.module == "rules"]
    inlined = ["# --- the grader's extraction rules ---\n",
               *_without_docstring(rules),
               "# --- end of the grader's extraction rules ---\n"]
    return "".join([HEADER, *lines[:imported.lineno - 1], *inlined,
                    *lines[imported.end_lineno:]])


def main(argv: list[str]) -> int:
    text = preflight_source()
    for folder in argv:
        (Path(folder) / "preflight.py").write_text(text, encoding="utf-8")
        print(f"wrote {Path(folder) / 'preflight.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
