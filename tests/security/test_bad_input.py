"""Red team, category 9: bad input never stops a batch and never scores.

One class, graded by the real CLI, holds everything a course's ``submitted/`` folder
can throw at the grader:

- a submission whose exception message holds a lone surrogate (today: ``write_reports``
  fails for the whole class, and the cache keeps the poison for the next run);
- folder names that are not UTF-8, hold control characters, look like spreadsheet
  formulas (``=1+1``), or become the same ID or the same report folder once made safe;
- a hidden folder (``.alice``), which today gets no row;
- symbolic links to a correct submission, as the file and as the student's folder
  (today they are followed and score);
- notebooks whose JSON has shapes nbformat 4 does not allow (today four of them are
  "internal grader error").

Then the Gradescope entry point: it writes a valid ``results.json`` for a surrogate, a
link, a grader that raises and a results writer that raises (those two faults are
injected: no real input makes them happen once these fixes are in).
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cache import ResultCache
from autograder.extract import SubmissionError, extract
from autograder.gradescope import run as gradescope_run
from autograder.report import folder_names
from autograder.report.schema import gradescope_problems
from autograder.safe import unique_ids
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[2]
CORRECT = ROOT / "samples/submitted/dave_script/tokenization/tokenization.py"
SURROGATE = '''

def attention_speedup(long_len, short_len):
    raise ValueError("broken \\ud800 here")


class Broken:
    raise ValueError("broken \\udcff at load")
'''
CELL = {"cell_type": "code", "source": "X = 1\n", "metadata": {}}
NOTEBOOKS = {
    "nb_source": {"cells": [{**CELL, "source": ["X = 1\n", 2]}]},
    "nb_metadata": {"cells": [{**CELL, "metadata": ["grade"]}]},
    "nb_nbgrader": {"cells": [{**CELL, "metadata": {"nbgrader": "grade"}}]},
    "nb_no_type": {"cells": [{"source": "X = 1", "metadata": {}}]},
    "nb_list": [CELL],
    "nb_v3": {"nbformat": 3, "worksheets": [{"cells": [CELL]}]},
}
FORMULAS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tpad"]


def run_cli(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def put(tree: Path, student: str | bytes, name: str = "tokenization.py",
        text: str = "") -> Path:
    folder = Path(os.fsdecode(os.path.join(os.fsencode(tree), os.fsencode(student)))) / \
        "tokenization"
    folder.mkdir(parents=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("bad_input")
    tree, out = base / "submitted", base / "graded"
    correct = CORRECT.read_text(encoding="utf-8")
    put(tree, "surrogate", text=correct + SURROGATE)
    put(tree, b"bytes\xff\xfe", text=correct)
    for name in ["esc\x1b[2Jape", ".alice", "a\\b", "a_b", "c\x01", "c\x02", *FORMULAS]:
        put(tree, name, "notes.txt", "nothing to grade")
    linked = put(tree, "linked_file", "notes.txt", "")
    (linked.parent / "tokenization.py").symlink_to(CORRECT)
    (tree / "linked_folder").symlink_to(CORRECT.parent.parent)
    for name, notebook in NOTEBOOKS.items():
        put(tree, name, "tokenization.ipynb", json.dumps(notebook))
    first = run_cli("grade", tree, "--out", out, "--jobs", "2")
    second = run_cli("grade", tree, "--out", out, "--jobs", "2")  # from the cache
    entries = len(os.listdir(tree))
    return first, second, out, entries


def rows(out: Path) -> list[dict[str, str]]:
    text = (out / "grades.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def by_id(out: Path) -> dict[str, dict[str, str]]:
    return {r["student_id"]: r for r in rows(out)}


@pytest.mark.slow
def test_the_batch_completes_twice_and_every_folder_gets_a_row(batch) -> None:
    first, second, out, entries = batch
    assert first.returncode == 0, first.stderr[-3000:]
    assert second.returncode == 0, second.stderr[-3000:]
    assert len(rows(out)) == entries
    assert ".alice" in by_id(out)


@pytest.mark.slow
def test_a_surrogate_in_a_message_costs_nothing_but_that_test(batch) -> None:
    out = batch[2]
    row = by_id(out)["surrogate"]
    assert row["status"] == "graded" and float(row["total"]) >= 90, row
    data = json.loads((out / "surrogate" / "results.json").read_text(encoding="utf-8"))
    assert not gradescope_problems(data)
    assert "broken \\xff at load" in data["output"], data["output"]  # escaped, not lost


@pytest.mark.slow
def test_odd_folder_names_are_safe_and_distinct(batch) -> None:
    out = batch[2]
    ids = by_id(out)
    assert "bytes\\xff\\xfe" in ids and ids["bytes\\xff\\xfe"]["status"] == "graded"
    assert all(c.isprintable() for sid in ids for c in sid.lstrip("'")), list(ids)
    folders = [p for p in out.iterdir() if (p / "results.json").is_file()]
    assert len(folders) == len(ids), "every student has a report folder of their own"
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "Renamed student IDs" in summary


@pytest.mark.slow
def test_no_csv_cell_starts_a_formula(batch) -> None:
    out = batch[2]
    text = (out / "grades.csv").read_text(encoding="utf-8")
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r"), cell
    ids = by_id(out)
    assert all("'" + name in ids for name in FORMULAS if name[0] != "\t"), list(ids)
    assert " pad" in ids  # a tab in an ID becomes a space


@pytest.mark.slow
def test_links_are_never_followed(batch) -> None:
    ids = by_id(batch[2])
    for name in ("linked_file", "linked_folder"):
        row = ids[name]
        assert row["status"] == "error" and row["total"] == "", row
        assert "symbolic link" in row["error"], row


@pytest.mark.slow
def test_malformed_notebooks_are_clear_error_rows(batch) -> None:
    ids = by_id(batch[2])
    for name in NOTEBOOKS:
        error = ids[name]["error"]
        assert error.startswith("unreadable submission:"), (name, error)


def test_suffixes_never_take_a_name_that_is_someone_else_s() -> None:
    assert unique_ids(["bob", "bob", "bob~2"]) == ["bob", "bob~3", "bob~2"]
    names = folder_names([{"student_id": s} for s in ["Bob", "bob", "a\\b", "a_b", "bob~2"]])
    assert len({n.casefold() for n in names}) == 5 and "bob~2" in names, names


def test_extract_names_what_is_wrong(tmp_path: Path) -> None:
    deep = tmp_path / "deep.ipynb"
    deep.write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(SubmissionError, match="nested too deeply"):
        extract(deep)
    v3 = tmp_path / "v3.ipynb"
    v3.write_text(json.dumps(NOTEBOOKS["nb_v3"]), encoding="utf-8")
    with pytest.raises(SubmissionError, match="nbformat 3"):
        extract(v3)


def test_a_poisoned_cache_entry_is_made_safe(tmp_path: Path) -> None:
    submission = tmp_path / "s.py"
    submission.write_text("X = 1\n", encoding="utf-8")
    cache = ResultCache(tmp_path / "cache", TOKENIZATION, "options")
    (tmp_path / "cache").mkdir()
    poison = {"student_id": "s", "status": "graded", "warnings": ["bad \ud800\x1b[2J"],
              "tests": [{"output": "x\udcff"}]}
    (tmp_path / "cache" / f"{cache.key(submission)}.json").write_text(json.dumps(poison))
    found = cache.get(submission)
    assert found is not None
    json.dumps(found, ensure_ascii=False).encode("utf-8")  # would raise on a surrogate
    assert found["warnings"] == ["bad \\ud800\ufffd[2J"] and found["tests"][0]["output"] == \
        "x\\xff"


def gradescope(tmp_path: Path, files: dict[str, str | Path]) -> dict:
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    for name, content in files.items():
        target = root / "submission" / name
        if isinstance(content, Path):
            target.symlink_to(content)
        else:
            target.write_text(content, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "autograder.gradescope.run", "--root", str(root),
                           "--assignment", "tokenization"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert not gradescope_problems(data), gradescope_problems(data)
    return data


def test_gradescope_writes_results_for_a_surrogate(tmp_path: Path) -> None:
    data = gradescope(tmp_path, {"tokenization.py": CORRECT.read_text() + SURROGATE})
    assert data["score"] >= 90 and "broken \\xff at load" in data["output"], data["output"]


def test_gradescope_does_not_follow_a_link(tmp_path: Path) -> None:
    data = gradescope(tmp_path, {"tokenization.py": CORRECT})
    assert data["score"] == 0 and "symbolic link" in data["output"], data["output"]


def test_gradescope_writes_results_when_the_grader_raises(tmp_path, monkeypatch) -> None:
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    shutil.copy(CORRECT, root / "submission" / "tokenization.py")

    def broken(*args, **kwargs):
        raise RuntimeError("grader bug \ud800")

    monkeypatch.setattr(gradescope_run, "grade_file", broken)
    assert gradescope_run.main(["--root", str(root), "--assignment", "tokenization"]) == 0
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert not gradescope_problems(data) and data["score"] == 0
    assert "internal grader error: RuntimeError: grader bug \\ud800" in data["output"]


def test_gradescope_writes_a_minimal_file_when_even_writing_fails(tmp_path, monkeypatch) -> None:
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)

    def broken(*args, **kwargs):
        raise ValueError("cannot write")

    monkeypatch.setattr(gradescope_run, "write_gradescope", broken)
    assert gradescope_run.main(["--root", str(root), "--assignment", "tokenization"]) == 0
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert not gradescope_problems(data) and data["score"] == 0
    assert "could not be graded" in data["output"]
