"""The nbgrader source notebooks and their student releases, for every assignment.

- The source notebook (with solutions) runs top to bottom in a real kernel and passes every
  visible test.
- The released notebook (stubs) fails every visible test cell.
- Test-cell points per part equal the assignment's ``POINTS``, and everything the hidden
  grader extracts (top-level imports, def, class, UPPER_CASE constants) is where it should be.
- Tokenization: every visible test also fails on a plausible wrong implementation (cells run
  in-process with one solution line changed), and the reflection is its one manual answer.
"""

import ast
import os
import re
import shutil
import time
from collections import defaultdict
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from autograder.extract.read import strip_ipython
from autograder.extract.ship import preflight_source
from autograder.extract.split import kept_names
from tests.course import known, load

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "source" / "tokenization" / "tokenization.ipynb"
TEST_ID = re.compile(r"test_part(\d)_\w+")
# The plots each source notebook draws.
IMAGES = {"tokenization": 2, "production_tokenizers": 5, "tokens_to_vectors": 9}


def grading(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def visible_tests(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and grading(c).get("grade")]


def execute(path: Path, allow_errors: bool):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=180,
        kernel_name="python3",
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    return nb, time.perf_counter() - start


def errors(cell) -> list:
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


@pytest.fixture(scope="module")
def source_nb():
    return nbformat.read(SOURCE, as_version=4)


def notebook(folder: str, name: str) -> Path:
    return ROOT / folder / name / f"{name}.ipynb"


every_assignment = pytest.mark.parametrize("name", known())


# ----------------------------------------------------------------------------- structure


@every_assignment
def test_points_per_part_match_parts_table(name):
    points = defaultdict(int)
    for cell in visible_tests(nbformat.read(notebook("source", name), as_version=4)):
        meta = grading(cell)
        match = TEST_ID.fullmatch(meta["grade_id"])
        assert match, f"test cell {meta['grade_id']!r} is not named test_part<N>_..."
        assert meta["locked"] and not meta["solution"], f"{meta['grade_id']} must be locked"
        assert meta["points"] > 0
        assert cell.source.startswith("# Test:"), f"{meta['grade_id']} must start with '# Test:'"
        assert "BEGIN HIDDEN TESTS" not in cell.source
        points[int(match.group(1))] += meta["points"]
    assert dict(points) == load(name).points


def test_reflection_is_the_only_manual_answer(source_nb):
    manual = [c for c in source_nb.cells if grading(c).get("grade") and c.cell_type == "markdown"]
    assert [grading(c)["grade_id"] for c in manual] == ["reflection"]
    assert grading(manual[0])["solution"] and grading(manual[0])["points"] == 5


@every_assignment
def test_grade_ids_are_unique_and_schema_3(name):
    source_nb = nbformat.read(notebook("source", name), as_version=4)
    metas = [grading(c) for c in source_nb.cells if grading(c)]
    ids = [m["grade_id"] for m in metas]
    assert len(ids) == len(set(ids))
    assert all(m["schema_version"] == 3 for m in metas)
    assert source_nb.nbformat == 4


def top_level(source: str):
    """The names the hidden grader keeps (``kept_names``), imports aside; IPython lines
    (``%run``, ``!pip``) are not Python and the grader blanks them too."""
    python = strip_ipython(source)
    kept = []
    for node in ast.parse(python).body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            kept += kept_names(node) or ()
    return kept


@every_assignment
def test_graded_names_are_top_level_definitions_and_tests_define_nothing(name):
    source_nb = nbformat.read(notebook("source", name), as_version=4)
    defined = []
    for cell in source_nb.cells:
        if cell.cell_type != "code":
            continue
        names = top_level(cell.source)
        if grading(cell).get("solution") or grading(cell).get("locked") and not grading(cell).get(
            "grade"
        ):
            defined += names
        elif not grading(cell).get("grade"):  # demo cells (the grader skips test cells):
            # nothing the grader would pick up by mistake
            assert names == [], f"cell defines {names} outside a solution cell:\n{cell.source}"
    assert set(load(name).part_of) <= set(defined)
    assert len(defined) == len(set(defined)), "a name is defined twice"


# ----------------------------------------------------------------------------- kernel runs


@pytest.mark.slow
@every_assignment
def test_source_notebook_runs_clean_and_passes_visible_tests(name, tmp_path):
    """Run where a release would be: a copy of ``source/NAME/`` with the preflight that
    ``make release`` builds beside it (source/ holds none), so the last cell runs it."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "source" / name, folder)
    (folder / "preflight.py").write_text(preflight_source(), encoding="utf-8")
    nb, seconds = execute(folder / f"{name}.ipynb", allow_errors=False)
    for cell in visible_tests(nb):
        stdout = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        assert "passed" in stdout, grading(cell)["grade_id"]
    (last,) = [c for c in nb.cells if c.source.startswith("%run -e preflight.py")]
    preflight = "".join(o.get("text", "") for o in last.outputs)
    assert "ready to submit" in preflight.splitlines()[0], preflight
    images = [o for c in nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(images) == IMAGES[name], "every plot of the notebook is drawn"
    # Wall time is not asserted (it depends on the machine's load); about 25 s for the
    # tokenization notebook on an idle 2-core machine. Shown with `pytest -s`.
    print(f"{name} source notebook executed in {seconds:.1f} s")


@every_assignment
@pytest.mark.slow
def test_released_stub_fails_every_visible_test(name):
    nb, _ = execute(notebook("assignments", name), allow_errors=True)
    cells = visible_tests(nb)
    parts = {int(TEST_ID.fullmatch(grading(c)["grade_id"]).group(1)) for c in cells}
    assert parts == set(load(name).points)
    passing = [grading(c)["grade_id"] for c in cells if not errors(c)]
    assert passing == [], f"visible tests pass on the stub: {passing}"


# ----------------------------------------------------------------------------- wrong answers

# (solution cell, text in it, plausible wrong replacement, visible test that must catch it)
MUTATIONS = [
    (
        "part1_tokenizer",
        "a subclass must implement encode(text) ",
        "encode is not implemented ",
        "test_part1_base_class_messages",
    ),
    (
        "part2_char_tokenizer",
        "[c for c in dict.fromkeys(chars) if c != UNK]",
        "[c for c in chars if c != UNK]",
        "test_part2_vocab_and_encode",
    ),
    (
        "part2_char_tokenizer",
        "self.char_to_id.get(ch, self.unk_id) for ch in text]",
        "self.char_to_id.get(ch, self.unk_id) for ch in text if not ch.isspace()]",
        "test_part2_decode_round_trip",
    ),
    (
        "part2_char_tokenizer",
        "self.id_to_char[check_token_id(t, self.vocab_size)]",
        "self.vocab[t]",
        "test_part2_bad_input",
    ),
    (
        "part2_char_tokenizer",
        "self.vocab = [UNK] + sorted({ch for text in corpus for ch in text})",
        "self.vocab = self.vocab + sorted({ch for text in corpus for ch in text})",
        "test_part4_build_vocab",
    ),
    ("part4_bpe_steps", "text.split()", 'text.split(" ")', "test_part4_word_frequencies"),
    (
        "part4_bpe_steps",
        "for pair in zip(tokens, tokens[1:]):",
        "for pair in set(zip(tokens, tokens[1:])):",
        "test_part4_count_pairs",
    ),
    ("part4_bpe_steps", "counts[pair] += freq", "counts[pair] += 1", "test_part4_count_pairs"),
    ("part4_bpe_steps", "i += 2", "i += 1", "test_part4_merge_pair"),
    (
        "part3_bpe_tokenizer",
        "self.vocab: list[str] = [UNK, EOW]",
        "self.vocab: list[str] = [UNK]",
        "test_part3_untrained",
    ),
    (
        "part3_bpe_tokenizer",
        "self.token_to_id.setdefault(token, i)",
        "self.token_to_id[token] = i",
        "test_part3_helpers",
    ),
    (
        "part3_bpe_tokenizer",
        "best = min(counts, key=lambda pair: (-counts[pair], pair))",
        "best = max(counts, key=counts.get)",
        "test_part3_merge_order",
    ),
    ("part3_bpe_tokenizer", 'return text.rstrip(" ")', "return text", "test_part3_encode_decode"),
    (
        "part3_bpe_tokenizer",
        "self.target_vocab_size = check_vocab_size(vocab_size)\n        if isinstance",
        "self.target_vocab_size = vocab_size\n        if isinstance",
        "test_part3_bad_input",
    ),
    (
        "part5_utilities",
        "valid strategies are {valid}",
        "choose another one",
        "test_part5_create_tokenizer",
    ),
    (
        "part5_utilities",
        "if max_length is None:",
        "if not max_length:",
        "test_part5_tokenize_dataset",
    ),
    (
        "part5_utilities",
        "characters = sum(len(text) for text in texts)",
        'characters = sum(len(text.replace(" ", "")) for text in texts)',
        "test_part5_analyze_tokenization",
    ),
    (
        "part6_costs",
        "return vocab_size * embed_dim * bytes_per_param",
        "return vocab_size * embed_dim * 4",
        "test_part6_embedding_memory",
    ),
    (
        "part6_costs",
        "return (long_len / short_len) ** 2",
        "return long_len / short_len",
        "test_part6_attention",
    ),
    (
        "part6_costs",
        "embedding_memory_bytes(tokenizer.vocab_size, embed_dim)",
        "embedding_memory_bytes(size, embed_dim)",
        "test_part6_vocab_tradeoff",
    ),
    ("part6_answers", "/ 1024**2, 2)", "/ 1e6, 2)", "test_part6_answers"),
    ("part6_answers", "10_000 / 2_500", "2_500 / 10_000", "test_part6_answers"),
]


def run_in_process(nb, mutation=None) -> dict:
    """Run the definition cells (setup + solutions, not the experiments) and then every test
    cell in one namespace; return ``{test grade_id: exception or None}``."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__notebook__"}
    for cell in nb.cells:
        meta = grading(cell)
        if cell.cell_type != "code" or not meta or meta.get("grade"):
            continue
        if meta["grade_id"].startswith("experiment_"):
            continue
        source = cell.source
        if mutation and mutation[0] == meta["grade_id"]:
            assert source.count(mutation[1]) == 1, f"mutation text not found once: {mutation[1]!r}"
            source = source.replace(mutation[1], mutation[2])
        exec(compile(source, meta["grade_id"], "exec"), namespace)
    outcome = {}
    for cell in visible_tests(nb):
        try:
            exec(compile(cell.source, grading(cell)["grade_id"], "exec"), namespace)
        except Exception as err:  # a failing visible test
            outcome[grading(cell)["grade_id"]] = err
        else:
            outcome[grading(cell)["grade_id"]] = None
    return outcome


def test_in_process_run_of_the_source_passes(source_nb):
    outcome = run_in_process(source_nb)
    assert {k: v for k, v in outcome.items() if v is not None} == {}


def test_every_visible_test_has_a_wrong_implementation_it_catches(source_nb):
    covered = {target for *_, target in MUTATIONS}
    assert covered == {grading(c)["grade_id"] for c in visible_tests(source_nb)}


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: f"{m[3]}:{m[2][:30]}")
def test_visible_test_catches_plausible_wrong_implementation(source_nb, mutation):
    outcome = run_in_process(source_nb, mutation)
    assert outcome[mutation[3]] is not None, f"{mutation[3]} passes with {mutation[2]!r}"
