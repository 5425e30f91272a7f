"""``python -m autograder similarity``: copies rank above independent work.

The class is built from the catalogue: the reference and the differently built correct
implementations are independent work; disguised copies of some of them
(``similarity_disguise``) are the copies. Every copy pair must rank above every
independent pair. Also: the untouched stub is near zero against the reference; bad input
(an unreadable notebook, an empty file, a 10 MB string literal, one student) is
reported, never a crash; the toy assignment works as the course's do.
"""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.assignment import REPO, load
from autograder.cli import main
from tests.catalogue.catalogue import reference_source
from tests.course import known
from tests.similarity_disguise import disguise

TOY = Path(__file__).parent / "toy"
COPIED = 3  # how many independent implementations get a disguised copy


def submit(root: Path, student: str, assignment: str, source: str) -> None:
    folder = root / student / assignment
    folder.mkdir(parents=True)
    (folder / f"{assignment}.py").write_text(source)


def run(capsys, *argv: str) -> tuple[list[dict], str]:
    assert main(["similarity", *map(str, argv)]) == 0
    out = Path(argv[argv.index("--out") + 1])
    with open(out / "similarity.csv", encoding="utf-8") as rows:
        return list(csv.DictReader(rows)), capsys.readouterr().out


def independent_sources(name: str) -> dict[str, str]:
    """The reference and the catalogue's differently built correct implementations: the
    whole ones only. A file that is edited into the reference (one function written
    another way) is a fragment of the reference, not a student's independent work."""
    folder = Path(__file__).parent / "catalogue" / name / "correct"
    found = {"reference": reference_source(load(name))}
    found |= {p.stem: text for p in sorted(folder.glob("[a-z]*.py"))
              if "edited into the reference" not in " ".join((text := p.read_text()).split())}
    return found


def keep(name: str) -> set[str]:
    assignment = load(name)
    return set(assignment.part_of) | set(assignment.shared_names)


@pytest.mark.parametrize("name", known())
@pytest.mark.slow
def test_every_disguised_copy_ranks_above_every_independent_pair(name, tmp_path, capsys):
    sources = independent_sources(name)
    for student, source in sources.items():
        submit(tmp_path / "submitted", student, name, source)
    copies = list(sources)[:COPIED]
    for student in copies:
        submit(tmp_path / "submitted", f"copy_of_{student}", name,
               disguise(sources[student], keep(name)))
    rows, printed = run(capsys, tmp_path / "submitted", "--assignment", name,
                        "--out", tmp_path / "out", "--floor", "0")
    scores = {frozenset((r["student_a"], r["student_b_or_source"])): float(r["similarity"])
              for r in rows}
    copied = [scores[frozenset((s, f"copy_of_{s}"))] for s in copies]
    independent = [score for pair, score in scores.items()
                   if not any(frozenset((s, f"copy_of_{s}")) == pair for s in copies)]
    count = len(sources) + len(copies)
    assert len(independent) == count * (count - 1) // 2 - len(copies)
    margin = min(copied) - max(independent)
    print(f"{name}: copies {sorted(copied)}, independent max {max(independent):.3f}, "
          f"margin {margin:.3f}")
    assert margin > 0.2, f"copies {copied} vs independent up to {max(independent)}"
    assert "similar" in printed and "plagiar" not in printed.lower()


@pytest.mark.slow
def test_the_stub_is_near_zero_against_the_reference_because_it_is_boilerplate(tmp_path,
                                                                               capsys):
    """And two known sources, the same file twice, are never compared with each other."""
    for name in ("tokenization", "production_tokenizers"):
        stub = REPO / "assignments" / name / f"{name}.ipynb"
        folder = tmp_path / name / "submitted" / "untouched" / name
        folder.mkdir(parents=True)
        (folder / f"{name}.ipynb").write_bytes(stub.read_bytes())
        (tmp_path / name / "known").mkdir()
        for copy in ("reference.py", "reference_again.py"):  # sources: never compared
            (tmp_path / name / "known" / copy).write_text(reference_source(load(name)))
        (tmp_path / name / "empty.py").write_text("")
        common = [tmp_path / name / "submitted", "--assignment", name, "--against",
                  tmp_path / name / "known", "--floor", "0"]
        rows, _ = run(capsys, *common, "--out", tmp_path / name / "out")
        assert [r["student_a"] for r in rows] == ["untouched"] * 2, rows
        assert all(float(r["similarity"]) < 0.05 for r in rows), rows
        # Without the stub as boilerplate, the given code alone makes them look alike.
        rows, _ = run(capsys, *common, "--stub", tmp_path / name / "empty.py", "--out",
                      tmp_path / name / "no-stub")
        assert float(rows[0]["similarity"]) > 0.2, rows


