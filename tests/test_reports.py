"""The report writers: files follow their schemas, broken files are rejected, and
untrusted strings from a submission never become markup."""

import copy
import csv
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder.report import checked, write_reports
from autograder.report.feedback import feedback_html
from autograder.report.grades_csv import grades_csv
from autograder.report.gradescope import gradescope_results
from autograder.report.schema import (
    SchemaError,
    check_grades_file,
    check_gradescope_file,
    grades_csv_problems,
    gradescope_problems,
    result_problems,
)
from tests.course import TOKENIZATION, error_result

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;"\''


def graded_result(student_id: str, failing: set[int] = frozenset(), output: str = "") -> dict:
    """A hand-made result: two tests per part, both failed in the parts in ``failing``."""
    tests, parts = [], {}
    for part, points in TOKENIZATION.points.items():
        each = points / 2
        for i in range(2):
            ok = part not in failing
            tests.append({
                "id": f"part{part}::t{i}", "name": f"part {part} check {i}", "part": part,
                "score": each if ok else 0.0, "max_score": each,
                "status": "passed" if ok else "failed",
                "output": "" if ok else output or "expected 1, got 2",
                "visibility": "after_published",
            })
        parts[str(part)] = {"score": 0.0 if part in failing else float(points),
                            "max_score": float(points)}
    return {
        "assignment": "tokenization", "student_id": student_id,
        "source": f"{student_id}/tokenization/tokenization.ipynb",
        "status": "graded", "error": None, "warnings": [], "tests": tests, "parts": parts,
        "score": sum(p["score"] for p in parts.values()), "max_score": 100.0, "seconds": 1.5,
    }


@pytest.fixture(scope="module")
def batch() -> list[dict]:
    hostile = graded_result("mallory", failing={2, 3}, output=HOSTILE)
    hostile["warnings"] = [f"cell 3, line 1: raised {HOSTILE}"]
    return [
        graded_result("alice"),
        graded_result("bob", failing={3, 6}),
        hostile,
        error_result("erin", "erin/tokenization/tokenization.ipynb", "not a readable notebook"),
    ]


@pytest.fixture(scope="module")
def out(batch: list[dict], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    write_reports(batch, folder, TOKENIZATION, wall_seconds=3.0, jobs=2)
    return folder


def test_every_report_file_is_written(out: Path, batch: list[dict]) -> None:
    for name in ("grades.csv", "summary.md", "score_histogram.png", "test_pass_rates.png",
                 "part_means.png"):
        assert (out / name).stat().st_size > 0, name
    for png in out.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for result in batch:
        assert (out / result["student_id"] / "results.json").stat().st_size > 0
        assert (out / result["student_id"] / "feedback.html").stat().st_size > 0


def test_grades_csv_is_valid_and_sorted(out: Path) -> None:
    check_grades_file(out / "grades.csv", TOKENIZATION)
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    assert [r["student_id"] for r in rows] == ["alice", "bob", "erin", "mallory"]
    bob = rows[1]
    assert (float(bob["part3"]), float(bob["part6"]), float(bob["total"])) == (0, 0, 55)
    assert rows[0]["total"] == "100" and rows[0]["status"] == "graded" and rows[0]["error"] == ""
    assert rows[2]["status"] == "error" and "readable" in rows[2]["error"]


def test_results_json_follow_gradescope_schema(out: Path) -> None:
    for path in out.glob("*/results.json"):
        data = check_gradescope_file(path)
        assert {"score", "tests"} <= data.keys()
        for test in data["tests"]:
            assert {"name", "score", "max_score", "status", "output", "visibility"} <= test.keys()
            assert test.get("output_format", "text") == "text"  # never rendered as HTML
    bob = json.loads((out / "bob" / "results.json").read_text())
    assert bob["score"] == 55 and len(bob["tests"]) == 2 * len(TOKENIZATION.parts)
    erin = json.loads((out / "erin" / "results.json").read_text())
    assert erin["score"] == 0 and "not a readable notebook" in erin["output"]
    assert sum(t["max_score"] for t in erin["tests"]) == sum(TOKENIZATION.points.values())


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d.pop("score") and d.pop("tests"),
        lambda d: d.update(score="55"),
        lambda d: d.update(score=99.0),  # not the sum of the tests
        lambda d: d.update(stdout_visibility="students"),
        lambda d: d.update(scores=55),  # a typo Gradescope would ignore
        lambda d: d["tests"][0].update(status="ok"),
        lambda d: d["tests"][0].update(score=d["tests"][0]["max_score"] + 1),
        lambda d: d["tests"][0].pop("name"),
        lambda d: d["tests"][0].update(visibility="public"),
        lambda d: d["tests"][0].update(output=["not", "a", "string"]),
        lambda d: d["tests"][0].update(tags="part1"),
    ],
)
def test_schema_rejects_broken_results_json(breakage, batch, tmp_path: Path) -> None:
    data = gradescope_results(batch[1], TOKENIZATION)
    assert gradescope_problems(data) == []
    broken = copy.deepcopy(data)
    breakage(broken)
    assert gradescope_problems(broken)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(SchemaError):
        check_gradescope_file(path)
    path.write_text("{not json")
    with pytest.raises(SchemaError):
        check_gradescope_file(path)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("student_id,part1", "student,part1"),  # header
        ("bob,5,15,0,20,15,0,55", "bob,5,15,0,20,15,0,60"),  # total is not the sum
        ("bob,5,15,0,20,15,0,55", "bob,5,15,0,20,15,30,85"),  # part over its points
        ("bob,5,15,0,20,15,0,55", "bob,5,fifteen,0,20,15,0,55"),  # not a number
        (",100,error,", ",100,error,\n"),  # the failed row loses its reason
        ("graded,\nbob", "finished,\nbob"),  # status
        ("alice,", "zed,"),  # no longer sorted
        ("mallory,", "bob,"),  # duplicate student
        ("100,graded,\n", "100,graded\n"),  # a column short
    ],
)
def test_schema_rejects_broken_grades_csv(old: str, new: str, out: Path, tmp_path: Path) -> None:
    text = (out / "grades.csv").read_text()
    assert grades_csv_problems(text, TOKENIZATION) == []
    assert old in text, old
    broken = text.replace(old, new, 1)
    if old == ",100,error,":  # drop the reason of the error row
        broken = "\n".join(
            ",".join(line.split(",")[:-1]) + "," if ",error," in line else line
            for line in text.splitlines()
        ) + "\n"
    assert grades_csv_problems(broken, TOKENIZATION), (old, new)
    path = tmp_path / "grades.csv"
    path.write_text(broken)
    with pytest.raises(SchemaError):
        check_grades_file(path, TOKENIZATION)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)
        self.attrs |= {name for name, _ in attrs}


