"""Regenerate the sample class in ``samples/submitted/`` (what ``make demo`` grades).

    .venv/bin/python samples/make_samples.py

Six students, one per thing the batch must handle::

    alice_correct/tokenization/tokenization.ipynb   the reference solution: full marks
    bob_buggy/tokenization/tokenization.ipynb       plausible bugs in Parts 3, 4 and 6 only
    carol_stub/tokenization/tokenization.ipynb      the release, untouched: scores 0
    dave_script/tokenization/tokenization.py        a .py submission (jupytext-style cells)
    erin_broken/tokenization/tokenization.ipynb     not JSON at all: fails to grade, batch goes on
    frank_empty/tokenization/notes.txt              nothing gradable: a row with an error

Notebooks are built from the release (``assignments/tokenization/tokenization.ipynb``)
with every solution cell filled from the instructor's notebook
(``source/tokenization/tokenization.ipynb``, nbgrader ``### BEGIN/END SOLUTION``
markers removed), matched by nbgrader ``grade_id``. Until those notebooks exist
the samples are ``.py`` files made from the reference solution
(``autograder.sandbox.reference``), and the stub is that source with every
function body replaced by ``raise NotImplementedError``.

Bugs are injected by exact string replacement (``BUGS``; each lists the spellings
of the line in the notebook and in the reference); the replacement must match
exactly once, so a change to the reference that moves the code makes this
script fail loudly instead of silently producing a correct "buggy" sample.
"""

import ast
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.sandbox.reference import reference_without  # noqa: E402

OUT = ROOT / "samples" / "submitted"
ASSIGNMENT = "tokenization"
SOURCE_NB = ROOT / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
RELEASE_NB = ROOT / "assignments" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"

# (part, what the student got wrong, exact text (alternatives), replacement)
BUGS: list[tuple[int, str, tuple[str, ...], str]] = [
    (
        3,
        "ties go to the first pair counted, not the smallest",
        ("best = min(counts, key=lambda pair: (-counts[pair], pair))",),
        "best = max(counts, key=counts.get)",
    ),
    (
        4,
        "count_pairs counts a pair once per word, however often it repeats (aaa)",
        ("for pair in zip(tokens, tokens[1:]):",),
        "for pair in set(zip(tokens, tokens[1:])):",
    ),
    (
        6,
        "Q1 in decimal megabytes instead of MiB",
        (
            "Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / 1024**2, 2)",  # the notebook
            "Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / MIB, 2)",  # the flattened reference
        ),
        "Q1_EMBEDDING_MIB = round(30_000 * 768 * 4 / 1_000_000, 2)",
    ),
]
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def _spelling(source: str, part: int, what: str, olds: tuple[str, ...]) -> str:
    """The one spelling of a bug's line that occurs exactly once in ``source``."""
    for old in olds:
        if source.count(old) == 1:
            return old
    raise SystemExit(f"bug for part {part} ({what}): none of {olds!r} occurs exactly once")


def inject(source: str, bugs: list) -> str:
    for part, what, olds, new in bugs:
        source = source.replace(_spelling(source, part, what, olds), new)
    return source


# --- .py samples from the reference (used until the notebooks exist) -----------------


def stub_source(source: str) -> str:
    """The reference with every function body replaced and every answer set to None."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            doc = ast.get_docstring(node)
            body: list[ast.stmt] = [ast.Expr(ast.Constant(doc))] if doc else []
            body.append(ast.Raise(ast.Call(ast.Name("NotImplementedError"), [], []), None))
            node.body = body
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id.startswith("Q") for t in node.targets
        ):
            node.value = ast.Constant(None)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def as_cells(source: str) -> str:
    """A flat source cut into jupytext ``# %%`` cells, one per top-level def or class."""
    for keyword in ("class ", "def "):
        source = source.replace(f"\n{keyword}", f"\n# %%\n{keyword}")
    return "# %%\n" + source


def script_samples() -> dict[str, tuple[str, str]]:
    reference = reference_without(0)[0] + "\n"
    return {
        "alice_correct": (f"{ASSIGNMENT}.py", reference),
        "bob_buggy": (f"{ASSIGNMENT}.py", inject(reference, BUGS)),
        "carol_stub": (f"{ASSIGNMENT}.py", stub_source(reference)),
        "dave_script": (f"{ASSIGNMENT}.py", as_cells(reference)),
    }


# --- notebook samples from source/ and the release -------------------------------------


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _grade_id(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _strip_markers(source: str) -> str:
    return "\n".join(
        line for line in source.splitlines() if line.strip() not in SOLUTION_MARKERS
    )


def filled_notebook() -> dict:
    """The release notebook with every solution cell taken from the source notebook."""
    release = json.loads(RELEASE_NB.read_text(encoding="utf-8"))
    source = json.loads(SOURCE_NB.read_text(encoding="utf-8"))
    answers = {_grade_id(c): _strip_markers(_text(c)) for c in source["cells"] if _grade_id(c)}
    for cell in release["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and _grade_id(cell) in answers:
            cell["source"] = answers[_grade_id(cell)]
    return release


def inject_notebook(notebook: dict, bugs: list) -> dict:
    notebook = json.loads(json.dumps(notebook))
    code = [c for c in notebook["cells"] if c.get("cell_type") == "code"]
    joined = "\n".join(_text(c) for c in code)
    for part, what, olds, new in bugs:  # each bug must match exactly once across all cells
        old = _spelling(joined, part, what, olds)
        for cell in code:
            cell["source"] = _text(cell).replace(old, new)
    return notebook


def as_script(notebook: dict) -> str:
    cells = [_text(c) for c in notebook["cells"] if c.get("cell_type") == "code"]
    return "".join(f"# %%\n{c.rstrip()}\n\n" for c in cells)


def notebook_samples() -> dict[str, tuple[str, str]]:
    filled = filled_notebook()
    release = json.loads(RELEASE_NB.read_text(encoding="utf-8"))

    def dump(nb: dict) -> str:
        return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"

    return {
        "alice_correct": (f"{ASSIGNMENT}.ipynb", dump(filled)),
        "bob_buggy": (f"{ASSIGNMENT}.ipynb", dump(inject_notebook(filled, BUGS))),
        "carol_stub": (f"{ASSIGNMENT}.ipynb", dump(release)),
        "dave_script": (f"{ASSIGNMENT}.py", as_script(filled)),
    }


def main() -> None:
    use_notebooks = SOURCE_NB.is_file() and RELEASE_NB.is_file()
    samples = notebook_samples() if use_notebooks else script_samples()
    samples["erin_broken"] = (f"{ASSIGNMENT}.ipynb", '{"cells": [{"cell_type": "code", "sou')
    samples["frank_empty"] = ("notes.txt", "I could not get Jupyter to start, sorry!\n")
    if OUT.exists():
        shutil.rmtree(OUT)
    for student, (name, text) in sorted(samples.items()):
        folder = OUT / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / name).write_text(text, encoding="utf-8")
        print(f"wrote {(folder / name).relative_to(ROOT)}")
    print(f"samples built from {'the notebooks' if use_notebooks else 'the reference (.py)'}")


if __name__ == "__main__":
    main()
