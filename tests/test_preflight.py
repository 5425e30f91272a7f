"""The student's preflight (``preflight.py`` shipped next to each notebook), run as a student
runs it: ``python preflight.py tokenization.ipynb`` in a copy of the release.

- One preflight serves the course: every assignment's source and release carry the same file.

- Its extraction rules are the grader's: the shipped copy and the source copy hold the
  ``extraction rules`` section of ``autograder/extract/split.py`` verbatim, and on the same
  notebook the preflight keeps what the grader keeps and warns where the grader warns.
- It flags what the grader would drop or cannot import, says nothing about patterns that are
  fine, and runs the visible tests on the kept code alone in a fresh process.
- It carries no hidden test and no reference code.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.assignment import known
from autograder.extract import extract

ROOT = Path(__file__).resolve().parents[1]
SPLIT = ROOT / "autograder" / "extract" / "split.py"
SHIPPED = ROOT / "assignments" / "tokenization" / "preflight.py"
SOURCE_COPY = ROOT / "source" / "tokenization" / "preflight.py"
SOLVED = ROOT / "source" / "tokenization" / "tokenization.ipynb"  # solutions are comments
COPIES = [ROOT / top / name / "preflight.py" for name in known()
          for top in ("assignments", "source")]
RULES = re.compile(r"# --- extraction rules .*?# --- end of extraction rules ---\n", re.S)


def rules_of(path: Path) -> str:
    found = RULES.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path}: one extraction rules section expected"
    return found[0]


def test_the_preflight_carries_the_graders_extraction_rules():
    assert rules_of(SOURCE_COPY) == rules_of(SPLIT)


@pytest.mark.parametrize("copy", COPIES, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}")
def test_every_assignment_ships_the_same_preflight(copy):
    assert copy.read_bytes() == SOURCE_COPY.read_bytes(), f"{copy} differs from {SOURCE_COPY}"


def test_the_preflight_holds_no_hidden_test_or_reference_code():
    text = SHIPPED.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+(solutions|autograder|tests)\b", text, re.M)
    for hidden in (ROOT / "autograder" / "hidden").glob("*/test_part*.py"):
        for name in re.findall(r"^def (test_\w+)", hidden.read_text(encoding="utf-8"), re.M):
            assert name not in text, f"{name} (a hidden test) appears in the preflight"


def student_copy(tmp_path: Path, extra_cells: list[str], notebook: Path = SOLVED) -> Path:
    """A copy of the release folder whose notebook is ``notebook`` plus ``extra_cells``."""
    folder = tmp_path / "tokenization"
    shutil.copytree(SHIPPED.parent, folder)
    nb = nbformat.read(notebook, as_version=4)
    for source in extra_cells:
        nb.cells.append(nbformat.v4.new_code_cell(source))
    nbformat.write(nb, folder / "tokenization.ipynb")
    return folder


def run_preflight(folder: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "preflight.py", "tokenization.ipynb"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def section(output: str, title: str) -> str:
    """The lines under ``title`` up to the next blank line."""
    return output.split(title, 1)[1].split("\n\n", 1)[0]


TRY_IMPORT = "try:\n    from tqdm import tqdm\nexcept ImportError:\n    tqdm = lambda x: x\n"
USES_TQDM = ("def merge_pair(tokens, pair):\n    merged, i = [], 0\n"
             "    for _ in tqdm(range(1)):\n        pass\n"
             "    while i < len(tokens):\n"
             "        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == tuple(pair):\n"
             "            merged.append(tokens[i] + tokens[i + 1])\n            i += 2\n"
             "        else:\n            merged.append(tokens[i])\n            i += 1\n"
             "    return merged\n")


def test_a_try_except_import_block_is_fine(tmp_path):
    status, output = run_preflight(student_copy(tmp_path, [TRY_IMPORT, USES_TQDM]))
    assert status == 0, output
    assert "tqdm" in section(output, "Kept (")
    assert section(output, "Dropped statements that kept code reads:").strip() == "none"
    tests = section(output, "Visible tests on the kept code alone:")
    assert "FAIL" not in tests and tests.count(": pass") == 20, tests


def test_a_lowercase_constant_that_is_not_a_literal_is_flagged(tmp_path):
    cells = ["default_size = int('1000')\nsizes = [50, 100]",
             "def pick_size(n=None):\n    return n or default_size or sizes[0]"]
    status, output = run_preflight(student_copy(tmp_path, cells))
    assert status == 1
    dropped = section(output, "Dropped statements that kept code reads:")
    cell = len(nbformat.read(SOLVED, as_version=4).cells) + 1
    assert f"cell {cell}, line 1: sets default_size" in dropped
    assert "pick_size" in dropped and "names set to a literal value" in dropped
    assert "sizes" not in dropped  # a literal list is kept


def test_imports_graded_code_cannot_make_are_flagged(tmp_path):
    cells = ["import numpy as np\nimport regex\nimport torch\nfrom sklearn import svm"]
    status, output = run_preflight(student_copy(tmp_path, cells))
    assert status == 1
    imports = section(output, "Imports graded code cannot make:")
    assert "imports torch" in imports and "imports sklearn" in imports
    assert "imports numpy" not in imports and "imports regex" not in imports
    assert "standard library, numpy and regex" in imports


def test_visible_tests_run_on_the_kept_code_alone(tmp_path):
    # The demo cell sets a name the Part 4 code reads: fine in the kernel, not graded.
    cells = ["pair_joiner = ''.join\n",
             "def merge_pair(tokens, pair):\n    out, i = [], 0\n    while i < len(tokens):\n"
             "        if tokens[i:i + 2] == list(pair):\n"
             "            out.append(pair_joiner(pair))\n            i += 2\n"
             "        else:\n            out.append(tokens[i])\n            i += 1\n"
             "    return out\n"]
    status, output = run_preflight(student_copy(tmp_path, cells))
    assert status == 1
    tests = section(output, "Visible tests on the kept code alone:")
    merge = next(line for line in tests.splitlines() if "merge_pair merges" in line)
    cell = len(nbformat.read(SOLVED, as_version=4).cells) + 2
    assert f"FAIL  NameError: name 'pair_joiner' is not defined (cell {cell}, line 5)" in merge
    assert "refuses to encode/decode" in tests.splitlines()[1] and ": pass" in tests


def test_the_stub_release_fails_every_visible_test(tmp_path):
    status, output = run_preflight(student_copy(tmp_path, [], notebook=SHIPPED.parent /
                                                "tokenization.ipynb"))
    assert status == 1
    tests = section(output, "Visible tests on the kept code alone:")
    assert tests.count("FAIL") == 20 and ": pass" not in tests


def test_the_preflight_keeps_what_the_grader_keeps(tmp_path):
    folder = student_copy(tmp_path, [TRY_IMPORT, "default_size = int('9')\nlimit = 3",
                                     "def f():\n    return default_size + limit",
                                     "import torch"])
    status, output = run_preflight(folder)
    code = extract(folder / "tokenization.ipynb")
    kept = [line.strip() for line in section(output, "Kept (").splitlines()[1:]]
    assert kept == [f"{st.origin}: {', '.join(st.names)}" for st in code.statements]
    printed = section(output, "Dropped statements that kept code reads:") + section(
        output, "Imports graded code cannot make:")
    for warning in code.warnings:
        assert warning in " ".join(printed.split()), warning


PRODUCTION = ROOT / "assignments" / "production_tokenizers"


@pytest.mark.parametrize("solved", [True, False], ids=["solved", "stub"])
def test_the_production_preflight_finds_the_bundled_files_from_anywhere(tmp_path, solved):
    """The visible tests read ``gpt2/`` and ``tinyshakespeare.txt`` beside the notebook; run
    from another folder, the preflight still runs them where the notebook is."""
    folder = tmp_path / "production_tokenizers"
    shutil.copytree(PRODUCTION, folder)
    if solved:
        shutil.copy(ROOT / "source" / "production_tokenizers" / "production_tokenizers.ipynb",
                    folder)
    done = subprocess.run([sys.executable, folder / "preflight.py",
                           folder / "production_tokenizers.ipynb"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    tests = section(done.stdout, "Visible tests on the kept code alone:")
    if solved:
        assert done.returncode == 0 and tests.count(": pass") == 25, done.stdout + done.stderr
    else:
        assert done.returncode == 1 and tests.count("FAIL") == 25 and ": pass" not in tests
        assert "FileNotFoundError" not in tests, "a stub must fail on its own code, not on paths"