def test_feedback_escapes_hostile_strings(out: Path, batch: list[dict]) -> None:
    page = (out / "mallory" / "feedback.html").read_text()
    assert "<script" not in page
    assert "<img" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page  # shown, as text
    parser = _Tags()
    parser.feed(page)
    assert "script" not in parser.tags and "img" not in parser.tags
    assert not {a for a in parser.attrs if a.startswith("on")}
    # The student ID itself is untrusted too.
    evil = graded_result(HOSTILE)
    evil["source"] = HOSTILE
    parser = _Tags()
    parser.feed(feedback_html(evil, TOKENIZATION))
    assert "script" not in parser.tags and "img" not in parser.tags
    assert "Content-Security-Policy" in page


def test_feedback_lists_parts_tests_and_warnings(out: Path) -> None:
    page = (out / "bob" / "feedback.html").read_text()
    for part, title in TOKENIZATION.parts.items():
        assert f"Part {part}: {title}" in page
    assert "0 / 25" in page and "25 / 25" not in page  # Part 3 failed
    assert "part 3 check 1" in page and "expected 1, got 2" in page
    assert "Warnings while loading your code" in (out / "mallory" / "feedback.html").read_text()
    erin = (out / "erin" / "feedback.html").read_text()
    assert "could not be graded" in erin and "not a readable notebook" in erin


def test_hidden_tests_are_counted_not_listed(tmp_path: Path) -> None:
    result = graded_result("hid", failing={2})
    for test in result["tests"]:
        if test["part"] == 2:
            test["visibility"] = "hidden"
            test["name"] = "secret test name"
    page = feedback_html(result, TOKENIZATION)
    assert "secret test name" not in page and "2 more tests are not shown" in page


def test_summary_names_failures_and_most_missed(out: Path) -> None:
    summary = (out / "summary.md").read_text()
    assert "4 students: 3 graded, 1 failed to grade" in summary
    assert "| erin |" in summary and "not a readable notebook" in summary
    assert "part 3 check 0" in summary  # failed by two of three graded students
    for png in ("score_histogram.png", "test_pass_rates.png", "part_means.png"):
        assert f"]({png})" in summary
    assert "<script" not in summary


def test_an_inconsistent_result_is_reported_as_a_failure() -> None:
    bad = graded_result("carl")
    bad["score"] = 42.0  # parts add up to 100
    assert result_problems(bad, TOKENIZATION)
    results = [checked(bad, TOKENIZATION), checked(graded_result("dora"), TOKENIZATION)]
    rows = list(csv.DictReader(io.StringIO(grades_csv(results, TOKENIZATION))))
    assert rows[0]["status"] == "error" and "grader error" in rows[0]["error"]
    assert rows[0]["total"] == "" and rows[1]["total"] == "100"  # not graded: no number
    missing = graded_result("dan")
    del missing["parts"]
    assert checked(missing, TOKENIZATION)["status"] == "error"


def test_student_ids_cannot_escape_the_output_folder(tmp_path: Path) -> None:
    write_reports([graded_result(".."), graded_result("grades.csv")], tmp_path / "out",
                  TOKENIZATION)
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir()) == [
        "_..", "_grades.csv"
    ]
    assert not (tmp_path / "results.json").exists()
    check_grades_file(tmp_path / "out" / "grades.csv", TOKENIZATION)


def test_grades_csv_neutralises_formula_errors() -> None:
    text = grades_csv([error_result("eve", "eve.py", "=HYPERLINK(\"http://x\")")], TOKENIZATION)
    row = list(csv.DictReader(io.StringIO(text)))[0]
    assert row["error"].startswith("'=HYPERLINK")


def test_a_missing_student_is_a_row_without_scores_and_without_a_folder(tmp_path: Path) -> None:
    missing = error_result("zed", "zed/tokenization/", "nothing submitted: zed/ is empty")
    missing["status"] = "missing"
    reports = write_reports([graded_result("amy"), missing], tmp_path, TOKENIZATION)
    assert reports.stats.missing == [missing] and reports.stats.failed == []
    assert not (tmp_path / "zed").exists() and (tmp_path / "amy" / "feedback.html").is_file()
    text = (tmp_path / "grades.csv").read_text()
    assert "zed,,,,,,,,100,missing,nothing submitted: zed/ is empty" in text
    numbered = text.replace("zed,,,,,,,", "zed,0,0,0,0,0,0,0")
    assert any("must be empty when status is 'missing'" in p
               for p in grades_csv_problems(numbered, TOKENIZATION))
    summary = (tmp_path / "summary.md").read_text()
    assert "2 students: 1 graded, 1 missing" in summary and "Failed to grade" in summary
    assert "| zed |" not in summary  # not among the failures to check by hand
