"""Generate a class for timing ``python -m autograder similarity`` (300 students, say).

``python -m tests.similarity_class ASSIGNMENT N OUT`` writes ``OUT/<student>/ASSIGNMENT/
ASSIGNMENT.py`` for N students. Each student takes every part from one of the
catalogue's independent implementations (the reference and ``correct/``), chosen by a
seeded random generator, keeps every helper those need, and shuffles and disguises the
result (``similarity_disguise``). So pairs range from nothing in common to whole parts
in common, as in a real class with copies in it.
"""

import ast
import random
import sys
from pathlib import Path

from autograder.assignment import load
from tests.catalogue.catalogue import reference_source
from tests.similarity_disguise import disguise


def implementations(name: str) -> list[list[ast.stmt]]:
    folder = Path(__file__).parent / "catalogue" / name / "correct"
    sources = [reference_source(load(name))]
    sources += [p.read_text() for p in sorted(folder.glob("[a-z]*.py"))]
    return [ast.parse(source).body for source in sources]


def student(name: str, seed: int, impls: list[list[ast.stmt]]) -> str:
    assignment = load(name)
    rng = random.Random(seed)
    body: list[ast.stmt] = []
    for part in sorted(assignment.parts):
        names = set(assignment.names_of(part))
        options = [impl for impl in impls
                   if any(getattr(n, "name", None) in names for n in impl)]
        chosen = rng.choice(options) if options else []
        body += [n for n in chosen if getattr(n, "name", None) in names]
    helpers = [n for impl in impls for n in impl
               if getattr(n, "name", None) not in assignment.part_of]
    rng.shuffle(body)
    module = ast.Module(body=helpers + body, type_ignores=[])
    keep = set(assignment.part_of) | set(assignment.shared_names)
    return disguise(ast.unparse(module), keep)


def main(argv: list[str]) -> None:
    name, count, out = argv[0], int(argv[1]), Path(argv[2])
    impls = implementations(name)
    for number in range(count):
        folder = out / f"student{number:03d}" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.py").write_text(student(name, number, impls))


if __name__ == "__main__":
    main(sys.argv[1:])
