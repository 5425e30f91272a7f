"""Smoke test of ``make bench-batch``'s generator (the batch itself is not run here).

A generated class must hold the requested mix, every file distinct bytes, every file
gradable (extraction finds graded names), correct ones only cosmetically different
from what they copy, and hostile ones carrying their hostile code. Nothing generated
is executed: hostile submissions would exit, hang or hog this process.
"""

import ast
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from autograder.collect import find_submissions
from autograder.extract import extract
from autograder.extract.read import strip_ipython
from autograder.hidden.tokenization import bench_batch
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference() -> str:
    return bench_batch.reference_source()


@pytest.mark.parametrize("count", [1, 7, 10, 20, 37, 200])
def test_allocation_sums_to_count_in_proportion(count):
    counts = bench_batch.allocate(count)
    assert sum(counts.values()) == count
    for category, share in bench_batch.MIX.items():
        assert abs(counts[category] - share * count) < 1


def test_two_hundred_has_the_requested_mix():
    assert bench_batch.allocate(200) == {
        "correct": 100, "wrong": 50, "stub": 20, "hanging": 16, "crashing": 14,
    }  # fmt: skip


def _code_asts(notebook_text: str) -> list[str]:
    """Each code cell's AST; IPython lines (``%run``, ``!pip``) blanked as the grader does."""
    cells = json.loads(notebook_text)["cells"]
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
               for c in cells if c.get("cell_type") == "code"]
    return [ast.dump(ast.parse(strip_ipython(source))) for source in sources]


def test_generated_class_is_distinct_gradable_and_of_the_right_kinds(tmp_path, reference):
    subs = bench_batch.generate(40)
    assert len({s.text for s in subs}) == len(subs) == 40
    assert len({s.student for s in subs}) == 40
    assert Counter(s.category for s in subs) == Counter(bench_batch.allocate(40))
    # Categories are interleaved, not graded in blocks.
    assert [s.category for s in subs[:10]] != sorted(s.category for s in subs[:10])

    tree = bench_batch.write_tree(subs, tmp_path)
    found = {s.student_id: s for s in find_submissions(tree, bench_batch.ASSIGNMENT)}
    assert sorted(found) == sorted(s.student for s in subs)
    reference_ast = ast.dump(ast.parse(reference))
    correct_nb = bench_batch.sample_file(bench_batch.CORRECT_SAMPLE)
    stub_nb = bench_batch.sample_file(bench_batch.STUB_SAMPLE)
    for sub in subs:
        path = found[sub.student].path
        assert path is not None and path.read_text(encoding="utf-8") == sub.text
        code = extract(path)  # parses only
        assert code.defined() & set(TOKENIZATION.part_of), sub.student
        if sub.category in ("correct", "stub") and path.suffix == ".ipynb":
            sample = correct_nb if sub.category == "correct" else stub_nb
            # Same code cells as the sample, comments aside; one notes cell more.
            original = sample.read_text(encoding="utf-8")
            assert _code_asts(sub.text) == _code_asts(original)
            assert len(json.loads(sub.text)["cells"]) == len(json.loads(original)["cells"]) + 1
        elif sub.category == "correct":
            assert ast.dump(ast.parse(sub.text)) == reference_ast, sub.variant
        else:
            assert ast.dump(ast.parse(sub.text)) != reference_ast, sub.variant
        if sub.category in bench_batch.HOSTILE:
            assert sub.marker and sub.marker in sub.text and sub.marker not in reference
        else:
            assert not sub.marker


def test_every_bug_and_hostile_edit_applies_once(reference):
    for variant, _, _, old, _ in bench_batch.BUGS:
        assert reference.count(old) == 1, variant
    for variant, category, _, old, new, marker in bench_batch.HOSTILE_EDITS:
        assert category in bench_batch.HOSTILE
        assert reference.count(old) == 1 and marker in new, variant
    kinds = {h[0] for h in bench_batch.HOSTILE_EDITS}
    assert len(kinds) == len(bench_batch.HOSTILE_EDITS)
    subs = bench_batch.generate(200)
    assert {s.variant for s in subs if s.category in bench_batch.HOSTILE} == kinds
    assert {s.variant for s in subs if s.category == "wrong"} == {b[0] for b in bench_batch.BUGS}


def test_rss_of_a_process_tree():
    assert bench_batch.tree_rss(os.getpid()) > 1 << 20
    assert bench_batch.tree_rss(2**22 + 12345) == 0  # no such process


def test_make_target():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = "$(PY) -m autograder.hidden.tokenization.bench_batch"
    assert f"\nbench-batch: $(STAMP)\n\t{command}" in makefile
