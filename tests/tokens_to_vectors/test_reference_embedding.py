"""Part 1's reference: the lookup, the one-hot product, padding and GPT-2's parameter count."""

import ast
import importlib
import inspect
import math
import sys
import tracemalloc

import numpy as np
import pytest

import solutions.tokens_to_vectors as ref
from autograder.assignment import load

ASSIGNMENT = load("tokens_to_vectors")
MODULES = ["embedding", "positions", "relative", "dropout", "beyond", "context"]

# GPT-2 small, one block, as nanoGPT names its parameters (shapes as numpy would store them).
D = 768
GPT2_BLOCK = {
    "ln_1.weight": (D,),
    "ln_1.bias": (D,),
    "attn.c_attn.weight": (D, 3 * D),
    "attn.c_attn.bias": (3 * D,),
    "attn.c_proj.weight": (D, D),
    "attn.c_proj.bias": (D,),
    "ln_2.weight": (D,),
    "ln_2.bias": (D,),
    "mlp.c_fc.weight": (D, 4 * D),
    "mlp.c_fc.bias": (4 * D,),
    "mlp.c_proj.weight": (4 * D, D),
    "mlp.c_proj.bias": (D,),
}
GPT2_OUTSIDE_BLOCKS = {
    "wte.weight": (50_257, D),
    "wpe.weight": (1_024, D),
    "ln_f.weight": (D,),
    "ln_f.bias": (D,),
}


def count(shapes: dict[str, tuple[int, ...]]) -> int:
    return sum(math.prod(shape) for shape in shapes.values())


# --- the package --------------------------------------------------------------------------


def test_every_spec_name_is_exported_and_every_module_documents_itself():
    assert set(ref.__all__) == set(ASSIGNMENT.part_of)
    assert all(hasattr(ref, name) for name in ref.__all__)
    assert ASSIGNMENT.reference_modules == tuple(MODULES)
    for name in MODULES:
        doc = inspect.getdoc(importlib.import_module(f"solutions.tokens_to_vectors.{name}"))
        assert "Left out" in doc, name


def test_the_reference_imports_only_numpy_and_the_standard_library():
    for name in MODULES:
        source = inspect.getsource(importlib.import_module(f"solutions.tokens_to_vectors.{name}"))
        assert "torch" not in source
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = {node.module.split(".")[0]}
            else:
                continue  # a relative import stays inside the package
            assert roots <= set(sys.stdlib_module_names) | {"numpy"}, (name, roots)


# --- embedding_lookup and one_hot ---------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 2)])
def test_lookup_is_the_one_hot_product(shape):
    rng = np.random.default_rng(len(shape))
    table = rng.standard_normal((11, 6))
    ids = rng.integers(0, 11, size=shape)
    looked_up = ref.embedding_lookup(ids, table)
    assert looked_up.shape == shape + (6,)
    np.testing.assert_allclose(ref.one_hot(ids, 11) @ table, looked_up, rtol=0, atol=1e-12)
    for index in np.ndindex(shape):
        np.testing.assert_array_equal(looked_up[index], table[ids[index]])


def test_lookup_takes_lists_and_keeps_the_tables_dtype():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = ref.embedding_lookup([[3, 0], [1, 1]], table)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[[9, 10, 11], [0, 1, 2]], [[3, 4, 5], [3, 4, 5]]])
    assert ref.embedding_lookup([], table).shape == (0, 3)
    out[0, 0, 0] = -1
    assert table[3, 0] == 9, "the result is a copy of the rows, not a view of the table"


def test_lookup_never_copies_or_scans_the_table():
    # Ten million rows that take no memory (a broadcast view): a lookup that copied the table
    # would allocate 320 MB, one through one-hot rows 240 MB; reading three rows takes bytes.
    table = np.broadcast_to(np.arange(4.0), (10**7, 4))
    tracemalloc.start()
    out = ref.embedding_lookup(np.array([0, 10**7 - 1, 12345]), table)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    np.testing.assert_array_equal(out, np.tile(np.arange(4.0), (3, 1)))
    assert peak < 100_000, f"{peak:,} bytes to read 3 rows"


@pytest.mark.parametrize(
    "ids, first, later",
    [
        ([0, 7, 2, 9], "7", "9"),  # V = 5: the first ID out of range, not the largest
        ([1, -1, 9], "-1", "9"),  # numpy would wrap a negative ID round to the last row
        (np.array([[0, 1], [6, -3]]), "6", "-3"),  # the first in C order
        (np.array([1.0, 2.5]), "1.0", "2.5"),  # a float array, however round its values
        (np.array([True, False]), "True", "False"),  # a bool array is not an ID array
        ([True, False], "True", "False"),
        (["a", "b"], "'a'", "'b'"),
    ],
)
def test_bad_ids_raise_and_the_first_is_named(ids, first, later):
    for call in (lambda: ref.embedding_lookup(ids, np.zeros((5, 2))), lambda: ref.one_hot(ids, 5)):
        with pytest.raises(ValueError) as caught:
            call()
        assert first in str(caught.value) and later not in str(caught.value)


