"""The Gradescope bundle: what the zip holds, and run_autograder on a fake /autograder."""

import importlib.metadata
import json
import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from autograder.gradescope.bundle import build
from autograder.report.schema import gradescope_problems
from autograder.sandbox.reference import reference_without
from tests.course import TOKENIZATION

FULL = float(sum(TOKENIZATION.points.values()))
REQUIREMENTS = Path("autograder/gradescope/requirements.txt")


def pinned() -> list[Requirement]:
    text = (Path(__file__).resolve().parents[1] / REQUIREMENTS).read_text()
    return [Requirement(line) for line in text.splitlines() if line and not line.startswith("#")]


def closure(requirements: list[Requirement]) -> set[str]:
    """The installed distributions these requirements pull in, dependencies included."""
    seen: set[str] = set()
    todo = list(requirements)
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        dist = importlib.metadata.distribution(req.name)
        if dist.metadata["Name"].lower() not in seen:
            seen.add(dist.metadata["Name"].lower())
            todo += [Requirement(r) for r in dist.requires or []]
    return seen


@pytest.fixture(scope="module")
def lean_python(tmp_path_factory) -> Path:
    """A venv holding only requirements.txt's packages (linked from this environment),
    as setup.sh builds on Gradescope: no nbgrader, no jupyter, no matplotlib."""
    venv = tmp_path_factory.mktemp("lean") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", where],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = Path(sysconfig.get_path("purelib"))
    for name in closure(pinned()):
        for file in importlib.metadata.distribution(name).files or []:
            top = ours / file.parts[0]
            if file.parts[0] != ".." and top.exists() and not (site / file.parts[0]).exists():
                (site / file.parts[0]).symlink_to(top)
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("zip") / "autograder.zip", TOKENIZATION)


def test_the_zip_has_gradescope_entry_points_and_only_the_grader(bundle):
    with zipfile.ZipFile(bundle) as archive:
        infos = {info.filename: info for info in archive.infolist()}
    for script in ("setup.sh", "run_autograder"):
        assert infos[script].external_attr >> 16 & 0o111, f"{script} is not executable"
    names = set(infos)
    assert "solutions/tokenization/bpe.py" in names and "autograder/gradescope/run.py" in names
    assert any(n.startswith("autograder/hidden/tokenization/test_part") for n in names)
    student_side = ("tests", "samples", "source", "assignments")
    assert not [n for n in names if n.split("/")[0] in student_side]
    assert not [n for n in names if "__pycache__" in n]
    # One assignment per bundle, and it names it.
    assert not [n for n in names if "production_tokenizers" in n]
    assert archive_text(bundle, "autograder/gradescope/ASSIGNMENT") == "tokenization\n"


def archive_text(bundle, name: str) -> str:
    with zipfile.ZipFile(bundle) as archive:
        return archive.read(name).decode("utf-8")


def test_the_zip_is_reproducible(bundle, tmp_path):
    assert build(tmp_path / "again.zip", TOKENIZATION).read_bytes() == bundle.read_bytes()


def test_setup_script_is_valid_bash(bundle, tmp_path):
    with zipfile.ZipFile(bundle) as archive:
        archive.extract("setup.sh", tmp_path)
    assert subprocess.run(["bash", "-n", str(tmp_path / "setup.sh")]).returncode == 0


def run_autograder(bundle: Path, root: Path, python: Path | str = sys.executable) -> dict:
    """Unpack the zip into ROOT/source and run its run_autograder, as Gradescope does."""
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    script = root / "source" / "run_autograder"
    script.chmod(0o755)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(python)}
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    assert gradescope_problems(results) == []
    return results


def test_the_pins_are_the_versions_the_tests_run_with():
    for req in pinned():
        (spec,) = req.specifier
        assert spec.operator == "==", f"{req} is not pinned"
        assert importlib.metadata.version(req.name) == spec.version, req


def test_the_lean_environment_lacks_the_course_tools(lean_python):
    for module in ("nbgrader", "matplotlib", "tqdm", "jupytext"):
        found = subprocess.run([str(lean_python), "-c", f"import {module}"], capture_output=True)
        assert found.returncode != 0, f"{module} is importable: the test proves nothing"


@pytest.mark.slow
def test_the_reference_scores_full_marks_with_only_the_pinned_packages(
    bundle, tmp_path, lean_python
):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "tokenization.py").write_text(reference_without(TOKENIZATION, 0)[0])
    results = run_autograder(bundle, tmp_path, lean_python)
    assert results["score"] == FULL
    assert all(t["status"] == "passed" for t in results["tests"])


