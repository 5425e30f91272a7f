"""Extraction: which student code reaches the grader, and in which part."""

import json

import nbformat
import pytest

from autograder.extract import SubmissionError, extract
from tests.course import TOKENIZATION


def notebook(tmp_path, cells):
    """Write a notebook from (kind, source, nbgrader metadata or None) triples."""
    nb = nbformat.v4.new_notebook()
    for kind, source, meta in cells:
        cell = nbformat.v4.new_code_cell(source) if kind == "code" else (
            nbformat.v4.new_markdown_cell(source))
        if meta is not None:
            cell.metadata["nbgrader"] = meta
        nb.cells.append(cell)
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    return path


SOLUTION = {"solution": True, "grade": False, "locked": False, "grade_id": "s", "schema_version": 3}
TEST = {"solution": False, "grade": True, "locked": True, "points": 2, "grade_id": "t",
        "schema_version": 3}


def test_definitions_are_kept_and_demos_dropped(tmp_path):
    path = tmp_path / "s.py"
    path.write_text(
        "import collections\nUNK = '<UNK>'\nQ1_EMBEDDING_MIB = 87.89\nlower_case = 3\n"
        "tok = make_tokenizer()\n"
        "def merge_pair(t, p):\n    return t\nprint('demo')\nfor i in range(3):\n    pass\n"
        "assert merge_pair([], ()) == []\nif __name__ == '__main__':\n    main()\n"
    )
    code = extract(path)
    kept = [st.names for st in code.statements]
    assert kept == [("collections",), ("UNK",), ("Q1_EMBEDDING_MIB",), ("lower_case",),
                    ("merge_pair",)]
    graded = {st.names[0] for st in code.for_part(6, TOKENIZATION.part_of)}
    assert graded == {"collections", "UNK", "Q1_EMBEDDING_MIB", "lower_case"}
    assert code.warnings == []  # nothing kept reads what was dropped


