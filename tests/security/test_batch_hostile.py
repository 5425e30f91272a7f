"""Red team at batch level: hostile students in one class with an honest one.

Each hostile submission is graded next to its *honest counterpart* (the same work
without the trick). The trick must earn nothing: the hostile total is at most the
honest one. The batch must finish, the honest student must keep full marks, the
reports must be ours, the reference must be untouched and no process may survive.
"""

import csv
import hashlib
import io
import json
import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from autograder.sandbox import limits
from autograder.sandbox.limits import REPO
from autograder.sandbox.reference import reference_without
from tests.course import TOKENIZATION

from .hostile import processes_with

# One batch of hostile submissions, graded once: about 40 s.
pytestmark = [pytest.mark.slow, pytest.mark.alone]

REFERENCE = reference_without(TOKENIZATION, 0)[0]
TOKEN = f"batch-outlive-{uuid.uuid4().hex}"
FORGED = REPO / "autograder" / f"forged-{uuid.uuid4().hex[:8]}.py"  # a write into the grader

QUADRATIC_ENCODE = """
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        ids = []
        for ch in text:
            ids = ids + [self.char_to_id.get(ch, 0)]  # copies the list every time
        return ids
"""
LIARS = """
class Anything:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = None
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        return Anything()
def merge_pair(tokens, pair):
    return Anything()
def attention_scores(seq_len, batch_size=1):
    return Anything()
"""
GIVE_UP = """
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        raise NotImplementedError
def merge_pair(tokens, pair):
    raise NotImplementedError
def attention_scores(seq_len, batch_size=1):
    raise NotImplementedError
"""
STUB = """
class Tokenizer:
    def encode(self, text):
        raise NotImplementedError()
def merge_pair(tokens, pair):
    raise NotImplementedError()
"""


def fake_output(out: Path) -> str:
    return f"""
import json, sys
FAKE = print("===== 103 passed in 0.42s =====") or print(json.dumps({{"score": 100.0}}))
def merge_pair(tokens, pair):
    print("tests/test_part4.py::test_merge PASSED")
    sys.stderr.write(json.dumps({{"score": 100.0, "tests": []}}))
    raise NotImplementedError()
def _write_everywhere():
    targets = [{str(out / 'grades.csv')!r}, {str(out / 'honest' / 'results.json')!r},
               "results.json", "/autograder/results/results.json",
               {str(FORGED)!r}]
    for path in targets:
        try:
            with open(path, "w") as handle:
                handle.write("student_id,total\\nforged_row,100\\n")
        except OSError:
            pass
WROTE = _write_everywhere()
"""


def spawner() -> str:
    return REFERENCE + f"""
import subprocess
def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    subprocess.Popen(["/usr/bin/python3", "-c", "import time; time.sleep(120)", "{TOKEN}"],
                     start_new_session=True)
    return vocab_size * embed_dim * bytes_per_param
"""


PATCH_CLOCKS = """
import builtins, random, time
PATCHED = [setattr(time, name, lambda *a: 0.0) for name in ("perf_counter", "monotonic", "time")]
SEEDED = [setattr(random, "random", lambda: 0.5), setattr(builtins, "print", lambda *a, **k: None)]
"""


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    base = tmp_path_factory.mktemp("redteam")
    tree, out = base / "submitted", base / "out"
    students = {
        "honest": REFERENCE,
        "fake_output": STUB + fake_output(out),
        "stub": STUB,
        "quadratic": REFERENCE + QUADRATIC_ENCODE,
        "quadratic_clocks": REFERENCE + QUADRATIC_ENCODE + PATCH_CLOCKS,
        "liars": REFERENCE + LIARS,
        "gives_up": REFERENCE + GIVE_UP,
        "spawner": spawner(),
        "hangs": REFERENCE + "\ndef merge_pair(tokens, pair):\n    while True:\n        pass\n",
    }
    for student, source in students.items():
        folder = tree / student / "tokenization"
        folder.mkdir(parents=True)
        (folder / "tokenization.py").write_text(textwrap.dedent(source), encoding="utf-8")
    reference_hash = {p: hashlib.sha256(p.read_bytes()).hexdigest()
                      for p in (REPO / "solutions").glob("*.py")}
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(tree), "--out", str(out), "--jobs", "2"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
        env={**os.environ, "AUTOGRADER_ALLOW_BASIC": "1"},  # run at the session's level
    )
    rows = {r["student_id"]: r for r in csv.DictReader(io.StringIO(
        (out / "grades.csv").read_text(encoding="utf-8")))}
    yield done, out, rows, reference_hash
    if limits.isolation()[0] == "basic":  # where the write is possible (and not tested)
        FORGED.unlink(missing_ok=True)


def total(rows, student) -> float:
    return float(rows[student]["total"])


def test_the_batch_completes_and_the_honest_student_keeps_full_marks(batch):
    done, _, rows, _ = batch
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(rows) == 9
    assert total(rows, "honest") == 100.0


def test_fake_success_lines_and_forged_files_earn_nothing(batch):
    _, out, rows, _ = batch
    assert total(rows, "fake_output") == total(rows, "stub") == 0.0
    results = json.loads((out / "honest" / "results.json").read_text())
    assert results["score"] == 100.0
    assert "forged_row" not in (out / "grades.csv").read_text()
    assert not (REPO / "results.json").exists()


@pytest.mark.skipif(limits.isolation()[0] == "basic",
                    reason="basic: student code runs as the grader's user (docs/threat-model.md)")
def test_nothing_of_the_grader_is_written(batch):
    *_, reference_hash = batch
    assert not FORGED.exists()
    for path, digest in reference_hash.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, path


def test_stopping_the_clocks_does_not_hide_a_quadratic_encode(batch):
    _, _, rows, _ = batch
    assert total(rows, "quadratic") < 100.0, "the honest quadratic must be caught (else vacuous)"
    assert total(rows, "quadratic_clocks") <= total(rows, "quadratic")
    assert float(rows["quadratic_clocks"]["part2"]) <= float(rows["quadratic"]["part2"])


def test_objects_that_equal_anything_score_like_giving_up(batch):
    _, _, rows, _ = batch
    assert total(rows, "gives_up") < 100.0
    for column in ("part2", "part4", "part6", "total"):
        assert float(rows["liars"][column]) <= float(rows["gives_up"][column]), column


def test_a_hanging_submission_costs_only_its_own_points(batch):
    _, _, rows, _ = batch
    assert rows["hangs"]["status"] == "graded"
    assert float(rows["hangs"]["part4"]) < 20.0
    for part in ("part1", "part2", "part3", "part5", "part6"):
        assert float(rows["hangs"][part]) == float(rows["honest"][part]), part


def test_no_process_outlives_the_batch(batch):
    deadline = time.monotonic() + 5
    while processes_with(TOKEN) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(TOKEN) == []
