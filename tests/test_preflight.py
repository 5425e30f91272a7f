"""The student's preflight (``preflight.py`` shipped next to each notebook), run as a student
runs it: ``python preflight.py tokenization.ipynb`` in a copy of the release.

- It has one source, the grader's: ``autograder/extract/ship.py`` builds it from
  ``autograder/extract/preflight.py`` and ``rules.py``; every release holds a fresh build,
  ``source/`` holds none, and the student bundle ships a fresh build even over a stale one.
- On tricky sources the shipped file keeps exactly what the grader keeps, statement for
  statement, and warns where the grader warns.
- It flags what the grader would drop or cannot import, says nothing about patterns that are
  fine, and runs the visible tests on the kept code alone in a fresh process.
- A student can scan it: the verdict comes first, a summary line last, no line is longer
  than JupyterLab shows unbroken.
- It carries no hidden test and no reference code.
"""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.assignment import known
from autograder.extract import extract
from autograder.extract.ship import preflight_source
from autograder.student_bundle import student_files

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "assignments" / "tokenization" / "preflight.py"
SOLVED = ROOT / "source" / "tokenization" / "tokenization.ipynb"  # solutions are comments
WIDTH = 88  # the preflight's line width


@pytest.mark.parametrize("name", known())
def test_every_release_holds_a_fresh_build_and_the_source_none(name):
    assert (ROOT / "assignments" / name / "preflight.py").read_text(encoding="utf-8") == (
        preflight_source()), "assignments/ holds a stale preflight.py: run `make release`"
    assert not (ROOT / "source" / name / "preflight.py").exists()


def test_the_bundle_ships_a_fresh_build_over_a_stale_one(tmp_path):
    release = tmp_path / "tokenization"
    shutil.copytree(SHIPPED.parent, release)
    (release / "preflight.py").write_text("print('stale')\n", encoding="utf-8")
    shipped = student_files(release)["tokenization/preflight.py"].decode("utf-8")
    assert shipped == preflight_source() and shipped.startswith("# Generated from")


def test_the_preflight_holds_no_hidden_test_or_reference_code():
    text = SHIPPED.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+(solutions|autograder|tests)\b", text, re.M)
    assert not re.search(r"^\s*from\s+\.", text, re.M), "a relative import cannot run"
    for hidden in (ROOT / "autograder" / "hidden").glob("*/test_part*.py"):
        for name in re.findall(r"^def (test_\w+)", hidden.read_text(encoding="utf-8"), re.M):
            assert name not in text, f"{name} (a hidden test) appears in the preflight"


# Sources where keeping and dropping are easy to get wrong.
TRICKY = [
    "try:\n    from collections import Counter\nexcept ImportError:\n    raise\n",
    "try:\n    import numpy as np\nexcept ImportError as exc:\n"
    "    raise ImportError('numpy') from exc\nelse:\n    pass\nfinally:\n    'done'\n",
    "import sys\nif sys.version_info >= (3, 11):\n    FAST = True\nelse:\n    raise SystemExit\n",
    "if len(sys.argv) > 1:\n    MODE = 'cli'\n",
    "try:\n    from tqdm import tqdm\nexcept ImportError:\n    tqdm = lambda x: x\n",
    "import matplotlib.pyplot as plt\nfrom . import sibling\nfrom os.path import *\n",
    "default_size = int('9')\nlimit = 3\nvocab: dict = {'a': 1}\n"
    "def use():\n    return default_size + limit + len(vocab)\n",
    "@property\n@staticmethod\ndef décoré(x):  # é\n    return 'ü' * x\nA = 1; B = 2; c = f()\n",
    "x = 1\r\ndef crlf():\r\n    return 'é'\r\nY = (1,\r\n     2)\r\n",
    "def broken(:\n    pass\n",
    "import torch\nfrom sklearn import svm\nDATA = " + repr("é" * 3000) + "\n",
    "for i in range(3):\n    helper = i\nclass Uses:\n    def f(self):\n        return helper\n",
]


