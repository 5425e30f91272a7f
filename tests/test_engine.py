"""The engine on its own fixture: the two-part toy assignment in ``tests/toy/``.

The engine is handed the toy's folder (``load("tests/toy")``), exactly as it is handed a
course assignment; nothing of the engine knows either by name. These tests grade the
toy end to end (extraction, sandboxed workers, stand-ins for the other part, the hidden
tests, the result, the reports, the CLI), and check that no engine file mentions an
assignment's graded names.
"""

import ast
import csv
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.assignment import ENGINE, HIDDEN, UnknownAssignment, infer, known, load
from autograder.cache import grader_fingerprint
from autograder.report import write_reports
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.course import TOY, TOY_STUB

ROOT = Path(__file__).resolve().parents[1]

# Part 1 wrong (splits on any whitespace); Part 2 must not pay for it: its ``loudest``
# gets the reference's ``count_words`` through a stand-in.
WRONG_PART1 = """
def count_words(text):
    if not isinstance(text, str):
        raise TypeError("count_words expects a str")
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return {w: c for w, c in counts.items() if len(w) > 1}
"""


def scores(result: dict) -> dict[int, float]:
    return {int(p): s["score"] for p, s in result["parts"].items()}


@pytest.fixture(scope="module")
def reference() -> str:
    return reference_without(TOY, 0)[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, reference) -> dict[str, dict]:
    """The toy's reference (``ann``), its stub (``bo``) and one bug, graded once, at once."""
    folder = tmp_path_factory.mktemp("toy")
    sources = {"ann": reference, "bo": TOY_STUB, "wrong": reference + WRONG_PART1}
    for name, source in sources.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    with ThreadPoolExecutor(max_workers=len(sources)) as pool:
        futures = {name: pool.submit(grade_file, folder / f"{name}.py", name, assignment=TOY,
                                     timeout=120) for name in sources}
        return {name: future.result() for name, future in futures.items()}


def test_the_toy_is_loaded_from_its_folder():
    assert TOY.name == "toy" and TOY.points == {1: 4, 2: 6} and TOY.total == 10
    assert TOY.reference == ROOT / "tests" / "toy" / "reference"
    assert "toy" not in known()
    with pytest.raises(UnknownAssignment, match="known ones are: production_tokenizers"):
        load("no_such_assignment")


def test_reference_full_marks_and_results_name_the_assignment(graded):
    result = graded["ann"]
    assert result["status"] == "graded", result["error"]
    assert result["assignment"] == "toy"
    assert scores(result) == {1: 4.0, 2: 6.0} and result["max_score"] == 10.0


def test_stub_scores_zero(graded):
    result = graded["bo"]
    assert result["status"] == "graded", result["error"]
    assert scores(result) == {1: 0.0, 2: 0.0}


def test_a_bug_costs_only_its_own_part(graded):
    result = graded["wrong"]
    assert scores(result) == {1: 1.0, 2: 6.0}, [t["output"] for t in result["tests"]]


def test_reports_follow_the_assignment(tmp_path, graded):
    write_reports([graded["ann"], graded["bo"]], tmp_path / "out", TOY)
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    assert list(rows[0]) == ["student_id", "part1", "part2", "total", "max_total", "status",
                             "error"]
    assert [(r["student_id"], r["total"], r["max_total"]) for r in rows] == [
        ("ann", "10", "10"), ("bo", "0", "10")]
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert summary.startswith("# Toy (`toy`): class summary")
    assert "Shouting" in (tmp_path / "out" / "ann" / "feedback.html").read_text()


def test_the_cli_takes_an_assignment_folder(tmp_path, reference):
    (tmp_path / "ann.py").write_text(reference, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(tmp_path / "ann.py"),
         "--out", str(tmp_path / "out"), "--assignment", str(ROOT / "tests" / "toy")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ann: 10 / 10" in done.stderr


def test_an_unknown_assignment_is_a_clear_error(tmp_path, reference):
    (tmp_path / "ann.py").write_text("x = 1\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(tmp_path / "ann.py"),
         "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "cannot tell which assignment" in done.stderr
    assert all(name in done.stderr for name in known())


def test_the_assignment_is_inferred_from_place_or_names(tmp_path):
    folder = tmp_path / "submitted" / "ann" / "production_tokenizers"
    folder.mkdir(parents=True)
    assert infer(folder / "x.ipynb").name == "production_tokenizers"
    assert infer(tmp_path / "hw.py", {"CharTokenizer", "merge_pair"}).name == "tokenization"
    assert infer(tmp_path / "hw.py", {"print"}) is None


def _engine_files() -> list[Path]:
    return [p for p in ENGINE.rglob("*.py") if not p.is_relative_to(HIDDEN)]


def test_no_engine_file_names_an_assignment_or_its_graded_names():
    """The engine knows no assignment: its files never spell an assignment's name or one of
    the names it grades (in code, docstrings or comments)."""
    words = set(known())
    for name in known():
        words |= {n for n in load(name).part_of if len(n) > 3}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b")
    found = {}
    for path in _engine_files():
        hits = sorted(set(pattern.findall(path.read_text(encoding="utf-8"))))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert not found, found


def test_no_engine_module_imports_an_assignments_content():
    for path in _engine_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
            elif isinstance(node, ast.Import):
                module = " ".join(a.name for a in node.names)
            else:
                continue
            assert "solutions" not in module and "hidden" not in module, (path, module)


def test_the_cache_key_covers_data_files_but_not_notes(tmp_path):
    """A reference's data (a ranks file, a Unicode table) decides scores as much as its
    code: changing it must invalidate cached results. A report or a note must not."""
    shutil.copytree(ROOT / "tests" / "toy", tmp_path / "toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    toy = load(tmp_path / "toy")
    table = toy.reference / "table.txt"
    table.write_text("a 1\n")
    before = grader_fingerprint.__wrapped__(toy)
    table.write_text("a 2\n")
    assert grader_fingerprint.__wrapped__(toy) != before, "a changed data file kept the key"
    table.write_text("a 1\n")
    (toy.folder / "MUTATION.md").write_text("# a report\n")
    (toy.reference / "__pycache__").mkdir(exist_ok=True)
    (toy.reference / "__pycache__" / "words.cpython-311.pyc").write_bytes(b"\0")
    assert grader_fingerprint.__wrapped__(toy) == before, "a report or bytecode changed the key"


@pytest.mark.slow
def test_a_tree_of_several_assignments_is_graded_once_per_assignment(tmp_path, reference):
    """``submitted/<student>/<name>/``: each assignment found is graded with its own suite
    into ``--out/<name>/``; a student without a folder for one is missing there, not failed."""
    ann = tmp_path / "submitted" / "ann" / "tokenization"
    bo = tmp_path / "submitted" / "bo" / "production_tokenizers"
    ann.mkdir(parents=True)
    bo.mkdir(parents=True)
    (ann / "tokenization.py").write_text(reference_without(load("tokenization"), 0)[0])
    (bo / "production_tokenizers.py").write_text("notes = 1\n")  # defines no graded name
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(tmp_path / "submitted"),
         "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = {name: {r["student_id"]: r for r in csv.DictReader(
        (tmp_path / "out" / name / "grades.csv").open())}
        for name in ("tokenization", "production_tokenizers")}
    assert not (tmp_path / "out" / "tokens_to_vectors").exists()  # no one submitted it
    assert rows["tokenization"]["ann"]["total"] == "100"
    assert rows["tokenization"]["bo"]["status"] == "missing"
    assert "no code found" in rows["production_tokenizers"]["bo"]["error"]
    assert rows["production_tokenizers"]["ann"]["status"] == "missing"