@pytest.mark.slow
def test_a_stub_in_a_nested_folder_scores_zero(bundle, tmp_path):
    nested = tmp_path / "submission" / "my-upload"
    nested.mkdir(parents=True)
    (nested / "tokenization.py").write_text(
        "class Tokenizer:\n    def encode(self, text):\n        raise NotImplementedError()\n"
    )
    results = run_autograder(bundle, tmp_path)
    assert results["score"] == 0
    assert results["tests"]
    given = results["extra_data"]["provenance"]  # what graded it, as `grade` writes it
    assert given["assignment"] == "tokenization" and given["isolation"] == results[
        "extra_data"]["isolation"]
    assert all(given[key] for key in ("grader", "suite_fingerprint", "graded_at",
                                      "submission_sha256")), given


def test_an_empty_upload_gets_results_that_say_why(bundle, tmp_path):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "notes.txt").write_text("I forgot the notebook")
    results = run_autograder(bundle, tmp_path)
    assert results["score"] == 0
    assert "no notebook or .py file found" in results["output"]


def test_a_submission_that_steals_the_reference_scores_zero_on_gradescope(bundle, tmp_path):
    from security.test_reference_unreachable import STEALER

    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "tokenization.py").write_text(STEALER)
    results = run_autograder(bundle, tmp_path)
    assert results["score"] == 0, [t["name"] for t in results["tests"] if t["score"]]


@pytest.mark.slow
def test_gradescope_workers_run_with_the_chosen_hash_seed(bundle, tmp_path):
    """Part 2's encoder is right only under the main worker's seed (a worker with a
    random seed would score Part 2 at random)."""
    from autograder.suite.fixtures import HASH_SEED
    from tests.test_hash_seed import hash_under

    seed_bound = textwrap.dedent(f"""

        class CharTokenizer(CharTokenizer):
            def encode(self, text):
                ids = super().encode(text)
                return ids if hash("a") == {hash_under(HASH_SEED)} else ids[::-1] + [0]
        """)
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "tokenization.py").write_text(
        reference_without(TOKENIZATION, 0)[0] + seed_bound)
    results = run_autograder(bundle, tmp_path)
    assert results["score"] == FULL, [t["name"] for t in results["tests"] if not t["score"]]


def failures_with(bundle, tmp_path, added: str) -> dict[str, str]:
    """Grade tokenization's reference with ``added`` appended through the entry point: the
    output of each test that lost points, by name."""
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "tokenization.py").write_text(
        reference_without(TOKENIZATION, 0)[0] + textwrap.dedent(added))
    results = run_autograder(bundle, tmp_path)
    return {t["name"]: t["output"] for t in results["tests"] if t["score"] < t["max_score"]}


@pytest.mark.slow
def test_a_call_that_spins_is_stopped_by_its_cpu_budget_on_gradescope(bundle, tmp_path):
    """The bundle carries the suite's ``CALL_COSTS.json``: Part 4's ``merge_pair`` looping
    forever is stopped for its CPU time (``suite/budget.py``), not after the 5 s wall."""
    failed = failures_with(bundle, tmp_path, """

        def merge_pair(tokens, pair):
            while True:
                pass
        """)
    assert any("of CPU time, the most this test allows" in out for out in failed.values()), failed
    assert all(name.startswith("Part 4:") for name in failed), failed


@pytest.mark.slow
def test_a_call_that_sleeps_is_stopped_after_the_sleep_limit_on_gradescope(bundle, tmp_path):
    """``suite/asleep.py`` through the entry point: Part 2's ``encode`` sleeping is stopped
    by the watch (its message; the 5 s wall would say "timed out after 5 s"), and only
    Part 2 pays."""
    failed = failures_with(bundle, tmp_path, """

        class CharTokenizer(CharTokenizer):
            def encode(self, text):
                __import__("time").sleep(3600)
        """)
    assert any(out.startswith("timed out: one call sat still for 1 s") for out in failed.values()
               ), failed
    assert failed and all(name.startswith("Part 2:") for name in failed), failed


@pytest.mark.slow
def test_a_class_body_that_loops_is_stopped_for_its_cpu_on_gradescope(bundle, tmp_path):
    """``student.LOAD_CPU`` through the entry point: a loop in Part 3's class body stops
    that part's load for its CPU (the wall limit would say "timed out after 10 s"), and
    only Part 3 pays."""
    failed = failures_with(bundle, tmp_path, """

        class BPETokenizer(BPETokenizer):
            while True:
                pass
        """)
    assert failed and all(name.startswith("Part 3:") for name in failed), failed
    assert all(out.startswith("loading your code stopped: it used over 2.5 s of CPU time")
               for out in failed.values()), failed
