"""``python -m autograder grade`` end to end: real submissions, real subprocesses.

A small class (a correct submission, a stub, a broken notebook, a student with nothing
to grade, and two who submitted nothing: no assignment folder, an empty one) is graded
once; the tests then read what it wrote.
"""

import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.collect import NOTHING_FOUND, find_submissions, pick_file
from autograder.report.schema import check_grades_file, check_gradescope_file
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "submitted"
SUITE = ROOT / "autograder" / "hidden" / "tokenization"


def run_cli(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autograder", *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
    )


def copy_sample(sample: str, tree: Path, student: str) -> None:
    shutil.copytree(SAMPLES / sample / "tokenization", tree / student / "tokenization")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, Path]:
    base = tmp_path_factory.mktemp("cli")
    tree = base / "submitted"
    copy_sample("alice_correct", tree, "good")
    copy_sample("carol_stub", tree, "stub")
    copy_sample("erin_broken", tree, "broken")
    (tree / "nothing" / "tokenization").mkdir(parents=True)
    (tree / "nothing" / "tokenization" / "README.txt").write_text("no code here")
    (tree / "absent").mkdir()  # submitted nothing at all
    (tree / "hollow" / "tokenization" / ".ipynb_checkpoints").mkdir(parents=True)
    out = base / "out"
    return run_cli("grade", tree, "--out", out, "--jobs", "2"), out


def rows(out: Path) -> dict[str, dict[str, str]]:
    text = (out / "grades.csv").read_text(encoding="utf-8")
    return {r["student_id"]: r for r in csv.DictReader(io.StringIO(text))}


@pytest.mark.slow
def test_batch_completes_despite_failures(graded) -> None:
    proc, _ = graded
    assert proc.returncode == 0, proc.stderr
    assert "6 students: 2 graded, 2 failed to grade, 2 missing" in proc.stdout
    failed = proc.stdout.split("Failed to grade:")[1].split("Missing")[0]
    assert "broken:" in failed and "nothing:" in failed and "absent" not in failed
    assert "Missing (nothing submitted for tokenization): absent, hollow" in proc.stdout
    assert "Mean per part" in proc.stdout and "Reports in" in proc.stdout


@pytest.mark.slow
def test_progress_into_a_log_is_one_line_per_student_with_the_counts(graded) -> None:
    proc, _ = graded
    lines = [line for line in proc.stderr.splitlines() if line.endswith("]")]
    assert len(lines) == 6 and "\r" not in proc.stderr, proc.stderr
    assert lines[-1].endswith("[finished 2, failed 2, missing 2, remaining 0]"), lines
    assert any(line.startswith("absent: missing (nothing submitted)") for line in lines)
    assert any(line.startswith("good: 100 / 100") for line in lines), lines


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_is_a_tqdm_bar_with_the_counts() -> None:
    from autograder.cli import Progress

    screen = Terminal()
    progress = Progress(2, screen)
    for done, (student, status) in enumerate([("a", "graded"), ("b", "error")], start=1):
        progress({"student_id": student, "status": status, "score": 100.0,
                  "max_score": 100.0, "error": "crash", "seconds": 1.0}, done, 2)
    progress.close()
    text = screen.getvalue()
    assert "\r" in text and "2/2" in text, text
    assert "finished 1, failed 1, missing 0, remaining 0" in text
    assert "b: not graded: crash" in text


@pytest.mark.slow
def test_one_row_per_student_with_reasons(graded) -> None:
    _, out = graded
    check_grades_file(out / "grades.csv", TOKENIZATION)
    grades = rows(out)
    assert list(grades) == ["absent", "broken", "good", "hollow", "nothing", "stub"]
    assert grades["good"]["status"] == "graded"
    assert float(grades["good"]["total"]) == float(grades["good"]["max_total"]) == 100
    assert grades["stub"]["status"] == "graded" and float(grades["stub"]["total"]) == 0
    assert grades["broken"]["status"] == "error" and grades["broken"]["error"]
    assert grades["nothing"]["status"] == "error"
    assert grades["nothing"]["error"].startswith(NOTHING_FOUND)  # a file exists: failed
    for student, why in [("absent", "does not exist"), ("hollow", "is empty")]:
        row = grades[student]
        assert row["status"] == "missing" and why in row["error"], row
        assert [row[f"part{p}"] for p in TOKENIZATION.parts] + [row["total"]] == [""] * 7


@pytest.mark.slow
def test_missing_students_get_no_page_and_are_not_failures(graded) -> None:
    _, out = graded
    assert not (out / "absent").exists() and not (out / "hollow").exists()
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "6 students: 2 graded, 2 failed to grade, 2 missing" in summary
    failed = summary.split("## Failed to grade")[1].split("##")[0]
    assert "broken" in failed and "absent" not in failed and "hollow" not in failed
    missing = summary.split("## Missing")[1].split("##")[0]
    assert "absent" in missing and "hollow" in missing and "broken" not in missing
    from PIL import Image

    for png in ("score_histogram.png", "test_pass_rates.png", "part_means.png"):
        title = Image.open(out / png).text["Title"]
        assert title.endswith("2 graded; 2 failed to grade (not shown); 2 missing "
                              "(nothing submitted)"), (png, title)


@pytest.mark.slow
def test_every_report_file_is_written(graded) -> None:
    _, out = graded
    for student in ("broken", "good", "nothing", "stub"):
        check_gradescope_file(out / student / "results.json")
        assert (out / student / "feedback.html").stat().st_size > 0
    for name in ("summary.md", "score_histogram.png", "test_pass_rates.png", "part_means.png"):
        assert (out / name).stat().st_size > 0, name
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "broken" in summary and "Failed to grade" in summary