def load_shipped():
    """The shipped file, imported as a module (as the student's copy runs)."""
    spec = importlib.util.spec_from_file_location("shipped_preflight", SHIPPED)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_preflight_keeps_exactly_what_the_grader_keeps(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in TRICKY])
    path = tmp_path / "tricky.ipynb"
    nbformat.write(nb, path)
    graded = extract(path)
    preflight = load_shipped()
    kept, notes = preflight.split_chunks([(source, f"cell {number}") for number, source, test
                                          in preflight.notebook_cells(path) if not test])
    assert kept == [(st.source, st.origin, st.names) for st in graded.statements]
    assert [message for _, message in notes] == graded.warnings
    assert len(kept) > 10 and len(graded.warnings) >= 4  # the set exercises both sides


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


def unwrapped(output: str) -> str:
    """``output`` with each wrapped line (six spaces in) joined back to the one above."""
    return output.replace("\n      ", " ")


def section(output: str, title: str) -> str:
    """The lines under ``title`` up to the next blank line, each wrapped line joined back."""
    return unwrapped(output).split(title, 1)[1].split("\n\n", 1)[0]


def scannable(output: str) -> tuple[str, str]:
    """The verdict (first line) and the summary (last line) of a preflight's output; every
    line fits ``WIDTH`` unless it is one unbreakable word."""
    for line in output.splitlines():
        assert len(line) <= WIDTH or " " not in line.strip(), line
    lines = unwrapped(output).splitlines()
    return lines[0], lines[-1]


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
    assert "tqdm" in section(output, "Kept by the grader (")
    assert section(output, "Dropped statements that kept code reads:").strip() == "none"
    tests = section(output, "Visible tests on the kept code alone:")
    assert "FAIL" not in tests and tests.count("pass  cell") == 20, tests
    verdict, last = scannable(output)
    line = "all 20 visible tests pass; nothing needs attention."
    assert (verdict, last) == (f"Preflight of tokenization.ipynb: ready to submit: {line}",
                               f"Summary: {line}")


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
    assert merge.startswith("  FAIL  cell ")
    assert f"NameError: name 'pair_joiner' is not defined (cell {cell}, line 5)" in merge
    assert "refuses to encode/decode" in tests.splitlines()[1] and "pass  cell" in tests
    failed = tests.count("FAIL  cell")
    verdict, last = scannable(output)
    line = (f"{failed} of 20 visible tests fail; 1 dropped statement is used by graded code.")
    assert (verdict, last) == (f"Preflight of tokenization.ipynb: NEEDS ATTENTION: {line}",
                               f"Summary: {line}")


def test_the_stub_release_fails_every_visible_test(tmp_path):
    status, output = run_preflight(student_copy(tmp_path, [], notebook=SHIPPED.parent /
                                                "tokenization.ipynb"))
    assert status == 1
    tests = section(output, "Visible tests on the kept code alone:")
    assert tests.count("FAIL") == 20 and "pass  cell" not in tests
    assert scannable(output)[1] == "Summary: 20 of 20 visible tests fail."


def test_the_preflight_keeps_what_the_grader_keeps(tmp_path):
    folder = student_copy(tmp_path, [TRY_IMPORT, "default_size = int('9')\nlimit = 3",
                                     "def f():\n    return default_size + limit",
                                     "import torch"])
    status, output = run_preflight(folder)
    code = extract(folder / "tokenization.ipynb")
    kept = [line.strip() for line in section(output, "one line per cell:").splitlines()[1:]]
    cells: dict[str, list[str]] = {}
    for st in code.statements:
        cells.setdefault(st.origin.split(",")[0], []).append(", ".join(st.names))
    assert kept == [f"{cell}: {', '.join(names)}" for cell, names in cells.items()]
    printed = section(output, "Dropped statements that kept code reads:") + section(
        output, "Imports graded code cannot make:")
    for warning in code.warnings:
        assert warning in " ".join(printed.split()), warning


PRODUCTION = ROOT / "assignments" / "production_tokenizers"


@pytest.mark.parametrize("solved", [True, False], ids=["solved", "stub"])
@pytest.mark.slow
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
        assert done.returncode == 0 and tests.count("pass  cell") == 25, done.stdout + done.stderr
    else:
        assert done.returncode == 1 and tests.count("FAIL") == 25 and "pass  cell" not in tests
        assert "FileNotFoundError" not in tests, "a stub must fail on its own code, not on paths"