def test_bad_input_is_reported_and_the_rest_is_compared(tmp_path, capsys):
    name = "tokenization"
    source = independent_sources(name)["incremental"]
    root = tmp_path / "submitted"
    submit(root, "original", name, source)
    huge = 'NOTES = "' + "x" * 10_000_000 + '"\n'
    submit(root, "with_huge_literal", name, huge + disguise(source, keep(name)))
    submit(root, "empty", name, "")
    (root / "broken" / name).mkdir(parents=True)
    (root / "broken" / name / f"{name}.ipynb").write_text("{ not a notebook")
    rows, printed = run(capsys, root, "--assignment", name, "--out", tmp_path / "out")
    assert [(r["student_a"], r["student_b_or_source"]) for r in rows] == [
        ("original", "with_huge_literal")]
    page = (tmp_path / "out" / "similarity.html").read_text()
    assert "broken: not compared, unreadable" in page
    assert "empty: not compared, no code kept" in page
    assert "x" * 2000 not in (tmp_path / "out" / "similarity-pairs" / "00001.html").read_text()


def test_one_student_gives_an_empty_report_and_a_second_run_keeps_the_first(tmp_path, capsys):
    name = "tokenization"
    submit(tmp_path / "submitted", "alone", name, independent_sources(name)["incremental"])
    argv = [tmp_path / "submitted", "--assignment", name, "--out", tmp_path / "out"]
    rows, printed = run(capsys, *argv)
    assert rows == [] and "No pair is above the floor" in printed
    (tmp_path / "out" / "similarity.csv").write_text("the TA's notes\n")
    run(capsys, *argv)
    assert (tmp_path / "out" / "previous-1" / "similarity.csv").read_text() == "the TA's notes\n"


TOY_STUB = '''
SEPARATOR = " "


def count_words(text):
    """How often each word occurs."""
    # YOUR CODE HERE
    raise NotImplementedError()


class Shouter:
    """Upper-cases words."""

    def __init__(self, marks=1):
        # YOUR CODE HERE
        raise NotImplementedError()

    def shout(self, word):
        # YOUR CODE HERE
        raise NotImplementedError()


def loudest(text):
    """The most frequent word, shouted."""
    # YOUR CODE HERE
    raise NotImplementedError()
'''

TOY_OTHER = '''
import collections

SEPARATOR = " "


def count_words(text):
    if type(text) is not str:
        raise TypeError("text must be a str")
    return dict(collections.Counter(w for w in text.split(SEPARATOR) if w != ""))


class Shouter:
    def __init__(self, marks=1):
        self.marks = marks

    def shout(self, word):
        return f"{word.upper()}{'!' * self.marks}"


def loudest(text):
    counts = count_words(text)
    if len(counts) == 0:
        raise ValueError("empty text")
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[0][0]
    return Shouter().shout(top)
'''


def test_toy_assignment_copy_ranks_first_with_its_names(tmp_path, capsys):
    toy = load(TOY)
    reference = reference_source(toy)
    root = tmp_path / "submitted"
    submit(root, "alice", "toy", reference)
    submit(root, "bob", "toy", disguise(reference, set(toy.part_of) | {"SEPARATOR"}))
    submit(root, "carol", "toy", TOY_OTHER)
    (tmp_path / "stub.py").write_text(TOY_STUB)
    rows, _ = run(capsys, root, "--assignment", TOY, "--stub", tmp_path / "stub.py",
                  "--out", tmp_path / "out", "--floor", "0")
    assert (rows[0]["student_a"], rows[0]["student_b_or_source"]) == ("alice", "bob")
    assert float(rows[0]["similarity"]) > max(float(r["similarity"]) for r in rows[1:]) + 0.2
    assert {"count_words", "loudest"} <= set(rows[0]["shared_names"].split())
    index = (tmp_path / "out" / "similarity.html").read_text()
    assert "<td>alice</td><td>bob</td>" in index and "similarity-pairs/00001.html" in index
    view = (tmp_path / "out" / "similarity-pairs" / "00001.html").read_text()
    assert "<span class='hl'>" in view and "Part 1: Counting words" in view


def test_fingerprints_do_not_depend_on_the_hash_seed():
    """copydetect hashes with ``hash``, salted per process; ours must not be."""
    code = ("from pathlib import Path\nfrom autograder.similarity.fingerprint import "
            "fingerprint\nprint(sorted(fingerprint(Path('tests/toy/reference/loud.py')"
            ".read_text()).hashes))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=REPO, env={**os.environ, "PYTHONHASHSEED": seed}
                           ).stdout for seed in ("1", "2")}
    assert len(seen) == 1 and len(seen.pop()) > 10


def test_a_large_file_is_shortened_by_a_limited_child_never_by_the_report(tmp_path,
                                                                         monkeypatch):
    """A large notebook is read for its cells (to shorten its literals before extraction)
    in a child process under extraction's limits (``similarity/shorten.py``): a notebook of
    millions of short damaged outputs costs that child, not the report's process, which
    here is not allowed to read cells at all. The copy still has its literal shortened."""
    from autograder.similarity import documents

    def never(*_):
        raise AssertionError("the report's own process read a large notebook's cells")

    monkeypatch.setattr(documents, "read_cells", never)
    name = "tokenization"
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": f'NOTES = "{"x" * 2_000_000}"\n\ndef count_words(text):\n'
                        "    return len(text.split())\n"}]
    path = tmp_path / f"{name}.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    doc = documents.read_document("big", [path], load(name))
    kept = "\n".join(doc.parts.values())
    assert "def count_words" in kept and "x" * 2000 not in kept
