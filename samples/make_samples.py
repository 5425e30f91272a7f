"""Regenerate the sample class in ``samples/submitted/`` (what ``make demo`` grades).

    .venv/bin/python samples/make_samples.py

For the tokenization assignment, six students, one per thing the batch must handle::

    alice_correct/tokenization/tokenization.ipynb   the reference solution: full marks
    bob_buggy/tokenization/tokenization.ipynb       plausible bugs in Parts 3, 4 and 6 only
    carol_stub/tokenization/tokenization.ipynb      the release, untouched: scores 0
    dave_script/tokenization/tokenization.py        a .py submission (jupytext-style cells)
    erin_broken/tokenization/tokenization.ipynb     not JSON at all: fails to grade, batch goes on
    frank_empty/tokenization/notes.txt              nothing gradable: a row with an error

For the production-tokenizers assignment, three: ``alice_correct``, ``bob_buggy`` (a
bug in Part 6 only) and ``carol_stub``. For tokens-to-vectors, four: ``alice_correct``,
``bob_buggy`` (bugs in Parts 1 and 3), ``carol_stub`` and ``dave_script`` (a ``.py``).
Every assignment's samples sit beside each other in one ``submitted/`` tree, as nbgrader
collects them.

Notebooks are built from the release (``assignments/NAME/NAME.ipynb``) with every
solution cell filled from the instructor's notebook (``source/NAME/NAME.ipynb``, nbgrader
``### BEGIN/END SOLUTION`` markers removed), matched by nbgrader ``grade_id``.

Bugs are injected by exact string replacement (``BUGS``; each lists the spellings
of the line in the notebook and in the reference); the replacement must match
exactly once, so a change to the reference that moves the code makes this
script fail loudly instead of silently producing a correct "buggy" sample.
"""

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "samples" / "submitted"

# (part, what the student got wrong, exact text (alternatives), replacement)
TOKENIZATION_BUGS: list[tuple[int, str, tuple[str, ...], str]] = [
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
PRODUCTION_BUGS: list[tuple[int, str, tuple[str, ...], str]] = [
    (
        6,
        "prices are per thousand tokens, not per million",
        ("    return (input_tokens * usd_per_million_input + output_tokens * "
         "usd_per_million_output) / 1_000_000",),
        "    return (input_tokens * usd_per_million_input + output_tokens * "
        "usd_per_million_output) / 1_000",
    ),
]
TOKENS_TO_VECTORS_BUGS: list[tuple[int, str, tuple[str, ...], str]] = [
    (
        1,
        "padded_vocab_size adds a block even to an exact multiple",
        ("return -(-vocab_size // multiple) * multiple",),
        "return (vocab_size // multiple + 1) * multiple",
    ),
    (
        3,
        "rotate_half negates the wrong half (every position turns backwards)",
        ("return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)",),
        "return np.concatenate([x[..., half:], -x[..., :half]], axis=-1)",
    ),
]
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def _spelling(source: str, part: int, what: str, olds: tuple[str, ...]) -> str:
    """The one spelling of a bug's line that occurs exactly once in ``source``."""
    for old in olds:
        if source.count(old) == 1:
            return old
    raise SystemExit(f"bug for part {part} ({what}): none of {olds!r} occurs exactly once")


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


def notebook(folder: str, name: str) -> dict:
    return json.loads((ROOT / folder / name / f"{name}.ipynb").read_text(encoding="utf-8"))


def filled_notebook(name: str) -> dict:
    """The release notebook with every solution cell taken from the source notebook."""
    release, source = notebook("assignments", name), notebook("source", name)
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
    """The code cells as a ``py:percent`` file; IPython lines commented out, as jupytext does."""
    cells = ["\n".join(f"# {line}" if line.lstrip().startswith(("%", "!")) else line
                       for line in _text(c).splitlines())
             for c in notebook["cells"] if c.get("cell_type") == "code"]
    return "".join(f"# %%\n{c.rstrip()}\n\n" for c in cells)


def dump(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def notebook_samples(name: str, bugs: list) -> dict[str, tuple[str, str]]:
    filled = filled_notebook(name)
    return {
        "alice_correct": (f"{name}.ipynb", dump(filled)),
        "bob_buggy": (f"{name}.ipynb", dump(inject_notebook(filled, bugs))),
        "carol_stub": (f"{name}.ipynb", dump(notebook("assignments", name))),
    }


def tokenization_samples() -> dict[str, tuple[str, str]]:
    name = "tokenization"
    samples = notebook_samples(name, TOKENIZATION_BUGS)
    samples["dave_script"] = (f"{name}.py", as_script(filled_notebook(name)))
    samples["erin_broken"] = (f"{name}.ipynb", '{"cells": [{"cell_type": "code", "sou')
    samples["frank_empty"] = ("notes.txt", "I could not get Jupyter to start, sorry!\n")
    return samples


def tokens_to_vectors_samples() -> dict[str, tuple[str, str]]:
    name = "tokens_to_vectors"
    samples = notebook_samples(name, TOKENS_TO_VECTORS_BUGS)
    samples["dave_script"] = (f"{name}.py", as_script(filled_notebook(name)))
    return samples


def main() -> None:
    classes = {"tokenization": tokenization_samples(),
               "production_tokenizers": notebook_samples("production_tokenizers",
                                                         PRODUCTION_BUGS),
               "tokens_to_vectors": tokens_to_vectors_samples()}
    if OUT.exists():
        shutil.rmtree(OUT)
    for assignment, samples in classes.items():
        for student, (name, text) in sorted(samples.items()):
            folder = OUT / student / assignment
            folder.mkdir(parents=True)
            (folder / name).write_text(text, encoding="utf-8")
            print(f"wrote {(folder / name).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
