"""Red team on the merged grader: the attacks of a review that gained something.

Each test replays one attack that scored points, read the reference or held the
scoring process before its fix (the review's notes list the attacks that failed):

- quadratic work hidden from the timing tests outside the worker's process tree: a
  grandchild orphaned by a double fork, or a child made with ``clone(CLONE_PARENT)``
  (drop, basic, Gradescope). The worker adopts its orphans; its filter keeps it so and
  refuses ``CLONE_PARENT``;
- work done on the timing inputs while they arrive (a patched ``put`` of the worker's own
  protocol code), before the clock started: the inputs are now sent inside the clock;
- a reply slow to rebuild (numbers that all hash alike) held the scoring process for
  minutes; a reference answer too long for JSON broke the scorer's reply;
- io_uring opened a TCP connection past the filter's socket rules (drop, basic): the
  filter now refuses io_uring;
- network namespaces made and dropped in a loop had the kernel tear them down on the
  other core, where a classmate's grading was kept: correct gradings took 2 to 3 times
  as long (root and drop). The filter refuses new namespaces and CPU affinity;
- a made-up place of an error ("raised at cell 97, line 9800") spelled hidden inputs out
  in the feedback: only real lines of the submission are shown;
- at the drop level the CLI graded with the checkout open to the workers' users: reading
  ``solutions/`` scored 93 with no code of its own. The CLI now closes the secrets first.
"""

import json
import os
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.gradescope.bundle import build
from autograder.sandbox import StudentError, Worker, WorkerFailure, limits
from autograder.suite.run import grade_file
from tests.catalogue.catalogue import reference_source
from tests.course import TOKENIZATION

from .hostile import submission
from .review_sources import HIDDEN_WORK, NAMESPACES, PRECOMPUTE, RING_CALL, THIEF

pytestmark = pytest.mark.timeout(600)
ROOT = Path(__file__).resolve().parents[2]
LEVELS = ["root", "drop", "basic"] if os.geteuid() == 0 else ["userns", "basic"]




def _hidden_work(how: str) -> str:
    return reference_source(TOKENIZATION) + HIDDEN_WORK.replace("HOW", repr(how))


# Gradescope's level: the entry-point test below grades the orphan there, so the direct
# test leaves that one pair out (it grades every other level and way).
GRADESCOPE_LEVEL = "drop" if os.geteuid() == 0 else "userns"


@pytest.mark.slow
@pytest.mark.parametrize(("level", "how"), [
    (level, how) for level in LEVELS for how in ("orphan", "sibling")
    if (level, how) != (GRADESCOPE_LEVEL, "orphan")])
@pytest.mark.alone
def test_work_outside_the_workers_tree_still_counts_in_the_timing(
        tmp_path, monkeypatch, level, how):
    monkeypatch.setenv("AUTOGRADER_ISOLATION", level)
    monkeypatch.setenv("AUTOGRADER_ALLOW_BASIC", "1")
    monkeypatch.delenv(limits.PROBED_ENV, raising=False)
    path = tmp_path / "student.py"
    path.write_text(_hidden_work(how), encoding="utf-8")
    result = grade_file(path, "hider", assignment=TOKENIZATION, timeout=300)
    assert result["status"] == "graded", result["error"]
    tests = {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == 2}
    assert tests["test_encode_linear_time"]["status"] == "failed"
    assert tests["test_decode_linear_time"]["status"] == "passed"  # the control


@pytest.mark.slow
@pytest.mark.alone
def test_work_in_an_orphan_counts_through_the_gradescope_entry_point(tmp_path):
    # Gradescope's Docker has no namespaces: the drop level, the one the trick beat.
    with zipfile.ZipFile(build(tmp_path / "autograder.zip", TOKENIZATION)) as archive:
        archive.extractall(tmp_path / "source")
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "tokenization.py").write_text(_hidden_work("orphan"))
    script = tmp_path / "source" / "run_autograder"
    script.chmod(0o755)
    env = {**os.environ, "AUTOGRADER_ROOT": str(tmp_path), "AUTOGRADER_PYTHON": sys.executable,
           "AUTOGRADER_ISOLATION": GRADESCOPE_LEVEL}
    env.pop(limits.PROBED_ENV, None)
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    part2 = [t for t in results["tests"] if t["name"].startswith("Part 2: ")]
    (timing,) = [t for t in part2 if t["name"].startswith("Part 2: encode takes time")]
    (control,) = [t for t in part2 if t["name"].startswith("Part 2: decode takes time")]
    assert timing["score"] == 0, timing
    assert control["score"] == control["max_score"], control  # as the direct test's control




@pytest.mark.slow  # the timing red team, like the tests above
@pytest.mark.alone
def test_work_done_while_the_inputs_arrive_counts_in_the_timing(tmp_path):
    path = tmp_path / "student.py"
    path.write_text(reference_source(TOKENIZATION) + PRECOMPUTE, encoding="utf-8")
    result = grade_file(path, "early", assignment=TOKENIZATION, timeout=300)
    assert result["status"] == "graded", result["error"]
    tests = {t["id"].split("::")[-1]: t for t in result["tests"] if t["part"] == 2}
    assert tests["test_encode_linear_time"]["status"] == "failed"
    assert tests["test_encode_matches_reference"]["status"] == "passed"  # the answers are right


