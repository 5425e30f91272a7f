"""Files in the worker, for Part 6's ``train.bin`` tests: written and read back there.

The worker's folder is its own (a private ``/tmp`` under namespaces, its work folder
otherwise), so the scorer cannot open what the student's ``pack_tokens`` wrote. The file is
read in the worker with ``_io.FileIO``, a C type that no code can change, reached from an
object the grader put there; never with ``open`` or anything else the student's code could
have replaced (``builtins.open`` can be reassigned by any function the grader calls).
"""

from autograder.sandbox import Remote, StudentError
from autograder.suite.checks import check, is_int

HEAPTYPE = 1 << 9  # type flag of every class defined in Python code (never of a C type)


def file_io(student) -> Remote:
    """The worker's ``_io.FileIO``: reached from ``object.__subclasses__()`` of an object the
    grader put there, through C types that no code can change (a class of the student's
    posing as one is a heap type, and is not taken)."""
    found = student.cache.get("p46_file_io")
    if found is not None:
        return found
    level = student.method(student.get(student.get(student.put(()), "__class__"), "__base__"),
                           "__subclasses__")
    for name in ("_IOBase", "_RawIOBase", "FileIO"):
        check(type(level) is list and all(isinstance(c, Remote) for c in level),
              "the grader could not reach the worker's files")
        shown = zip(level, *(student.attributes(level, a)
                             for a in ("__qualname__", "__module__", "__flags__")))
        matches = [c for c, q, m, f in shown if (q, m) == (name, "_io") and is_int(f)
                   and not f & HEAPTYPE]
        check(len(matches) == 1, "the grader could not reach the worker's files")
        found = matches[0]
        level = student.method(found, "__subclasses__")
    student.cache["p46_file_io"] = found
    return found


def read_back(student, path: str, what: str) -> bytes:
    """The bytes of ``path`` in the worker's folder."""
    try:
        handle = student.method(file_io(student), "__call__", path, "r")
        data = student.method(student.method(handle, "readall"), "hex")  # type: ignore[arg-type]
        student.method(handle, "close")  # type: ignore[arg-type]
    except StudentError as exc:
        raise AssertionError(f"after {what}, the file could not be read back "
                             f"({exc.type_name})") from None
    check(type(data) is str, f"after {what}, the file could not be read back")
    return bytes.fromhex(data)  # type: ignore[arg-type]


OLD = "old content, longer than what comes"


def write_old(student, path: str) -> None:
    handle = student.method(file_io(student), "__call__", path, "w")
    student.method(handle, "write", student.method(student.put(OLD), "encode"))  # type: ignore
    student.method(handle, "close")  # type: ignore[arg-type]
