"""Extraction of what careful students write and of big files.

- A ``try``/``if`` block whose branches only import, define, pass or raise is kept
  (``except ImportError: raise``), and a dropped statement that kept code reads still warns.
- A statement is cut out exactly as ``ast.get_source_segment`` would (CRLF, non-ASCII,
  decorators, several statements on a line).
- Extraction is linear in the file's size: doubling a file of many statements costs about
  twice the time, compared within one run (never absolute seconds).
- A correct submission with a 10 MB corpus pasted in grades to full marks (the toy
  assignment, one grading); a file over 50 MB is refused with a message that says so; a
  child that runs out of CPU is reported as such, not as out of memory.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import autograder.extract as extraction
from autograder.assignment import load
from autograder.extract import SubmissionError, extract, extract_limited
from autograder.extract.rules import Lines
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.cpu_time import least_cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
TRY_RAISE = "try:\n    from collections import Counter\nexcept ImportError:\n    raise\n"


def names(tmp_path: Path, source: str) -> list[tuple[str, ...]]:
    path = tmp_path / "s.py"
    path.write_text(source, encoding="utf-8")
    return [st.names for st in extract(path).statements]


@pytest.mark.parametrize("block", [
    TRY_RAISE,
    "try:\n    import numpy as np\nexcept ImportError as exc:\n"
    "    raise ImportError('numpy is needed') from exc\n",
    "import sys\nif sys.version_info < (3, 11):\n    raise RuntimeError('3.11 or newer')\n"
    "else:\n    LIMIT = 3\n",
])
def test_a_block_that_only_imports_defines_or_raises_is_kept(tmp_path, block):
    kept = names(tmp_path, block + "def f():\n    return 1\n")
    assert kept[-1] == ("f",) and len(kept) == block.count("\nif ") + 2, kept


@pytest.mark.parametrize("block", [
    "try:\n    from collections import Counter\nexcept ImportError:\n"
    "    raise make_error(load_corpus())\n",
    "try:\n    from collections import Counter\nexcept ImportError:\n    print('no')\n",
])
def test_a_block_that_runs_anything_else_is_dropped_and_warned_about(tmp_path, block):
    path = tmp_path / "s.py"
    path.write_text(block + "def f(text):\n    return Counter(text)\n", encoding="utf-8")
    code = extract(path)
    assert [st.names for st in code.statements] == [("f",)]
    assert len(code.warnings) == 1 and "sets Counter" in code.warnings[0]


def cpu_seconds(path: Path) -> float:
    """The least CPU time of three extractions of ``path``."""
    return least_cpu_seconds(lambda: extract(path))


def test_extraction_is_linear_in_the_file_size(tmp_path):
    def write(count: int) -> Path:
        path = tmp_path / f"many{count}.py"
        path.write_text("".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(count))
                        + f"CORPUS = {'ab ' * 100 * count!r}\n", encoding="utf-8")
        return path

    small, big = cpu_seconds(write(400)), cpu_seconds(write(3200))
    # 8 times the file: linear is about 8 times the time, quadratic 64 times.
    assert big < 24 * small, (small, big)


def test_a_correct_submission_with_a_10_mb_corpus_gets_full_marks(tmp_path):
    toy = load(ROOT / "tests" / "toy")
    path = tmp_path / "student.py"
    path.write_text(TRY_RAISE + "CORPUS = " + repr("To be, or not to be. " * 500_000)
                    + "\n" + reference_without(toy, 0)[0], encoding="utf-8")
    assert path.stat().st_size > 10 * 1000**2
    result = grade_file(path, "student", assignment=toy, timeout=120)
    assert result["status"] == "graded", result["error"]
    assert result["score"] == result["max_score"] == 10, [t["output"] for t in result["tests"]]


def test_a_file_over_50_mb_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "huge.py"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("DATA = '")
        for _ in range(51):
            handle.write("x" * 1000**2)
        handle.write("'\n")
    with pytest.raises(SubmissionError, match=r"huge.py is 51 MB; the grader reads files of "
                                              r"at most 50 MB"):
        extract_limited(path)


def test_a_child_out_of_cpu_is_reported_as_cpu(tmp_path):
    """The real child, its limits set by ``_main``, with one second of CPU, on a file
    whose extraction takes longer: SIGXCPU, reported as CPU, never as memory."""
    path = tmp_path / "long.py"
    path.write_text("".join(f"x{i} = [{i}, {i}]\n" for i in range(400_000)), encoding="utf-8")
    script = ("import sys, autograder.extract as e\ne.EXTRACT_CPU = 1\n"
              "sys.exit(e._main(sys.argv[1:]))")

    def one_second(file: Path, wall: float) -> tuple[int | None, bytes, bytes]:
        done = subprocess.run([sys.executable, "-S", "-c", script, str(file)], cwd=ROOT,
                              capture_output=True, timeout=wall)
        return done.returncode, done.stdout, done.stderr

    with pytest.raises(SubmissionError) as error:
        extract_limited(path, run=one_second)
    assert str(error.value) == f"reading the file took over {extraction.EXTRACT_CPU} s of CPU"


@pytest.mark.parametrize("source", [
    "@decorate\n@twice(2)\ndef décoré(x):  # é\n    return 'ü' * x\nA = 1; B = 'ß'; C = 3\n",
    "x = 1\r\ndef crlf():\r\n    return 'é'\r\nY = (1,\r\n     2)\r\n",
    "if True:\n    Z = '\u2028\x0c'\nW = 'a\\\nb'; V = 2\nclass K:\n    pass\n",
])
def test_a_statement_is_cut_out_as_ast_would(source):
    """``Lines`` agrees with ``ast.get_source_segment`` (which rescans the source per call)."""
    lines = Lines(source)
    for node in ast.parse(source).body:
        decorators = getattr(node, "decorator_list", [])
        start = min([d.lineno for d in decorators] + [node.lineno])
        span = ast.Pass(lineno=start, col_offset=0 if decorators else node.col_offset,
                        end_lineno=node.end_lineno, end_col_offset=node.end_col_offset)
        expected = "\n" * (start - 1) + ast.get_source_segment(source, span)
        assert lines.statement(node) == expected
