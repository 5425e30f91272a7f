"""``make bench-batch A=NAME``: the engine's benchmark tool, for every assignment and the toy.

Generation (nothing generated is executed: hostile submissions would exit, hang or hog
this process): a class holds the requested mix, every file distinct bytes and gradable
(extraction finds graded names), correct ones only cosmetically different from what they
copy, hostile ones carrying their hostile code, and every bug and hostile edit of the
assignment in use. Then one tiny class of the toy goes through the whole tool: the real
CLI, the memory sampler, the reports read back, the table.
"""

import ast
import json
import os
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from autograder.bench_batch import make, measure, outcomes, summary
from autograder.collect import find_submissions
from autograder.extract import extract
from autograder.extract.read import strip_ipython
from tests.course import known, load

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy"
ASSIGNMENTS = [*known(), str(TOY)]


@pytest.mark.parametrize("count", [1, 7, 10, 20, 37, 200])
def test_allocation_sums_to_count_in_proportion(count):
    counts = make.allocate(count)
    assert sum(counts.values()) == count
    for category, share in make.MIX.items():
        assert abs(counts[category] - share * count) < 1


def test_two_hundred_has_the_requested_mix():
    assert make.allocate(200) == {
        "correct": 100, "wrong": 50, "stub": 20, "hanging": 16, "crashing": 14,
    }  # fmt: skip


@cache  # a basis serves many submissions
def _code(text: str, suffix: str) -> list[str]:
    """Each code cell's AST (IPython lines blanked as the grader does), or the file's."""
    if suffix != ".ipynb":
        return [ast.dump(ast.parse(text))]
    cells = json.loads(text)["cells"]
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
               for c in cells if c.get("cell_type") == "code"]
    return [ast.dump(ast.parse(strip_ipython(source))) for source in sources]


@pytest.mark.parametrize("name", ASSIGNMENTS, ids=lambda n: Path(n).name)
@pytest.mark.slow
def test_generated_class_is_distinct_gradable_and_of_the_right_kinds(tmp_path, name):
    assignment = load(name)
    subs = make.generate(assignment, 40)
    assert len({s.text for s in subs}) == len({s.student for s in subs}) == len(subs) == 40
    assert Counter(s.category for s in subs) == Counter(make.allocate(40))
    # Categories are interleaved, not graded in blocks.
    assert [s.category for s in subs[:10]] != sorted(s.category for s in subs[:10])

    tree = make.write_tree(assignment, subs, tmp_path)
    found = {s.student_id: s for s in find_submissions(tree, assignment.name)}
    assert sorted(found) == sorted(s.student for s in subs)
    for sub in subs:
        path = found[sub.student].path
        assert path is not None and path.read_text(encoding="utf-8") == sub.text
        assert extract(path).defined() & set(assignment.part_of), sub.student  # parses only
        same = _code(sub.text, path.suffix) == _code(sub.basis, path.suffix)
        if sub.category in ("correct", "stub"):  # comments, blank lines, a notes cell
            assert same, sub.student
        else:
            assert not same, sub.student
        if sub.category in make.HOSTILE:
            assert sub.marker and sub.marker in sub.text and sub.marker not in sub.basis
        else:
            assert not sub.marker


@pytest.mark.parametrize("name", ASSIGNMENTS, ids=lambda n: Path(n).name)
def test_every_bug_and_hostile_edit_applies_once_and_is_used(name):
    assignment = load(name)
    module = make.material(assignment)
    reference = make.reference_source(assignment)
    for edit in [*module.BUGS, *module.HOSTILE]:
        assert reference.count(edit.old) == 1, edit.variant
    for bug in module.BUGS:
        assert bug.part in assignment.parts, bug.variant
    for hostile in module.HOSTILE:
        assert hostile.category in make.HOSTILE and hostile.marker in hostile.new
    variants = [e.variant for e in [*module.BUGS, *module.HOSTILE]]
    assert len(set(variants)) == len(variants)
    subs = make.generate(assignment, 200)
    assert {s.variant for s in subs if s.category == "wrong"} == {b.variant for b in module.BUGS}
    assert ({s.variant for s in subs if s.category in make.HOSTILE}
            == {h.variant for h in module.HOSTILE})


def test_an_assignment_without_material_is_a_clear_error(tmp_path):
    for file in ("spec.py", "test_part1.py", "test_part2.py"):
        (tmp_path / file).write_text((TOY / file).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(SystemExit, match="no bench_submissions.py"):
        make.generate(load(tmp_path), 10)


def test_rss_of_a_process_tree():
    assert measure.tree_rss(os.getpid()) > 1 << 20
    assert measure.tree_rss(2**22 + 12345) == 0  # no such process


def test_memory_halves_and_the_growth_check():
    sampler = measure.Sampler(os.getpid())
    sampler.totals = [100, 300, 200, 400, 500, 600]
    assert sampler.halves() == ((300, 200), (600, 500))
    run = measure.Run(0, 1.0, 1.0, 1.0, sampler)
    assert summary.flat_memory(run)
    sampler.totals = [2**30] * 3 + [2 * 2**30] * 3  # doubled: a leak
    assert not summary.flat_memory(run)


@pytest.mark.slow
def test_a_tiny_toy_class_through_the_whole_tool(tmp_path, capsys):
    toy = load(TOY)
    subs = make.generate(toy, 4)  # 2 correct, 1 wrong, 1 stub: no hang to wait for
    assert Counter(s.category for s in subs) == {"correct": 2, "wrong": 1, "stub": 1}
    out = tmp_path / "out"
    run = measure.run_cli(make.write_tree(toy, subs, tmp_path), out, 2, str(TOY))
    assert run.code == 0 and run.sampler.samples >= 1 and run.sampler.peak > 1 << 20
    found = {o.sub.category: o for o in outcomes.read_outcomes(subs, out)}
    assert all(o.in_csv and o.status == "graded" for o in found.values())
    assert not found["correct"].lost and found["wrong"].lost and found["stub"].score == 0
    summary.report(toy, list(outcomes.read_outcomes(subs, out)), run, 2,
                   (os.getloadavg(), os.getloadavg()), ("test", True))
    table = capsys.readouterr().out
    for row in ("peak RSS, CLI + descendants", "RSS peak / median, 2nd half",
                "correct: false failures", "hanging + crashing handled"):
        assert row in table


def test_make_target():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = "$(PY) -m autograder.bench_batch --assignment $$a"
    assert f"\nbench-batch: $(STAMP)\n\tfor a in $(A); do {command}" in makefile