@pytest.mark.slow
def test_reports_contain_no_hidden_test_source(graded) -> None:
    _, out = graded
    suite_files = sorted(SUITE.glob("test_*.py"))
    assert suite_files, "the hidden suite has no test files to check against"
    secret = {
        line.strip()
        for path in suite_files
        for line in path.read_text(encoding="utf-8").splitlines()
        if len(line.strip()) > 25
    }
    reports = [p for p in out.rglob("*") if p.is_file()]
    assert len(reports) >= 13
    for path in reports:
        text = path.read_bytes().decode("utf-8", errors="ignore")
        leaked = [line for line in secret if line in text]
        assert not leaked, f"{path.relative_to(out)} contains hidden test source: {leaked[:3]}"


def test_a_single_file_is_reported_under_its_stem(tmp_path: Path) -> None:
    # An unreadable notebook keeps this fast: the batch still runs and writes every report.
    notebook = tmp_path / "zoe.ipynb"
    shutil.copy(SAMPLES / "erin_broken" / "tokenization" / "tokenization.ipynb", notebook)
    proc = run_cli("grade", notebook, "--out", tmp_path / "out", "--jobs", "1",
                   "--assignment", "tokenization")
    assert proc.returncode == 0, proc.stderr
    grades = rows(tmp_path / "out")
    assert list(grades) == ["zoe"] and grades["zoe"]["status"] == "error"
    check_gradescope_file(tmp_path / "out" / "zoe" / "results.json")
    assert (tmp_path / "out" / "zoe" / "feedback.html").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["grade", "no/such/folder", "--out", "x"], "no such file or folder"),
        (["grade", "samples/submitted", "--out", "x", "--jobs", "0"], "--jobs"),
        (["grade", "samples/submitted"], "--out"),
        (["grade", "pyproject.toml", "--out", "x"], "expected a .ipynb notebook"),
        (["grade", "samples/submitted", "--out", "x", "--hidden-visibility", "public"],
         "--hidden-visibility"),
        (["grade", "samples/submitted", "--out", "pyproject.toml"], "cannot create the folder"),
        ([], "COMMAND"),
    ],
)
def test_usage_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    proc = run_cli(*args, timeout=60)
    assert proc.returncode == 2
    assert message in proc.stderr


def test_a_course_folder_is_refused_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "submitted" / "amy" / "tokenization").mkdir(parents=True)
    proc = run_cli("grade", tmp_path, "--out", tmp_path / "out", timeout=60)
    assert proc.returncode == 2 and "submitted" in proc.stderr


def test_pick_file_prefers_the_assignment_notebook(tmp_path: Path) -> None:
    folder = tmp_path / "tokenization"
    folder.mkdir()
    assert pick_file(folder, "tokenization") == (None, [])
    (folder / "helper.py").write_text("")
    assert pick_file(folder, "tokenization")[0].name == "helper.py"
    (folder / "scratch.ipynb").write_text("{}")
    assert pick_file(folder, "tokenization")[0].name == "scratch.ipynb"
    (folder / "tokenization.ipynb").write_text("{}")
    (folder / ".ipynb_checkpoints").mkdir()
    chosen, notes = pick_file(folder, "tokenization")
    assert chosen.name == "tokenization.ipynb"
    assert notes == ["graded tokenization.ipynb; also found scratch.ipynb"]


def test_find_submissions_in_a_tree(tmp_path: Path) -> None:
    (tmp_path / "b" / "tokenization").mkdir(parents=True)
    (tmp_path / "b" / "tokenization" / "tokenization.ipynb").write_text("{}")
    (tmp_path / "a").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "loose.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    subs = find_submissions(tmp_path, "tokenization")
    assert [s.student_id for s in subs] == [".hidden", "a", "b", "loose"]  # every folder
    assert subs[1].path is None and subs[1].missing and not subs[2].missing
    assert subs[2].label == "b/tokenization/tokenization.ipynb"
    assert subs[3].label == "loose.py"


def tamper_with_cache(out: Path) -> float:
    """Fail one passed test in every cached result; return the points it took away."""
    import json

    entries = sorted((out / ".cache").glob("*.json"))
    assert entries, "graded results should have been cached"
    taken = 0.0
    for entry in entries:
        data = json.loads(entry.read_text())
        test = next((t for t in data["tests"] if t["score"] > 0), None)
        if test is None:
            continue
        taken = test["score"]
        test.update(score=0.0, status="failed", output="tampered")
        data["parts"][str(test["part"])]["score"] -= taken
        data["score"] -= taken
        entry.write_text(json.dumps(data))
    return taken


@pytest.mark.slow
def test_a_rerun_resumes_from_the_cache_and_force_regrades(graded) -> None:
    _, out = graded
    taken = tamper_with_cache(out)
    again = run_cli("grade", out.parent / "submitted", "--out", out, "--jobs", "2")
    assert again.returncode == 0, again.stderr
    assert float(rows(out)["good"]["total"]) == 100.0 - taken, "the rerun should use the cache"
    forced = run_cli("grade", out.parent / "submitted", "--out", out, "--jobs", "2", "--force")
    assert forced.returncode == 0, forced.stderr
    assert float(rows(out)["good"]["total"]) == 100.0, "--force must grade again"
    assert float(rows(out)["stub"]["total"]) == 0.0
