"""numpy arrays cross the sandbox as data: dtype, shape and bytes, size-capped, never pickled.

The pipe's ``__ndarray__`` tag (``autograder/sandbox/arrays.py``) is checked three ways:
the scoring side's reading of it refuses every malformed tag; a real worker sends the
arrays student code returns and receives the arrays a test passes, at every isolation
level this machine has; and a stand-in answers with the reference's arrays. The engine
is handed a scratch two-part assignment whose reference returns arrays (nothing here
names a course assignment).
"""

import base64
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import arrays
from tests.course import LEVELS, isolation_env

ROOT = Path(__file__).resolve().parents[1]


def wire(array) -> list:
    """What the other side reads for ``array``: the tag's list, through the pipe's JSON."""
    return json.loads(arrays.dumps(arrays.to_wire(array)))[arrays.TAG]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", ">i2", "<i4", "int64", "uint64",
                                   "float16", ">f4", "float64", "complex128"])
def test_every_number_dtype_crosses_both_ways_unchanged(dtype):
    array = (np.arange(24) % 7 - 2).astype(dtype).reshape(2, 3, 4)[:, ::2]  # not contiguous
    back = arrays.from_wire(wire(array))
    assert back.shape == array.shape and back.dtype == array.dtype.newbyteorder("=")
    assert np.array_equal(back, array) and back.flags.writeable


def test_a_scalar_array_and_an_empty_one_keep_their_shapes():
    for array in (np.float64(2.5) * np.ones(()), np.zeros((0, 5), dtype=np.float32)):
        back = arrays.from_wire(wire(array))
        assert back.shape == array.shape and np.array_equal(back, array)


def test_an_array_of_python_objects_arrives_as_its_shape_alone():
    ragged = np.array([[1, 2], [3]], dtype=object)
    back = arrays.from_wire(wire(ragged))
    assert back == arrays.ObjectArray((2,))
    assert "dtype=object" in repr(back)


def _tag(dtype: str, shape: list, raw: bytes) -> list:
    return [dtype, shape, base64.b64encode(raw).decode()]


@pytest.mark.parametrize("inner", [
    "not a list",
    ["<f8", [2]],
    _tag("<f8", [3], bytes(16)),  # fewer bytes than the shape says
    _tag("<f8", [1], bytes(16)),  # more
    _tag("<f8", [-1], bytes(8)),
    _tag("<f8", [True], bytes(8)),
    _tag("<f8", [1] * 33, bytes(8)),
    _tag("|O", [1], bytes(8)),  # object pointers: never read
    _tag("O", [1], bytes(8)),
    _tag("<f16", [1], bytes(16)),  # long double: not one of the sizes that cross
    _tag("<M8[s]", [1], bytes(8)),
    _tag("<U1", [1], bytes(4)),
    _tag("|V8", [1], bytes(8)),
    ["<f8", [1], "%%%% not base64"],
    ["<f8", [1], 5],
])
def test_a_malformed_array_tag_is_refused(inner):
    with pytest.raises(ValueError):
        arrays.from_wire(inner)


