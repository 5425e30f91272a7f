"""numpy arrays on the pipe: dtype, shape and bytes, never pickled.

An array crosses between the scoring process and a worker as the tag
``{"__ndarray__": [dtype, shape, data]}``: ``dtype`` is numpy's type string in
little-endian order (``"<f8"``, ``"<i4"``, ``"|b1"``), ``shape`` a list of sizes and
``data`` the C-order bytes in base64. The sender writes that text into the JSON as it is
(``dumps``): ``json.dumps`` would scan every character of it for escapes, which base64
never needs (measured here: 217 ms for an array of 8 MiB). Only numbers cross: booleans,
signed and unsigned integers, floats and complex numbers of numpy's usual sizes. An array
of Python objects (``dtype=object``: numpy makes one from rows of different lengths, or
rows holding ``None``) has no bytes that mean anything outside its process, so the worker sends its
dtype and shape alone and it arrives as an ``ObjectArray``, which a check reports in
words a student can act on.

This side trusts nothing in a tag: the dtype must be one of the allowed strings, the
shape a short list of sizes, and the bytes exactly as many as they say. The size of a
whole message is capped where it is read (``client.MAX_REPLY``); nothing here makes an
array bigger than the bytes that came. The worker has its own copy of the array encoding
(``worker.py`` runs without this package); ``dumps`` is the worker's, imported here.
"""

import base64
import binascii
import re
from dataclasses import dataclass

# The worker's own encoder, the one copy for both sides (worker.py imports only the
# standard library, so importing it here runs nothing but its definitions); ``dumps`` is
# what client.py sends with.
from .worker import Base64
from .worker import dumps as dumps

TAG = "__ndarray__"
MAX_NDIM = 32
# The dtypes that cross: what numpy names bool, int8..int64, uint8..uint64,
# float16..float64 and complex64/complex128, in little-endian order.
DTYPE = re.compile(r"\|b1|\|[iu]1|<[iu](2|4|8)|<f(2|4|8)|<c(8|16)")
OBJECT_DTYPE = "|O"


@dataclass(frozen=True)
class ObjectArray:
    """What arrived for an array of Python objects: its shape, never its items."""

    shape: tuple[int, ...]

    def __repr__(self) -> str:
        return f"<an array of Python objects (dtype=object) of shape {self.shape}>"


def is_array(value: object) -> bool:
    """True for a numpy array, without importing numpy when nothing has."""
    import sys

    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def is_scalar(value: object) -> bool:
    """True for a numpy number (``numpy.float64(0.5)``), which crosses as its ``item()``."""
    import sys

    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.generic) and value.dtype.kind in "biufc"


def to_wire(array: object) -> dict:
    """``array`` (a numpy array of numbers) as the pipe's tag."""
    import numpy as np

    array = np.asarray(array)
    if array.dtype.kind == "O":
        return {TAG: [OBJECT_DTYPE, list(array.shape), ""]}
    if array.dtype.itemsize > 1:
        array = array.astype(array.dtype.newbyteorder("<"), copy=False)
    if not DTYPE.fullmatch(array.dtype.str):
        raise ValueError(f"an array of dtype {array.dtype} cannot cross (numbers only)")
    return {TAG: [array.dtype.str, list(array.shape), Base64(base64.b64encode(array.tobytes()))]}


def from_wire(inner: object) -> object:
    """The array a tag's ``inner`` list describes (a fresh, writable copy), or an
    ``ObjectArray``; ``ValueError`` for anything malformed."""
    import numpy as np

    if type(inner) is not list or len(inner) != 3:
        raise ValueError("malformed array")
    dtype, shape, data = inner
    if type(shape) is not list or len(shape) > MAX_NDIM or not all(
            type(n) is int and n >= 0 for n in shape):
        raise ValueError("malformed array shape")
    if dtype == OBJECT_DTYPE and data == "":
        return ObjectArray(tuple(shape))
    if type(dtype) is not str or not DTYPE.fullmatch(dtype) or type(data) is not str:
        raise ValueError("an array of a dtype that cannot cross")
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ValueError("malformed array bytes") from None
    kind = np.dtype(dtype)
    size = 1
    for n in shape:
        size *= n
    if size * kind.itemsize != len(raw):
        raise ValueError("an array whose bytes do not match its shape")
    return np.frombuffer(raw, dtype=kind).reshape(tuple(shape)).copy()