SLOW_TO_REBUILD = '''
P = 2 ** 61 - 1  # hash(k * P) == 0 for every k: a set of them is built in quadratic time
_SAME_HASH = [P * k for k in range(1, 40_000)]

class _Colliding(set):
    def __iter__(self):  # the worker sends the numbers without building the set itself
        return iter(_SAME_HASH)

def merge_pair(tokens, pair):
    return _Colliding()
'''


def test_a_reply_slow_to_rebuild_fails_like_a_hang(tmp_path):
    # Unbounded, this 1 MB reply took the scoring process 13 s of CPU (4 MB: minutes).
    code = submission(tmp_path, SLOW_TO_REBUILD)
    with (Worker(TOKENIZATION, code, part=4, timeout=1) as worker,
          pytest.raises(WorkerFailure) as failure):
        worker.call("merge_pair", [], ("a", "b"))
    assert failure.value.kind == "timeout"


def test_a_reference_answer_too_long_for_json_is_an_error_in_the_worker(tmp_path):
    code = submission(tmp_path, """
        def merge_pair(tokens, pair):
            try:
                return attention_scores(10 ** 4299)
            except Exception as exc:
                return [type(exc).__name__]
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        assert worker.call("merge_pair", [], ("a", "b")) == ["RuntimeError"]


@pytest.mark.slow
def test_no_network_through_io_uring(tmp_path):
    # The filter refused socket() and connect(), but io_uring's requests did both unseen:
    # at the drop level (Docker, Gradescope) a hidden input went out to 127.0.0.1.
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(5)
    port = listener.getsockname()[1]
    code = submission(tmp_path, RING_CALL.replace("PORT", str(port)))
    with listener, Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        outcome = worker.call("merge_pair", ["a hidden input"], ("a", "b"))
        with pytest.raises(TimeoutError):
            listener.accept()[0].recv(100)
    assert outcome != ["sent"]


def test_no_new_namespaces_and_no_other_cpus(tmp_path):
    code = submission(tmp_path, NAMESPACES)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        tried = worker.call("merge_pair", [], ("a", "b"))
    cgroups = tried.pop("cgroups")
    assert tried == {"unshare": 1, "setns": 1, "clone": 1, "affinity": 1, "core": 1}  # EPERM
    if limits.isolation()[0] in ("root", "userns"):  # covered (without namespaces the
        assert cgroups == 13  # tree is root's: the workers' users cannot write it)


def test_a_made_up_place_of_an_error_carries_nothing_out(tmp_path):
    # "raised at cell C, line L" shows even when a test's inputs are hidden: numbers made
    # up from the input (cell 97, line 9800: "a", "b") carried hidden inputs out.
    code = submission(tmp_path, """
        def merge_pair(tokens, pair):
            if tokens:
                exec(compile("\\n" * 9799 + "raise KeyError", "<cell 97, line 1>", "exec"))
            raise KeyError
    """)
    with Worker(TOKENIZATION, code, part=4, timeout=10) as worker:
        errors = []
        for tokens in (["a"], []):
            with pytest.raises(StudentError) as error:
                worker.call("merge_pair", tokens, ("a", "b"))
            errors.append(error.value.where)
    assert errors == ["", "line 5"]  # a real line of the submission still shows




def test_a_reply_size_made_up_carries_nothing_out(tmp_path):
    # A length header over the limit was quoted in the feedback: 31 bits of a hidden
    # input per test, whatever the test's visibility.
    code = submission(tmp_path, """
        import os, struct, sys
        def merge_pair(tokens, pair):
            os.write(int(sys.argv[2]), struct.pack(">I", 0x7F000000 + len(tokens)))
            os.read(0, 1)
    """)
    with (Worker(TOKENIZATION, code, part=4, timeout=5) as worker,
          pytest.raises(WorkerFailure) as failure):
        worker.call("merge_pair", ["hidden"], ("a", "b"))
    assert failure.value.kind == "protocol" and str(0x7F000001) not in failure.value.detail


@pytest.mark.skipif(os.geteuid() != 0, reason="the drop level needs root")
@pytest.mark.slow
def test_at_drop_the_cli_closes_the_checkout_before_student_code_runs(tmp_path):
    # A fresh clone is world-readable: open the secrets as a clone has them (the CLI, or
    # an earlier run of this test, may have closed them already).
    for name in limits.SECRETS:
        if (ROOT / name).is_dir():
            (ROOT / name).chmod((ROOT / name).stat().st_mode | 0o005)
    tree = tmp_path / "submitted"
    (tree / "thief" / "tokenization").mkdir(parents=True)
    (tree / "thief" / "tokenization" / "tokenization.py").write_text(THIEF)
    env = {**os.environ, "AUTOGRADER_ISOLATION": "drop"}
    env.pop(limits.PROBED_ENV, None)
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(tree), "--out",
                           str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "out" / "thief" / "results.json").read_text())
    assert results["score"] == 0, [t["name"] for t in results["tests"] if t["score"]]
    assert not (ROOT / "solutions").stat().st_mode & 0o007