# A two-part assignment whose reference computes with arrays: Part 2's ``scaled_norms``
# uses Part 1's ``scale`` (a stand-in while Part 2 is graded).
SPEC = """
from pathlib import Path
TITLE = "Arrays"
PARTS = {1: "Scaling", 2: "Norms"}
POINTS = {1: 1, 2: 1}
PART_OF = {"scale": 1, "scaled_norms": 2}
REFERENCE = Path(__file__).parent / "reference"
REFERENCE_MODULES = ("one", "two")
"""
ONE = """
import numpy as np

def scale(x, factor):
    return np.asarray(x, dtype=np.float64) * factor
"""
TWO = """
import numpy as np
from .one import scale

def scaled_norms(x):
    return np.linalg.norm(scale(x, 2.0), axis=-1)
"""
STUDENT = """
import numpy as np

def scale(x, factor):
    return np.asarray(x, dtype=np.float32) * factor

def scaled_norms(x):
    doubled = scale(x, 2.0)
    return np.sqrt((doubled * doubled).sum(axis=-1))

def described(x):
    return [type(x).__name__, str(x.dtype), list(x.shape), bool(x.flags.writeable)]

def ragged():
    return np.array([[1.0, 2.0], [3.0]], dtype=object)

def a_bool():
    return np.float64(3.0) > 2

def huge():
    return np.zeros(1_000_000)
"""
IN_WORKERS = """
import json, sys
from pathlib import Path
import numpy as np
from autograder.assignment import load
from autograder.extract import extract
from autograder.sandbox import Worker, WorkerFailure
from autograder.sandbox.arrays import ObjectArray

assignment = load(sys.argv[1])
code = extract(Path(sys.argv[2]))
seen = {}
with Worker(assignment, code, 1, timeout=30) as worker:
    got = worker.call("scale", np.arange(6, dtype=np.int16).reshape(2, 3), 0.5)
    seen["returned"] = [type(got).__name__, str(got.dtype), list(got.shape), got.tolist()]
    seen["passed"] = worker.call("described", np.ones((3, 4), dtype=">f8")[:, ::2])
    seen["objects"] = repr(worker.call("ragged"))
    seen["bool"] = repr(worker.call("a_bool"))
    try:
        worker.call("huge")
    except WorkerFailure as exc:
        seen["huge"] = [exc.kind, str(exc)]
with Worker(assignment, code, 2, timeout=30) as worker:
    # scaled_norms is the student's; the scale it calls is the reference's (float64)
    norms = worker.call("scaled_norms", [[3.0, 4.0], [0.1, 0.2]])
    seen["standin"] = [str(norms.dtype), norms.tolist()]
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("arrays")
    (folder / "reference").mkdir()
    for path, text in {"spec.py": SPEC, "reference/__init__.py": "",
                       "reference/one.py": ONE, "reference/two.py": TWO,
                       "student.py": STUDENT}.items():
        (folder / path).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


@pytest.mark.parametrize("level", LEVELS)
def test_arrays_cross_a_real_worker_and_its_stand_ins(level, scratch):
    done = subprocess.run([sys.executable, "-c", IN_WORKERS, str(scratch),
                           str(scratch / "student.py")], cwd=ROOT, env=isolation_env(level),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen["returned"] == ["ndarray", "float32", [2, 3], [[0, 0.5, 1], [1.5, 2, 2.5]]]
    assert seen["passed"] == ["ndarray", "float64", [3, 2], True]
    assert seen["objects"] == "<an array of Python objects (dtype=object) of shape (2,)>"
    assert seen["bool"] == "True"
    kind, detail = seen["huge"]  # 8 MB of float64: over the reply's cap, never read whole
    assert kind == "protocol" and "limit" in detail
    dtype, norms = seen["standin"]
    assert dtype == "float64"  # the reference's scale answered (the student's gives float32)
    assert norms == pytest.approx([10.0, 2 * np.hypot(0.1, 0.2)], rel=1e-6)


def test_an_array_is_written_into_the_json_as_encoding_its_text_would():
    """``dumps`` joins each array's base64 in after ``json.dumps``: the same JSON as a
    string would give, whatever else the message holds (a string shaped like the marker,
    the marker's NUL), and nothing but an array's text is joined in."""
    array = np.arange(10.0)
    message = {"a": [arrays.to_wire(array), "\x00" + "0" * 16, arrays.to_wire(array[::-1])],
               "b": "\u0000 \" '" + "x" * 40}
    plain = json.dumps(message, default=lambda text: text.decode("ascii"), allow_nan=True)
    assert arrays.dumps(message) == plain.encode("utf-8")
    back = json.loads(arrays.dumps(message))
    assert np.array_equal(arrays.from_wire(back["a"][2][arrays.TAG]), array[::-1])
    with pytest.raises(TypeError):
        arrays.dumps({"a": b"raw bytes"})
