"""Red team at the CLI: no silent weak level (category 7), students kept apart (category 3).

- The level is printed before grading and written into summary.md and each result;
  ``basic`` is refused without ``--allow-basic`` and marks every report when allowed;
  an automatic fall-back below the best level is a loud warning.
- At the drop level the CLI refuses a submissions tree other users can read, keeps
  the reports to itself, and one student's code cannot kill another's workers.
"""

import csv
import html
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from autograder.sandbox import limits
from autograder.sandbox.reference import reference_without
from tests.course import TOKENIZATION

from .hostile import processes_with

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = reference_without(TOKENIZATION, 0)[0]
LEVEL = limits.isolation()[0]


def run_cli(*args: object, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=env or dict(os.environ))


def level_env(level: str, **extra: str) -> dict:
    env = {**os.environ, "AUTOGRADER_ISOLATION": level, **extra}
    env.pop(limits.PROBED_ENV, None)
    env.pop("AUTOGRADER_ALLOW_BASIC", None)
    return {**env, **extra}


@pytest.fixture(scope="module")
def one_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("levels") / "reference.py"
    path.write_text(REFERENCE, encoding="utf-8")
    return path


@pytest.mark.slow
def test_the_level_is_printed_and_in_every_report(one_file, tmp_path):
    done = run_cli(one_file, "--out", tmp_path,
                   env={**os.environ, "AUTOGRADER_ALLOW_BASIC": "1"})
    assert done.returncode == 0, done.stderr
    assert f"Isolation: {LEVEL} (" in done.stderr.splitlines()[0]
    assert f"Isolation: {LEVEL}." in (tmp_path / "summary.md").read_text()
    results = json.loads((tmp_path / "reference" / "results.json").read_text())
    assert results["extra_data"]["isolation"] == LEVEL


def test_basic_is_refused_without_an_explicit_opt_in(one_file, tmp_path):
    done = run_cli(one_file, "--out", tmp_path, env=level_env("basic"))
    assert done.returncode == 2
    assert "--allow-basic" in done.stderr and "your own user" in done.stderr
    assert not (tmp_path / "grades.csv").exists()


@pytest.mark.slow
def test_basic_with_the_opt_in_marks_every_report(one_file, tmp_path):
    done = run_cli(one_file, "--out", tmp_path, env=level_env("basic", AUTOGRADER_ALLOW_BASIC="1"))
    assert done.returncode == 0, done.stderr
    mark = limits.PROMISES["basic"]
    assert "Graded at the basic level" in (tmp_path / "summary.md").read_text()
    results = json.loads((tmp_path / "reference" / "results.json").read_text())
    assert results["extra_data"]["isolation"] == "basic" and mark in results["output"]
    assert html.escape(mark) in (tmp_path / "reference" / "feedback.html").read_text()
    assert results["score"] == 100


@pytest.mark.skipif(os.geteuid() != 0, reason="the fall-back from root needs root")
@pytest.mark.slow
def test_an_automatic_fall_back_is_a_loud_warning(one_file, tmp_path):
    # No unshare on the PATH: namespaces are out of reach, the grader falls back to drop.
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("setpriv", "kill"):
        (tools / tool).symlink_to(f"/usr/bin/{tool}")
    env = level_env("", PATH=str(tools))
    env.pop("AUTOGRADER_ISOLATION")
    done = run_cli(one_file, "--out", tmp_path / "out", env=env)
    assert done.returncode == 0, done.stderr
    assert "Isolation: drop" in done.stderr
    assert "WARNING: the sandbox fell back to the drop level" in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="the drop level needs root")
@pytest.mark.slow
def test_at_drop_a_tree_other_users_can_read_is_refused(tmp_path):
    base = Path(tempfile.mkdtemp(prefix="open-tree-"))  # a world-readable folder of its own
    try:
        tree = base / "submitted"
        (tree / "ann" / "tokenization").mkdir(parents=True)
        (tree / "ann" / "tokenization" / "tokenization.py").write_text(REFERENCE)
        base.chmod(0o755)
        done = run_cli(tree, "--out", tmp_path / "out", env=level_env("drop"))
        assert done.returncode == 2 and "chmod o-rwx" in done.stderr, done.stderr
        base.chmod(0o700)
        done = run_cli(tree, "--out", tmp_path / "out", env=level_env("drop"))
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "out").stat().st_mode & 0o077 == 0  # the reports and the cache
    finally:
        shutil.rmtree(base)


# Kills every process of a worker's user it can see (never the grader's or the machine's:
# only users from 60000 up), again and again while it loads, next to an honest student.
KILLER = textwrap.dedent("""
    import os, signal, time
    def _kill_workers(seconds):
        end, killed = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            for entry in os.listdir("/proc"):
                try:
                    status = open(f"/proc/{entry}/status").read()
                    uid = int(status.split("Uid:")[1].split()[0])
                    if uid >= 60000 and int(entry) != os.getpid():
                        os.kill(int(entry), signal.SIGKILL)
                        killed += 1
                except (OSError, ValueError, IndexError):
                    pass
            time.sleep(0.02)
        return killed
    class Start:
        KILLED = _kill_workers(4)
""")


@pytest.mark.slow  # two gradings, one of them slowed by a killer that runs for 4 s
@pytest.mark.skipif(LEVEL == "basic", reason="basic grades one student at a time")
@pytest.mark.alone
def test_one_student_cannot_kill_another_students_workers(tmp_path):
    tree = tmp_path / "submitted"
    for student, source in {"honest": REFERENCE, "killer": REFERENCE + KILLER}.items():
        (tree / student / "tokenization").mkdir(parents=True)
        (tree / student / "tokenization" / "tokenization.py").write_text(source)
    done = run_cli(tree, "--out", tmp_path / "out", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    rows = {r["student_id"]: r for r in csv.DictReader(io.StringIO(
        (tmp_path / "out" / "grades.csv").read_text()))}
    assert rows["honest"]["status"] == "graded" and float(rows["honest"]["total"]) == 100.0
    assert not limits.survivors()


def later_writer(target: Path, token: str) -> str:
    """Student code that leaves a detached child (own session, empty environment) to
    overwrite ``target`` once the batch is over."""
    return textwrap.dedent(f"""
        import os, sys
        def _later():
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    later = "import time; time.sleep(6); open({str(target)!r}, 'w').write('forged')"
                    python = "/usr/bin/python3"
                    os.execve(python, [python, "-c", later, {token!r}], {{}})
                os._exit(0)
            os.wait()
            return 1
        class Start:
            LATER = _later()
    """)


@pytest.mark.slow  # a grading, then 8 s of waiting for a writer that must never come
@pytest.mark.alone
def test_nothing_rewrites_the_reports_after_the_batch(tmp_path):
    # At every level, basic included (opted in): nothing of a student may still run
    # when the reports are written, so nothing can change them afterwards.
    token = f"rewrite{uuid.uuid4().hex}"
    out = tmp_path / "out"
    tree = tmp_path / "submitted"
    (tree / "mallory" / "tokenization").mkdir(parents=True)
    (tree / "mallory" / "tokenization" / "tokenization.py").write_text(
        REFERENCE + later_writer(out / "grades.csv", token))
    done = run_cli(tree, "--out", out, env={**os.environ, "AUTOGRADER_ALLOW_BASIC": "1"})
    assert done.returncode == 0, done.stderr
    before = (out / "grades.csv").read_text()
    time.sleep(8)
    assert (out / "grades.csv").read_text() == before and "forged" not in before
    assert processes_with(token) == []
