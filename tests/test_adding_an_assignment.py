"""docs/adding-an-assignment.md, followed to the letter in a scratch copy of this checkout.

The guide's files are its ```` ```LANG file: PATH ```` blocks and its commands the
```` ```sh run-by: tests/test_adding_an_assignment.py ```` blocks: written and run here in
the guide's order, they make the ``word_tokens`` assignment from nothing, release it with
nbgrader, grade a correct and a wrong submission with the CLI and build the bundles. What
the guide says comes out (its ```` ```text output: PATH ```` blocks: the grades) must come
out; its catalogue entries must be real bugs by the catalogue's own check; the versions
its requirements pin must be the grader's. When the guide and the code drift apart, this
test fails.
"""

import csv
import importlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from tests.checkout import copy_checkout, run
from tests.markdown import ROOT, blocks

GUIDE = ROOT / "docs" / "adding-an-assignment.md"
ME = f"tests/{Path(__file__).name}"
NAME = "word_tokens"


def guide_blocks(kind: str, detail: str | None = None) -> list:
    return [b for b in blocks(GUIDE) if b.kind == kind and detail in (None, b.detail)]


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch checkout in which every file of the guide is written and every command of
    the guide is run, in the guide's order."""
    checkout = copy_checkout(tmp_path_factory.mktemp("guide") / "checkout")
    for block in blocks(GUIDE):
        if block.kind == "file":
            path = checkout / block.detail
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.text, encoding="utf-8")
        elif block.kind == "run-by" and block.detail == ME:
            done = run(block.text, checkout)
            assert done.returncode == 0, (f"{block.where}: {block.text}\n{done.stdout[-3000:]}"
                                          f"\n{done.stderr[-3000:]}")
    return checkout


def test_the_guide_writes_files_and_runs_commands():
    assert len(guide_blocks("file")) >= 10
    assert len(guide_blocks("run-by", ME)) >= 3


@pytest.mark.slow
def test_the_class_is_graded_as_the_guide_says(followed):
    outputs = guide_blocks("output")
    assert outputs, "the guide shows what grading writes"
    for block in outputs:
        got = (followed / block.detail).read_text(encoding="utf-8")
        assert list(csv.reader(io.StringIO(got))) == list(csv.reader(io.StringIO(block.text))), (
            f"{block.where}: {block.detail} holds\n{got}")
    rows = {r["student_id"]: r for r in csv.DictReader(
        (followed / "try" / "graded" / "grades.csv").open(encoding="utf-8"))}
    assert rows["ada"]["total"] == rows["ada"]["max_total"] == "10"  # full marks
    assert (rows["bob"]["part1"], rows["bob"]["part2"]) == ("1", "3")  # 3 points lost in each


@pytest.mark.slow
def test_the_wrong_submission_is_told_what_broke_and_not_the_hidden_texts(followed):
    results = json.loads((followed / "try" / "graded" / "bob" / "results.json")
                         .read_text(encoding="utf-8"))
    failed = {t["name"]: t["output"] for t in results["tests"] if t["score"] < t["max_score"]}
    split = "Part 1: split_words gives the lower-cased runs of letters and digits"
    assert set(failed) == {split, "Part 2: top_words orders by count, then alphabetically"}, failed
    assert failed[split].startswith("split_words(a str of "), failed  # an outline, not a text


@pytest.mark.slow
def test_the_release_and_the_bundles_are_made(followed):
    release = followed / "assignments" / NAME
    stub = json.loads((release / f"{NAME}.ipynb").read_text(encoding="utf-8"))
    code = "".join("".join(c["source"]) for c in stub["cells"] if c["cell_type"] == "code")
    assert "raise NotImplementedError()" in code and "BEGIN SOLUTION" not in code
    assert (release / "preflight.py").read_text(encoding="utf-8").startswith("# Generated from")
    with zipfile.ZipFile(followed / "dist" / "student" / f"{NAME}.zip") as bundle:
        assert {f"{NAME}/{NAME}.ipynb", f"{NAME}/requirements.txt", f"{NAME}/preflight.py",
                f"{NAME}/README-students.txt"} <= set(bundle.namelist())
    with zipfile.ZipFile(followed / f"autograder-{NAME}.zip") as bundle:
        names = set(bundle.namelist())
    assert f"autograder/hidden/{NAME}/test_part2.py" in names
    assert f"solutions/{NAME}/counts.py" in names
    assert not any(n.startswith("autograder/hidden/tokenization/") for n in names)


@pytest.mark.slow
def test_the_catalogue_entries_are_real_bugs(followed):
    """The guide's entries, checked by the catalogue's own machinery in the copy: each
    defines only names of its part, and its witness holds on its submission."""
    check = f"""
import ast, textwrap
from tests.catalogue.catalogue import load, reference_source, submission_source
from tests.catalogue.{NAME} import CATALOGUE
from autograder.assignment import load as assignment

a = assignment("{NAME}")
reference = load(reference_source(a))
for entry in CATALOGUE.entries:
    defined = [node.name for node in ast.parse(textwrap.dedent(entry.code)).body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    assert {{a.part_of[name] for name in defined}} == {{entry.part}}, entry.name
    entry.witness(load(submission_source(a, entry.code)), reference)
print(len(CATALOGUE.entries), "entries,", sorted({{e.part for e in CATALOGUE.entries}}))
"""
    done = run(f".venv/bin/python - <<'EOF'\n{check}EOF\n", followed)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "2 entries, [1, 2]", done.stdout


def test_the_requirements_pin_what_the_grader_runs():
    pinned = dict(re.findall(r"^([a-z0-9_.-]+)==(\S+)$",
                             (ROOT / "autograder/gradescope/requirements.txt").read_text(),
                             re.M | re.I))
    [requirements] = [b for b in guide_blocks("file") if b.detail.endswith("requirements.txt")]
    declared = dict(re.findall(r"^([a-z0-9_.-]+)==(\S+)$", requirements.text, re.M | re.I))
    assert "numpy" in declared
    assert {n: v for n, v in declared.items() if n in pinned} == {
        n: pinned[n] for n in declared if n in pinned}


def test_the_section_on_arrays_names_only_what_exists():
    """The section on arrays, tolerances and randomness is prose around the engine's real
    names: every ``from autograder... import`` of its code imports, every path it names in
    backquotes is a file or folder of this checkout."""
    text = GUIDE.read_text(encoding="utf-8")
    section = re.search(r"^## Arrays, tolerances and randomness\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, "the guide has the section, under that exact heading"
    body = section.group(1)
    imports = re.findall(r"^from (autograder[\w.]*) import ([\w, ]+)$", body, re.M)
    assert imports, "the section shows the check kit it describes"
    for module, names in imports:
        loaded = importlib.import_module(module)
        for name in names.split(","):
            assert hasattr(loaded, name.strip()), f"{module} has no {name.strip()}"
    paths = re.findall(r"`((?:autograder|tests|solutions)/[\w./]+?)`", body.replace("\n", " "))
    assert paths
    missing = [p for p in paths if not (ROOT / p.replace(" ", "")).exists()]
    assert not missing, missing
