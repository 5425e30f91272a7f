"""Attacks on the split of the engine from its assignments.

A hostile student must not decide which assignment a batch is graded as, and a careless
TA's reused output folder must not make the hand-off guess the wrong assignment: when the
evidence disagrees, the tools stop with a clear error instead of picking the first.
Covered here: a folder of loose downloads whose first file defines another assignment's
names (``collect.detect_assignments``), and result files of two assignments beside one
``grades.csv`` (``handoff.graded_assignment``). Grading itself is not run: the choice of
assignment is made before any student code runs.
"""

import json
import subprocess
import sys
from pathlib import Path

from autograder.collect import detect_assignments
from autograder.handoff import graded_assignment

TOKENIZATION = "class Tokenizer:\n    pass\n\ndef count_pairs(words):\n    return {}\n"
PRODUCTION = "def bytes_to_unicode():\n    return {}\n\ndef normalize(text):\n    return text\n"


def _downloads(tmp_path: Path) -> Path:
    """A folder of loose downloads: the first file (by name) is the attacker's."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "aaron.py").write_text(PRODUCTION, encoding="utf-8")
    for student in ("bob", "carol", "dave"):
        (folder / f"{student}.py").write_text(TOKENIZATION, encoding="utf-8")
    return folder


def test_one_download_does_not_choose_the_batch_assignment(tmp_path: Path) -> None:
    """Aaron's file defines the other assignment's names; the class did tokenization. The
    batch must not be graded as Aaron's choice (everyone else would score 0)."""
    found = [a.name for a in detect_assignments(_downloads(tmp_path))]
    assert found != ["production_tokenizers"]
    assert found in ([], ["tokenization"])


def test_cli_asks_for_assignment_when_downloads_disagree(tmp_path: Path) -> None:
    """Through the CLI: a clear usage error naming --assignment, and no reports written."""
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "autograder", "grade",
                          str(_downloads(tmp_path)), "--out", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0, run.stdout
    assert "--assignment" in run.stderr
    assert not (out / "grades.csv").exists()


def test_downloads_that_agree_still_tell(tmp_path: Path) -> None:
    """The fix must not cost the plain case: files that agree name their assignment."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    for student in ("bob", "carol"):
        (folder / f"{student}.py").write_text(TOKENIZATION, encoding="utf-8")
    (folder / "broken.py").write_text("def (", encoding="utf-8")
    assert [a.name for a in detect_assignments(folder)] == ["tokenization"]


def _results(folder: Path, student: str, assignment: str) -> None:
    (folder / student).mkdir()
    (folder / student / "results.json").write_text(
        json.dumps({"extra_data": {"assignment": assignment}}), encoding="utf-8")


def test_handoff_does_not_guess_from_mixed_results(tmp_path: Path) -> None:
    """A TA graded production into the folder that held tokenization's reports: a stale
    ``aaron/results.json`` sorts first. The hand-off must not take it for the batch's."""
    grades = tmp_path / "grades.csv"
    grades.write_text("student_id\n", encoding="utf-8")
    _results(tmp_path, "aaron", "tokenization")
    _results(tmp_path, "bob", "production_tokenizers")
    _results(tmp_path, "carol", "production_tokenizers")
    assert graded_assignment(grades) is None


def test_handoff_still_reads_agreeing_results(tmp_path: Path) -> None:
    grades = tmp_path / "grades.csv"
    grades.write_text("student_id\n", encoding="utf-8")
    _results(tmp_path, "bob", "production_tokenizers")
    _results(tmp_path, "carol", "production_tokenizers")
    (tmp_path / "dave").mkdir()
    (tmp_path / "dave" / "results.json").write_text("{not json", encoding="utf-8")
    assert graded_assignment(grades) == "production_tokenizers"


def test_a_file_or_link_named_after_an_assignment_adds_no_batch(tmp_path: Path) -> None:
    """Mallory's folder holds an empty file and a link named after the other assignment:
    the tree is still one tokenization batch (else every student gets an error row in a
    second batch, and the reports move to ``DIR/<assignment>/``)."""
    root = tmp_path / "submitted"
    (root / "alice" / "tokenization").mkdir(parents=True)
    (root / "alice" / "tokenization" / "tokenization.py").write_text(TOKENIZATION,
                                                                       encoding="utf-8")
    (root / "mallory").mkdir()
    (root / "mallory" / "production_tokenizers").write_text("", encoding="utf-8")
    (root / "bob").mkdir()
    (root / "bob" / "production_tokenizers").symlink_to(root / "alice" / "tokenization")
    assert [a.name for a in detect_assignments(root)] == ["tokenization"]