def test_plotting_imports_are_dropped(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("import matplotlib.pyplot as plt\nfrom IPython.display import display\n"
                    "import math\n")
    assert [st.names for st in extract(path).statements] == [("math",)]


def test_notebook_test_cells_and_magics_are_not_student_code(tmp_path):
    path = notebook(tmp_path, [
        ("markdown", "# Title", None),
        ("code", "%matplotlib inline\n!pip install x\ndef count_pairs(a, b):\n    return {}",
         SOLUTION),
        ("code", "def merge_pair(t, p):\n    return t", TEST),
        ("code", "def word_frequencies(c):\n    return {}", None),
    ])
    code = extract(path)
    assert [st.names for st in code.statements] == [("count_pairs",), ("word_frequencies",)]
    assert code.statements[0].origin == "cell 2, line 3"
    assert code.warnings == []


def test_a_cell_that_does_not_parse_costs_only_itself(tmp_path):
    path = notebook(tmp_path, [
        ("code", "def count_pairs(a, b)\n    return {}", SOLUTION),
        ("code", "def merge_pair(t, p):\n    return t", SOLUTION),
    ])
    code = extract(path)
    assert [st.names for st in code.statements] == [("merge_pair",)]
    assert len(code.warnings) == 1 and "cell 1" in code.warnings[0]


def test_a_script_that_does_not_parse_is_cut_at_cell_markers(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("# %%\ndef merge_pair(t, p):\n    return t\n\n# %%\ndef broken(:\n    pass\n"
                    "\n# In[3]:\ndef count_pairs(a, b):\n    return {}\n")
    code = extract(path)
    assert [st.names for st in code.statements] == [("merge_pair",), ("count_pairs",)]
    assert code.warnings and "line 6" in code.warnings[0]


def test_later_definitions_stay_after_earlier_ones(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("def merge_pair(t, p):\n    return []\ndef merge_pair(t, p):\n    return t\n")
    sources = [st.source for st in extract(path).for_part(4, TOKENIZATION.part_of)]
    assert len(sources) == 2 and "return t" in sources[1]


def test_for_part_keeps_shared_code_and_only_that_part(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("import math\ndef helper():\n    return 1\n"
                    "def merge_pair(t, p):\n    return t\n"
                    "class CharTokenizer:\n    pass\nQ1_EMBEDDING_MIB = 1\n")
    code = extract(path)
    part_of = TOKENIZATION.part_of
    assert [st.names[0] for st in code.for_part(4, part_of)] == ["math", "helper", "merge_pair"]
    assert [st.names[0] for st in code.for_part(4, part_of, also=("CharTokenizer",))] == [
        "math", "helper", "merge_pair", "CharTokenizer"]


@pytest.mark.parametrize("content, suffix", [
    ("{not json", ".ipynb"),
    (json.dumps({"cells": "nope"}), ".ipynb"),
    ("\xff\xfe", ".py"),
    ("x = 1", ".txt"),
])
def test_unreadable_submissions_raise_a_clear_error(tmp_path, content, suffix):
    path = tmp_path / f"s{suffix}"
    path.write_bytes(content.encode("latin-1"))
    with pytest.raises(SubmissionError) as error:
        extract(path)
    assert path.name in str(error.value)


def test_a_missing_file_raises_a_clear_error(tmp_path):
    with pytest.raises(SubmissionError, match="does not exist"):
        extract(tmp_path / "nothing.ipynb")


def test_blocks_that_only_import_or_define_are_kept(tmp_path):
    path = tmp_path / "s.py"
    path.write_text(
        "try:\n    from tqdm import tqdm\nexcept ImportError:\n    tqdm = lambda x: x\n"
        "if DEBUG:\n    import pprint\nelse:\n    pprint = None\n"
        "try:\n    train()\nexcept ValueError:\n    pass\n"  # runs code: dropped
        "if ready():\n    import json\n"  # the condition calls: dropped
        "if True:\n    print('demo')\n"
    )
    code = extract(path)
    assert [st.names for st in code.statements] == [("tqdm",), ("pprint",)]
    assert code.statements[0].source.startswith("try:")


@pytest.mark.parametrize("line, kept", [
    ("sizes = [50, 100, (1, -2.5)]", True),
    ("merges_file = {'a': 'b', 'n': None}", True),
    ("big = [" + "1, " * 6000 + "]", False),
    ("lines = open('x').read()", False),
    ("n = len('abc')", False),
])
def test_constants_of_any_case_are_kept_when_their_value_is_a_literal(tmp_path, line, kept):
    path = tmp_path / "s.py"
    path.write_text(line + "\n")
    assert bool(extract(path).statements) == kept


def test_dropped_statements_that_kept_code_reads_are_named(tmp_path):
    path = notebook(tmp_path, [
        ("code", "from tqdm import tqdm\nlimit = int('5')\ncorpus = ['a b']", SOLUTION),
        ("code", "def merge_pair(t, p):\n    return [x for x in tqdm(t)][:limit]", SOLUTION),
        ("code", "shown = merge_pair(['a'], ('a', 'b'))\nprint(shown)", None),
    ])
    code = extract(path)
    assert [st.names for st in code.statements] == [("corpus",), ("merge_pair",)]
    assert len(code.warnings) == 2, code.warnings
    tqdm, limit = code.warnings
    assert tqdm.startswith("cell 1, line 1: sets tqdm") and "merge_pair (cell 2, line 1)" in tqdm
    assert limit.startswith("cell 1, line 2: sets limit") and "NameError" in limit
    assert "names set to a literal value" in limit  # the rule is said


def test_imports_graded_code_cannot_make_are_named(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("import numpy as np\nimport regex\nimport collections.abc\n"
                    "import torch, os\nfrom sklearn.feature_extraction import text\n"
                    "try:\n    import tiktoken\nexcept ImportError:\n    tiktoken = None\n")
    warnings = extract(path).warnings
    assert [w.split(": ")[0] for w in warnings] == [
        "lines 1-9, line 4", "lines 1-9, line 5"]
    assert "imports torch" in warnings[0] and "imports sklearn" in warnings[1]
    assert all("standard library, numpy and regex" in w for w in warnings)
