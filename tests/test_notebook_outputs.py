"""A notebook's outputs never cost its code (``autograder/extract/notebook.py``).

- A correct notebook that printed a corpus (100 outputs of 1 MB each) gets full marks
  through the CLI at every isolation level, and the students' preflight reads it.
- The limits still hold: 50 MB of source in the cells is refused with its message; a
  2 GB file is refused by its size before any of it is read; a file that grows while it
  is read is refused once the notebook limit has been read, not at its end.
- The stream holds a few megabytes, however large the outputs.
- The stream gives the cells a whole-file ``json`` decoding gives, on every notebook of
  the repository and on generated ones, with pieces, segments and windows small enough
  that every value is cut somewhere; a damaged output costs nothing.
"""

import csv
import io
import json
import random
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import autograder.extract.notebook as stream
from autograder.extract import SubmissionError, extract, extract_limited
from autograder.extract.notebook import MAX_NOTEBOOK_BYTES, read_cells
from tests.course import LEVELS, isolation_env

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "source" / "tokenization" / "tokenization.ipynb"  # the solved notebook
RELEASE = ROOT / "assignments" / "tokenization"
OUTPUTS, OUTPUT_BYTES = 100, 1000**2


def with_outputs(path: Path) -> Path:
    """The solved notebook with ``OUTPUTS`` outputs of ``OUTPUT_BYTES`` of Shakespeare, as a
    cell that prints the corpus saves them, spread over its code cells."""
    notebook = json.loads(SOURCE.read_text(encoding="utf-8"))
    corpus = (RELEASE / "tinyshakespeare.txt").read_text(encoding="utf-8")[:OUTPUT_BYTES]
    printed = {"name": "stdout", "output_type": "stream",
               "text": corpus.splitlines(keepends=True)}
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    for number in range(OUTPUTS):
        code[number % len(code)]["outputs"].append(printed)
    path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    assert path.stat().st_size > OUTPUTS * OUTPUT_BYTES
    return path


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return with_outputs(tmp_path_factory.mktemp("printed") / "tokenization.ipynb")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.slow
def test_a_correct_notebook_with_100_mb_of_outputs_gets_full_marks(printed, level, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(printed), "--out", str(tmp_path),
         "--assignment", "tokenization"],
        cwd=ROOT, env=isolation_env(level), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Isolation: {level} (" in done.stderr
    [row] = csv.DictReader(io.StringIO((tmp_path / "grades.csv").read_text(encoding="utf-8")))
    assert row["status"] == "graded", row["error"]
    assert row["total"] == row["max_total"] == "100", row


@pytest.mark.slow
def test_the_preflight_reads_a_notebook_with_large_outputs(printed, tmp_path):
    release = tmp_path / "tokenization"
    shutil.copytree(RELEASE, release)
    shutil.copy(printed, release / "tokenization.ipynb")
    done = subprocess.run([sys.executable, "preflight.py", "tokenization.ipynb"], cwd=release,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.startswith("Preflight of tokenization.ipynb: ready to submit")


def test_fifty_megabytes_of_source_in_a_notebook_is_refused(tmp_path):
    path = tmp_path / "pasted.ipynb"
    cell = {"cell_type": "code", "metadata": {}, "outputs": [],
            "source": ["CORPUS = '" + "x" * (51 * 1000**2) + "'\n"]}
    path.write_text(json.dumps({"cells": [cell], "nbformat": 4}), encoding="utf-8")
    with pytest.raises(SubmissionError, match=r"^pasted.ipynb holds over 50 MB outside its "
                                              r"outputs; the grader reads at most 50 MB"):
        extract_limited(path)


def test_a_two_gigabyte_notebook_is_refused_by_its_size_unread(tmp_path):
    path = tmp_path / "huge.ipynb"
    with path.open("wb") as file:
        file.truncate(2 * 1000**3)  # sparse: no disk, and nothing in it is JSON
    with pytest.raises(SubmissionError) as refused:
        extract_limited(path)
    # Read, its zeros would be "not a readable notebook"; refused unread, it is too big.
    assert str(refused.value) == (
        f"huge.ipynb is over {MAX_NOTEBOOK_BYTES // 1000**2} MB; the grader reads notebooks "
        f"of at most {MAX_NOTEBOOK_BYTES // 1000**2} MB, outputs included (clear its outputs)")


class Endless(io.RawIOBase):
    """A notebook whose one output never ends, counting the bytes read from it."""

    def __init__(self) -> None:
        self.head = b'{"cells": [{"cell_type": "code", "outputs": ["'
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        piece = self.head if self.given == 0 else b"x" * len(buffer)
        size = min(len(buffer), len(piece))
        buffer[:size] = piece[:size]
        self.given += size
        return size


def test_a_notebook_that_grows_is_refused_once_the_limit_is_read():
    endless, limit = Endless(), 20 * 1000**2
    with pytest.raises(stream.UnreadableNotebook, match="is over 20 MB; the grader reads"):
        read_cells(io.BufferedReader(endless), "endless.ipynb", max_file=limit)
    assert limit < endless.given <= limit + 2 * stream.CHUNK


@pytest.mark.slow
def test_the_stream_holds_a_few_megabytes(printed):
    tracemalloc.start()
    try:
        with printed.open("rb") as file:
            cells = read_cells(file, printed.name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(cells) == len(json.loads(SOURCE.read_text(encoding="utf-8"))["cells"])
    assert peak < 16 * 1000**2, f"{peak / 1000**2:.0f} MB held to read a notebook"


@pytest.fixture
def small_steps(monkeypatch: pytest.MonkeyPatch):
    """Pieces, segments and windows of a few bytes: every value is cut somewhere, at every
    offset, escapes included; ``choose`` picks a new set of sizes."""
    chooser = random.Random(7)

    def choose() -> None:
        monkeypatch.setattr(stream, "CHUNK", chooser.choice([1, 2, 3, 7, 64]))
        monkeypatch.setattr(stream, "SEGMENT", chooser.choice([1, 2, 3, 5, 16, 1 << 16]))
        monkeypatch.setattr(stream, "WINDOWS", chooser.choice([(), (1,), (4, 16)]))

    return choose


def whole(data: bytes) -> list:
    """The cells as one ``json`` decoding of the whole file gives them."""
    return stream._cells_of(json.loads(data.decode("utf-8-sig")), "x")


NOTEBOOKS = sorted(path.relative_to(ROOT) for folder in ("source", "assignments", "samples")
                   for path in (ROOT / folder).rglob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=str)
def test_the_stream_gives_the_whole_file_s_cells(notebook, small_steps):
    data = (ROOT / notebook).read_bytes()
    small_steps()
    stream.CHUNK = max(stream.CHUNK, 64)  # real notebooks: a byte at a time takes seconds
    try:
        expected = whole(data)
    except ValueError:  # a sample that is no notebook: the stream refuses it too
        with pytest.raises(stream.UnreadableNotebook):
            read_cells(io.BytesIO(data), "x", whole=0)
        return
    assert read_cells(io.BytesIO(data), "x", whole=0) == expected


CHARACTERS = ['a', '"', '\\', '[', ']', '{', '}', ',', ':', ' ', '\n', 'é', '\u2028', '\x01']


def generated(chooser: random.Random) -> bytes:
    """A notebook of odd strings, nested metadata and outputs, keys in any order."""
    def text() -> str:
        return "".join(chooser.choice(CHARACTERS) for _ in range(chooser.randint(0, 20)))

    def value(depth: int = 0) -> object:
        kind = chooser.random()
        if depth > 3 or kind < 0.3:
            return text()
        if kind < 0.4:
            return chooser.choice([None, True, False, 12345678901234567890, -1.5e10, 0])
        if kind < 0.7:
            return [value(depth + 1) for _ in range(chooser.randint(0, 4))]
        return {text(): value(depth + 1) for _ in range(chooser.randint(0, 4))}

    def shuffled(items: dict) -> dict:
        return dict(chooser.sample(list(items.items()), len(items)))

    cells = [shuffled({"cell_type": chooser.choice(["code", "markdown"]), "id": text(),
                       "source": [text() for _ in range(chooser.randint(0, 3))],
                       "metadata": value(), "execution_count": chooser.choice([None, 3]),
                       "outputs": [value() for _ in range(chooser.randint(0, 3))]})
             for _ in range(chooser.randint(0, 6))]
    notebook = shuffled({"cells": cells, "metadata": value(), "nbformat": 4,
                         "nbformat_minor": 5})
    return json.dumps(notebook, indent=chooser.choice([None, 1]),
                      ensure_ascii=chooser.random() < 0.5).encode("utf-8")


def test_the_stream_gives_the_whole_file_s_cells_on_generated_notebooks(small_steps):
    chooser = random.Random(11)
    for _ in range(120):
        data = generated(chooser)
        small_steps()
        assert read_cells(io.BytesIO(data), "x", whole=0) == whole(data), data


def test_a_damaged_output_costs_nothing(tmp_path):
    cell = {"cell_type": "code", "metadata": {}, "source": "def f():\n    return 1\n",
            "outputs": ["OUTPUT"]}
    clean = json.dumps({"cells": [cell], "nbformat": 4})
    for damage in (b'"\xff\xfe not UTF-8"', b'{"text": ["a", ], "b" 1}', b'[1, 2 3]'):
        path = tmp_path / "damaged.ipynb"
        path.write_bytes(clean.encode().replace(b'"OUTPUT"', damage))
        with pytest.raises(ValueError):  # damaged for json, and so for the whole-file path
            json.loads(path.read_bytes())
        assert [st.names for st in extract(path).statements] == [("f",)], damage


def test_a_damaged_cell_source_is_still_refused(tmp_path):
    path = tmp_path / "damaged.ipynb"
    path.write_bytes(b'{"cells": [{"cell_type": "code", "source": "\xff", "outputs": []}]}')
    with pytest.raises(SubmissionError, match=r"damaged.ipynb is not UTF-8 text"):
        extract(path)
    path.write_bytes(b'{"cells": [{"cell_type": "code", "source": ["a" "b"], "outputs": []}]}')
    with pytest.raises(SubmissionError, match=r"damaged.ipynb is not a readable notebook"):
        extract(path)


def test_many_short_values_that_are_not_json_cost_their_size(monkeypatch):
    """A value ``json`` cannot read in its windows is walked in segments; each walk began with
    a whole ``SEGMENT`` (64 KB, blanked twice), so a file of 16-byte damaged outputs cost
    4,000 times its size: 20 s a megabyte, where the grader allows 20 s of CPU in all and the
    similarity report reads a large notebook with no limit at all."""
    walked = []
    segment = stream._Reader._segment

    def counted(self, size, unended):
        plain, end = segment(self, size, unended)
        walked.append(len(plain))
        return plain, end

    monkeypatch.setattr(stream._Reader, "_segment", counted)
    cells = b",".join([b'{"cell_type":"code","source":"x = 1","outputs":[q]}'] * 2000)
    data = b'{"a":"\xff","cells":[' + cells + b'],"nbformat":4}'  # not UTF-8: the stream reads it
    assert read_cells(io.BytesIO(data), "damaged.ipynb") == [
        {"cell_type": "code", "source": "x = 1"}] * 2000
    assert sum(walked) <= 4 * len(data)