def test_a_table_must_be_two_dimensional():
    for table in (np.zeros(5), np.zeros((5, 2, 2))):
        with pytest.raises(ValueError, match="shape"):
            ref.embedding_lookup([0], table)


def test_one_hot_is_float_with_a_single_one_per_row():
    out = ref.one_hot(np.array([[2, 0, 2]]), 4)
    assert out.dtype == np.float64 and out.shape == (1, 3, 4)
    np.testing.assert_array_equal(out[0], [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]])
    for bad in (0, -3, True, 4.0, "4"):
        with pytest.raises(ValueError):
            ref.one_hot([0], bad)


def test_only_the_rows_that_were_used_get_a_gradient():
    # d(loss)/d(table) of loss = sum(upstream * (one_hot @ table)) is one_hot^T @ upstream
    rng = np.random.default_rng(7)
    ids = np.array([3, 1, 3, 8])
    upstream = rng.standard_normal((4, 5))
    gradient = ref.one_hot(ids, 10).T @ upstream
    used = np.zeros(10, dtype=bool)
    used[ids] = True
    assert not gradient[~used].any()
    np.testing.assert_allclose(gradient[3], upstream[0] + upstream[2])  # a repeated ID adds up


# --- padding and the parameter count --------------------------------------------------------


def test_padded_vocab_size():
    assert ref.padded_vocab_size(50_257) == 50_304
    assert ref.padded_vocab_size(50_304) == 50_304
    assert ref.padded_vocab_size(1) == 64
    assert ref.padded_vocab_size(65, 64) == 128
    assert ref.padded_vocab_size(7, 1) == 7
    assert ref.padded_vocab_size(np.int64(100), np.int64(8)) == 104
    for args in [(0,), (-1,), (True,), (50_257.0,), (10, 0), (10, False), (10, 2.5)]:
        with pytest.raises(ValueError):
            ref.padded_vocab_size(*args)


def test_gpt2_small_counted_by_hand():
    assert count(GPT2_BLOCK) == 7_087_872
    total = count(GPT2_OUTSIDE_BLOCKS) + 12 * count(GPT2_BLOCK)
    assert total == 124_439_808 == ref.gpt_parameter_count(50_257, 1_024, 768, 12)
    # nanoGPT prints the count without the position table (non_embedding=True)
    assert total - count({"wpe.weight": GPT2_OUTSIDE_BLOCKS["wpe.weight"]}) == 123_653_376
    untied = total + count({"lm_head.weight": (50_257, D)})
    assert untied == 163_037_184 == ref.gpt_parameter_count(50_257, 1_024, 768, 12, tied=False)
    assert ref.gpt_parameter_count(50_304, 1_024, 768, 12) == 124_475_904


@pytest.mark.parametrize("sizes", [(10, 8, 4, 1), (97, 16, 6, 3), (1, 1, 1, 1)])
def test_the_count_follows_the_shapes_at_any_size(sizes):
    vocab, positions, d, layers = sizes
    block = {
        "ln_1": (2, d), "qkv.w": (d, 3 * d), "qkv.b": (3 * d,), "proj.w": (d, d),
        "proj.b": (d,), "ln_2": (2, d), "fc.w": (d, 4 * d), "fc.b": (4 * d,),
        "fc_proj.w": (4 * d, d), "fc_proj.b": (d,),
    }
    outside = {"wte": (vocab, d), "wpe": (positions, d), "ln_f": (2, d)}
    expected = count(outside) + layers * count(block)
    assert ref.gpt_parameter_count(vocab, positions, d, layers) == expected
    assert ref.gpt_parameter_count(vocab, positions, d, layers, False) == expected + vocab * d


def test_the_count_refuses_bad_sizes_and_a_tied_that_is_not_a_bool():
    good = (50_257, 1_024, 768, 12)
    for index in range(4):
        for bad in (0, -1, True, 12.0, None):
            args = list(good)
            args[index] = bad
            with pytest.raises(ValueError):
                ref.gpt_parameter_count(*args)
    for bad in (1, 0, None, "yes"):
        with pytest.raises(ValueError, match="tied"):
            ref.gpt_parameter_count(*good, tied=bad)


def test_the_numeric_answers():
    assert math.isclose(ref.Q_EMBEDDING_MIB, 147.2373046875)
    assert ref.Q_EMBEDDING_MIB == 50_257 * 768 * 4 / 1024**2
    table = count({"wte": GPT2_OUTSIDE_BLOCKS["wte.weight"]})
    assert math.isclose(ref.Q_EMBEDDING_SHARE, table / 124_439_808)
    assert 0.31 < ref.Q_EMBEDDING_SHARE < 0.311
    assert ref.Q_PADDED_EXTRA_ROWS == ref.padded_vocab_size(50_257) - 50_257 == 47
