"""The worker: the only process that runs student code.

Longer than most files here for one reason: this file is the worker's whole program,
sent on its standard input, so the stand-ins it builds cannot live in a module of
their own.

Started by ``client.Worker`` as ``python -s -S -P -c BOOT IN_FD OUT_FD SETUP``
(``limits.WORKER_FLAGS``: its hash seed is the grader's; ``BOOT`` runs this file's
bytecode, which the same interpreter made, from standard input: ``limits.program``), so it
needs no readable copy of the grader. ``SETUP`` is JSON: the folders to cover and the user to
become (see ``confine``) and the resource limits. It applies them all, says *ready* (so
that the scorer can tell a sandbox that does not start on this machine from student
code that crashes), and only then reads one *load* message: a description of the other
parts (names and shapes, never code) and the student's statements. Then it answers
*call* / *get* requests until its input closes.

No reference code ever reaches this process. Whatever the graded part uses from other
parts is a *stand-in* (``StandIns``): calling one sends a ``{"ref": ...}`` message up
the same pipe in the middle of a request, and the scoring process answers it with the
reference for the other parts (``standin.py`` on that side). The student's own classes
of other parts are kept, with the reference's members put in place of theirs.

Messages are length-prefixed JSON; values are plain data with a few tags (tuple, dict,
set, Counter, remote object handle, stand-in object, numpy array as dtype, shape and
bytes). Nothing is ever pickled.
Everything in this process is untrusted once student code has run: the scoring process
re-validates every reply and measures time itself. This file imports only the standard
library, so it runs without the rest of the grader.
"""

import _thread
import builtins
import collections
import contextlib
import json
import numbers
import os
import struct
import sys

MAX_MESSAGE = 64 * 1024 * 1024
# Exact types that stand for themselves in a message: a list of only these is encoded or
# decoded in one step (a timing test's 64,000 IDs), not one call per item.
_SCALARS = frozenset({int, float, str, bool, type(None)})


class Base64(bytes):
    """An array's bytes in base64, written into the JSON text as it is (``dumps``)."""


def dumps(message: object) -> bytes:
    """``message`` as JSON, each ``Base64`` in it joined in as a JSON string after
    ``json.dumps`` has put a random marker in its place: base64 needs no escaping, and
    scanning it for escapes was most of the cost of sending an array. The scorer sends
    with this function too (``arrays.dumps``)."""
    texts = []
    marker = "\x00" + os.urandom(8).hex()

    def blob(value: object) -> str:
        if type(value) is not Base64:
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        texts.append(value)
        return marker

    data = json.dumps(message, allow_nan=True, default=blob).encode("utf-8")
    if not texts:
        return data
    pieces = data.split(json.dumps(marker).encode("ascii"))
    if len(pieces) != len(texts) + 1:
        raise ValueError("an array's place in the message was lost")
    joined = [pieces[0]]
    for text, piece in zip(texts, pieces[1:]):
        joined += [b'"', text, b'"', piece]
    return b"".join(joined)


def write_all(fd: int, data: bytes) -> None:
    """Write ``data`` with its length first; a view, so each partial write copies nothing."""
    payload = memoryview(struct.pack(">I", len(data)) + data)
    while payload:
        payload = payload[os.write(fd, payload) :]


def send(fd: int, message: object) -> None:
    """Write one length-prefixed JSON message to ``fd``."""
    write_all(fd, dumps(message))


def read_exact(fd: int, size: int) -> bytes:
    """Read exactly ``size`` bytes; raise ``EOFError`` if the pipe closes first."""
    parts = []
    while size:
        block = os.read(fd, min(size, 1 << 20))
        if not block:
            raise EOFError("pipe closed")
        parts.append(block)
        size -= len(block)
    return b"".join(parts)


def recv(fd: int) -> object:
    """Read one length-prefixed JSON message from ``fd``."""
    (size,) = struct.unpack(">I", read_exact(fd, 4))
    if size > MAX_MESSAGE:
        raise ValueError(f"message of {size} bytes exceeds the limit")
    return json.loads(read_exact(fd, size).decode("utf-8"))


class Objects:
    """Objects that stay in the worker, referred to by integer handles."""

    def __init__(self) -> None:
        self.by_id: dict[int, object] = {}

    def encode(self, value: object, depth: int = 0) -> object:
        """Plain data as JSON with tags; anything else becomes a remote handle."""
        if depth > 100:
            raise ValueError("value nested too deeply")
        if value is None or type(value) in (bool, str):
            return value
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real):
            return float(value)
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, list):
            items = list(value)  # iterated once (a subclass's __iter__ is the student's)
            if set(map(type, items)) <= _SCALARS:  # what encode gives each item: itself
                return items
            return [self.encode(v, depth + 1) for v in items]
        if isinstance(value, tuple):
            return {"__tuple__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, (set, frozenset)):
            return {"__set__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, dict):
            d = depth + 1
            return {"__dict__": [[self.encode(k, d), self.encode(v, d)] for k, v in value.items()]}
        numeric = _numpy_value(value)
        if numeric is not None:
            return numeric
        return self.keep(value)

    def keep(self, value: object) -> dict:
        """A handle to ``value``, which stays here."""
        handle = len(self.by_id) + 1
        self.by_id[handle] = value
        return {"__remote__": handle, "type": type(value).__name__}

    def decode(self, value: object) -> object:
        """Arguments from the scorer: plain data, tags, and handles to our objects."""
        if isinstance(value, list):
            if set(map(type, value)) <= _SCALARS:  # fresh from json.loads, nothing to undo
                return value
            return [self.decode(v) for v in value]
        if isinstance(value, dict):
            (tag, inner), = value.items()
            if tag == "__tuple__":
                return tuple(self.decode(v) for v in inner)
            if tag == "__set__":
                return {self.decode(v) for v in inner}
            if tag == "__dict__":
                if all(type(k) in _SCALARS and type(v) in _SCALARS for k, v in inner):
                    return dict(inner)  # plain pairs (a vocabulary): nothing to undo
                return {self.decode(k): self.decode(v) for k, v in inner}
            if tag == "__remote__":
                return self.by_id[inner]
            if tag == "__ndarray__":
                return _array_from_wire(inner)
            if tag == "__seeded__":
                return _generator(*inner)
            raise ValueError(f"unknown tag {tag}")
        return value


def _numpy_value(value: object) -> object:
    """A numpy array as the pipe's ``__ndarray__`` tag (``autograder/sandbox/arrays.py``
    reads it: dtype, shape, bytes; an array of Python objects goes as its dtype and shape
    alone), a numpy bool as a bool; None for anything else. numpy is looked up, never
    imported: no array exists where nothing imported it."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    if isinstance(value, numpy.bool_):
        return bool(value)
    if not isinstance(value, numpy.ndarray):
        return None
    array = numpy.asarray(value)
    if array.dtype.kind == "O":
        return {"__ndarray__": ["|O", list(array.shape), ""]}
    if array.dtype.itemsize > 1:
        array = array.astype(array.dtype.newbyteorder("<"), copy=False)
    import base64

    return {"__ndarray__": [array.dtype.str, list(array.shape),
                            Base64(base64.b64encode(array.tobytes(order="C")))]}


def _array_from_wire(inner: list) -> object:
    """The array of an ``__ndarray__`` tag from the scoring process (trusted: it wrote it)."""
    import base64

    import numpy

    dtype, shape, data = inner
    raw = base64.b64decode(data)
    return numpy.frombuffer(raw, dtype=numpy.dtype(dtype)).reshape(tuple(shape)).copy()


def describe(exc: BaseException) -> dict:
    """An exception as data: its class, the classes it derives from, its message, and
    ``where``: the innermost line of the student's code in its traceback (``"cell 9, line
    12"``, or ``"line 40"`` in a ``.py`` file), ``""`` when the student's code is not in it."""
    try:
        message = str(exc)
    except BaseException:  # noqa: BLE001 - a student __str__ may raise anything
        message = "<unprintable>"
    mro = [cls.__name__ for cls in type(exc).__mro__]
    where = ""
    try:
        tb = exc.__traceback__
        while tb is not None:
            # Student statements are compiled as "<cell 9, line 3>" / "<lines 1-80, line 3>"
            # with the cell's own line numbers (see extract.split.statement_source).
            name = tb.tb_frame.f_code.co_filename
            if name.startswith("<") and name.endswith(">") and ", line " in name:
                prefix = name[1:].split(", line ")[0]
                line = f"line {tb.tb_lineno}"
                where = f"{prefix}, {line}" if prefix.startswith("cell ") else line
            tb = tb.tb_next
    except BaseException:  # noqa: BLE001 - a student frame may be odd; the rest still counts
        where = ""
    return {"type": type(exc).__name__, "mro": mro, "message": message[:2000],
            "where": where[:100]}


def load(request: dict, channel: "Channel") -> tuple[dict, list[str], "StandIns"]:
    """Build the namespace: stand-ins for the other parts, then the student's statements.

    Each statement is ``{"source", "origin", "graded"}``. A graded statement's error is
    reported; the others are the student's classes of other parts, kept only for what
    the reference does not define (their constants, helpers, state), so they run quietly
    and briefly.
    """
    namespace: dict = {"__name__": "submission", "__builtins__": __builtins__}
    standins = StandIns(request["standins"], channel)
    standins.prebind(namespace)
    errors = []
    for statement in request["student"]:
        if statement.get("deferred"):  # another part's function: see StandIns.trust
            standins.deferred.append(statement)
            continue
        try:
            code = compile(statement["source"], f"<{statement['origin']}>", "exec")
            if statement["graded"]:
                exec(code, namespace)
            else:
                quietly(code, namespace, statement["source"])
        except BaseException as exc:  # noqa: BLE001 - SystemExit and friends included
            if statement["graded"]:
                info = describe(exc)
                errors.append(f"{statement['origin']}: {info['type']}: {info['message']}")
    standins.install(namespace)
    return namespace, errors, standins


# Seconds a student's class of another part may take to define, and its constructor to run
# (all calls together): they are kept for fairness, never graded here.
QUIET_SECONDS = 0.5


# The builtin classes an annotation may subscript (``list[str]``): taken before any student
# code runs, so that a name rebound later is not mistaken for one of them.
_GENERICS = (list, dict, tuple, set, frozenset, type)
_DECORATORS = (property, staticmethod, classmethod)  # builtins that call nothing of ours


def inert(source: str, namespace: dict) -> bool:
    """Can running ``source`` in ``namespace`` call no code at all, so that it needs no dry
    run (``survives``)? True only for one class or function definition that evaluates
    nothing but constants and names: no decorator but the builtin ``property``,
    ``staticmethod`` and ``classmethod``, no keyword (``metaclass=``), bases that
    are plain classes whose ancestors have no ``__init_subclass__``, defaults that are
    constants or names, annotations that are constants, names, ``list[...]``-style
    subscripts of the builtin classes and ``|`` of those; a class body of only docstrings,
    ``pass``, constant assignments and such functions. Anything else (calls, attributes,
    operators on other objects) is left to the dry run: it could run the student's code."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if len(tree.body) != 1:
        return False
    node = tree.body[0]
    lookup = _names(namespace)
    if lookup is None:
        return False
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return not node.decorator_list and _inert_function(node, lookup, set())
    if not isinstance(node, ast.ClassDef) or node.decorator_list or node.keywords or getattr(
            node, "type_params", None):
        return False
    for base in node.bases:
        cls = lookup(base.id) if isinstance(base, ast.Name) else None
        if type(cls) is not type or any(
                "__init_subclass__" in c.__dict__ for c in cls.__mro__ if c is not object):
            return False
    local: set[str] = set()  # names the body binds before an annotation reads them
    for item in node.body:
        if isinstance(item, ast.Pass) or (
                isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)):
            continue
        if isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant) and all(
                isinstance(t, ast.Name) for t in item.targets):
            local.update(t.id for t in item.targets)
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _inert_function(
                item, lookup, local):
            local.add(item.name)
        else:
            return False
    return True


def _names(namespace: dict):
    """How a definition in ``namespace`` finds a global or builtin name (None: it cannot
    be told without running code)."""
    found = namespace.get("__builtins__", builtins)
    if type(found) is type(builtins):
        found = found.__dict__
    if type(found) is not dict:
        return None
    missing = object()

    def lookup(name: str) -> object:
        value = namespace.get(name, missing)
        return found.get(name) if value is missing else value

    return lookup


def _inert_function(node, lookup, local: set[str]) -> bool:
    """A ``def`` that evaluates only constants and names when it is defined (in a class,
    decorated with nothing but ``_DECORATORS``)."""
    import ast

    args = node.args
    if getattr(node, "type_params", None) or not all(
            isinstance(d, ast.Name) and d.id not in local
            and any(lookup(d.id) is known for known in _DECORATORS)
            for d in node.decorator_list) or not all(
            d is None or isinstance(d, (ast.Constant, ast.Name))
            for d in [*args.defaults, *args.kw_defaults]):
        return False
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    notes = [a.annotation for a in every if a is not None] + [node.returns]
    return all(_inert_note(n, lookup, local) for n in notes)


def _inert_note(note, lookup, local: set[str]) -> bool:
    """An annotation that evaluates without calling code: see ``inert``."""
    import ast

    if note is None or isinstance(note, (ast.Constant, ast.Name)):
        return True
    if isinstance(note, ast.Subscript):
        inner = note.slice.elts if isinstance(note.slice, ast.Tuple) else [note.slice]
        return (isinstance(note.value, ast.Name) and note.value.id not in local
                and any(lookup(note.value.id) is g for g in _GENERICS)
                and all(_inert_note(n, lookup, local) for n in inner))
    if isinstance(note, ast.BinOp) and isinstance(note.op, ast.BitOr):
        return all(_plain_operand(side, lookup, local) for side in (note.left, note.right))
    return False


def _plain_operand(side, lookup, local: set[str]) -> bool:
    """A side of ``X | Y`` whose ``|`` is the builtin one: None, a plain class, ``list[...]``."""
    import ast

    if isinstance(side, ast.Constant):
        return side.value is None
    if isinstance(side, ast.Name):
        value = lookup(side.id)
        return side.id not in local and (value is None or type(value) is type)
    return isinstance(side, (ast.Subscript, ast.BinOp)) and _inert_note(side, lookup, local)


def quietly(code, namespace: dict, source: str) -> None:
    """Run another part's statement (its class, or a function being trusted) as quiet code:
    tried in a forked copy first (``survives``), then for real within ``QUIET_SECONDS``;
    the processes either started are killed once it is done (``_end_strays``): quiet code
    is kept for its definitions, and a process it started would spend the cores of this
    part's grading (and count in its worker's CPU). Raises what the statement raises.

    What it does not reach (each costs only the hostile submission's own grading time):
    a thread the statement started that forks later, a process started by the student's
    constructor of that class (``StandIns.constructor``), a signal handler the statement
    installed that interrupts the cleanup, and a fork chain longer than ``STRAY_ROUNDS``."""
    if not (inert(source, namespace) or survives(code, namespace, QUIET_SECONDS)):
        return
    before = _children()
    try:
        with budget(QUIET_SECONDS):
            exec(code, namespace)
    finally:
        _end_strays(before)


def survives(code, namespace: dict, seconds: float) -> bool:
    """Run ``code`` once in a forked copy of this process first: does it finish within
    ``seconds`` without taking the process down (``os._exit``, a crash, a hang)?

    Another part's class must not be able to kill the worker of this part; raising is
    fine (the statement is then simply not kept). The copy leads a process group of its
    own, which is killed whole, and then what it left (``_end_strays``)."""
    import time

    before = _children()
    pid = os.fork()
    if pid == 0:  # the copy: its fate is all it reports; it must not use the pipes
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        Channel.closed = True
        with contextlib.suppress(BaseException):
            exec(code, dict(namespace))
        os._exit(0)
    with contextlib.suppress(OSError):  # here too: no fork of the copy's may slip out
        os.setpgid(pid, pid)
    deadline, finished, status = time.monotonic() + seconds, False, 0
    try:
        # Wait without reaping (``WNOWAIT``): until it is reaped, the copy's pid, and so its
        # group's id, cannot be taken by a new process that ``killpg`` would then hit.
        while not finished and time.monotonic() <= deadline:
            finished = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
            if not finished:
                time.sleep(0.002)
    finally:
        for kill in (os.killpg, os.kill):  # its group, forks in flight included; then itself
            with contextlib.suppress(OSError):
                kill(pid, 9)
        _, status = os.waitpid(pid, 0)
        _end_strays(before)
    return finished and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


# Rounds of ``_end_strays``: each kills every stray child, whose own children then come to
# this process for the next round. A chain of forks that outruns them is left running (see
# ``quietly``).
STRAY_ROUNDS = 64


def _children() -> set[int]:
    """This process's children (every thread's), as the kernel lists them; an empty set
    where it does not."""
    found: set[int] = set()
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError, ValueError), \
                    open(f"/proc/self/task/{task}/children") as listing:
                found.update(int(pid) for pid in listing.read().split())
    return found


def _end_strays(before: set[int]) -> None:
    """Kill and reap every child of this process not in ``before``, round after round:
    the worker is its tree's reaper (``confine``), so the orphans of a killed child come
    here and are found in the next round."""
    for _ in range(STRAY_ROUNDS):
        strays = _children() - before
        if not strays:
            return
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        for pid in strays:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


class _Overtime(BaseException):
    """Quiet student code (another part's) ran past its budget."""


@contextlib.contextmanager
def budget(seconds: float):
    """Stop the code inside after ``seconds`` of wall time (an alarm, repeated until it
    gives up); nested budgets leave the outer one in charge."""
    import signal

    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Overtime

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _plain(value: object, depth: int = 0) -> bool:
    if depth > 100:
        return False
    if value is None or type(value) in (bool, int, float, str):
        return True
    if type(value) in (list, tuple, set, frozenset):
        return all(_plain(v, depth + 1) for v in value)
    if type(value) in (dict, collections.Counter):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _frozen(value: object) -> object:
    """A hashable key for plain data (``TypeError`` for anything else)."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind in (list, tuple):
        return (kind.__name__, tuple(_frozen(v) for v in value))
    if kind in (dict, collections.Counter):
        return (kind.__name__, tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    if kind in (set, frozenset):
        return (kind.__name__, frozenset(_frozen(v) for v in value))
    raise TypeError(kind.__name__)


def _copied(value: object) -> object:
    """A fresh copy of plain data, so that a remembered result is never shared."""
    kind = type(value)
    if kind is list:
        return [_copied(v) for v in value]
    if kind is tuple:
        return tuple(_copied(v) for v in value)
    if kind in (dict, collections.Counter):
        return kind({k: _copied(v) for k, v in value.items()})
    if kind is set:
        return {_copied(v) for v in value}
    return value  # immutable


def _public_state(obj: object) -> dict:
    """What of an object's state goes to the reference: public names with plain data."""
    try:
        items = list(vars(obj).items())
    except TypeError:  # __slots__: no state the reference could use
        return {}
    return {k: v for k, v in items if type(k) is str and not k.startswith("_") and _plain(v)}


class Channel:
    """The stand-ins' line to the scorer: one ``{"ref": ...}`` message, one reply.

    Module-level functions are pure, so their results are remembered by arguments: a
    student's method that calls another part's function on the same input again costs about
    what a local call would (a lookup and a copy), not a round trip, so an encoder that
    calls another part's function once per word is timed on its own work, not on the pipe.
    The price: in a timing test a repeated call is cheap and a new one dear, so code that
    repeats its calls on a larger input looks faster than it is (lenient; see docs/grading.md,
    "Timing and the other parts").
    """

    MEMO_ENTRIES = 200_000
    STATE_BYTES = 1 << 20  # marshal bytes of the object states remembered (``state_of``)
    closed = False  # set in a dry run's forked copy (see ``survives``)

    def __init__(self, in_fd: int, out_fd: int) -> None:
        import threading

        self.in_fd, self.out_fd = in_fd, out_fd
        self.lock = threading.Lock()
        self.memo: dict = {}
        self.states: dict[bytes, object] = {}
        self.state_bytes = 0
        self.classes: dict[str, type] = {}  # reference class name -> class standing in
        self.owners: dict[type, str] = {}

    def ask(self, request: dict) -> dict:
        """Send one stand-in request and return its decoded reply (or raise its error)."""
        if self.closed:
            raise RuntimeError("the other parts cannot be called here")
        data = dumps(request)
        with self.lock:
            write_all(self.out_fd, data)
            (size,) = struct.unpack(">I", read_exact(self.in_fd, 4))
            answer = json.loads(read_exact(self.in_fd, size).decode("utf-8"))
        if "ref_error" in answer:
            error = answer["ref_error"]
            kind = getattr(builtins, str(error.get("type")), None)
            if not (isinstance(kind, type) and issubclass(kind, Exception)):
                kind = RuntimeError
            raise kind(str(error.get("message")))
        return {key: self.decode(value) for key, value in answer["ref_ok"].items()}

    def call(self, name: str, args: tuple, kwargs: dict) -> object:
        """A module-level function of another part, remembered by its arguments."""
        try:
            key = (name, _frozen(args), _frozen(kwargs))
            hash(key)
        except TypeError:  # an argument that is not plain data: no memo
            key = None
        if key is not None and key in self.memo:
            return _copied(self.memo[key])
        value = self.request("call", name, args, kwargs)["value"]
        if key is not None and _plain(value):  # objects are never shared between calls
            if len(self.memo) >= self.MEMO_ENTRIES:
                self.memo.clear()
            self.memo[key] = _copied(value)
        return value

    def encode(self, value: object, depth: int = 0) -> object:
        """An argument for the reference: plain data, or an object of a class that stands
        in for one of the reference's (sent as its public state)."""
        if depth > 100:
            raise ValueError("value nested too deeply")
        if value is None or type(value) in (bool, int, float, str):
            return value
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
            return float(value)
        if isinstance(value, str):
            return str.__str__(value)
        if isinstance(value, list):
            items = list(value)  # iterated once (a subclass's __iter__ is the student's)
            if set(map(type, items)) <= _SCALARS:  # what encode gives each item: itself
                return items
            return [self.encode(v, depth + 1) for v in items]
        if isinstance(value, tuple):
            return {"__tuple__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, (set, frozenset)):
            return {"__set__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, dict):
            tag = "__counter__" if isinstance(value, collections.Counter) else "__dict__"
            return {tag: [[self.encode(k, depth + 1), self.encode(v, depth + 1)]
                          for k, v in value.items()]}
        numeric = _numpy_value(value)
        if isinstance(numeric, dict) and numeric["__ndarray__"][0] == "|O":
            raise TypeError("an array of Python objects (dtype=object) cannot be passed to the "
                            "reference code that stands in for another part (numbers only)")
        if numeric is not None:
            return numeric
        for cls in type(value).__mro__:
            if cls in self.owners:
                return {"__object__": self.owners[cls],
                        "state": self.encode(_public_state(value), depth + 1)}
        raise TypeError(f"a {type(value).__name__} object cannot be passed to the reference "
                        "code that stands in for another part (plain data only)")

    def decode(self, value: object) -> object:
        if isinstance(value, list):
            return [self.decode(v) for v in value]
        if isinstance(value, dict):
            tag, inner = next(iter(value.items()))
            if tag == "__tuple__":
                return tuple(self.decode(v) for v in inner)
            if tag == "__set__":
                return {self.decode(v) for v in inner}
            if tag == "__frozenset__":
                return frozenset(self.decode(v) for v in inner)
            if tag in ("__dict__", "__counter__"):
                made = {self.decode(k): self.decode(v) for k, v in inner}
                return made if tag == "__dict__" else collections.Counter(made)
            if tag == "__object__":
                obj = object.__new__(self.classes[inner])
                vars(obj).update(self.decode(value["state"]))
                return obj
            if tag == "__ndarray__":
                return _array_from_wire(inner)
        return value

    def request(self, op: str, name: str, args: tuple, kwargs: dict,
                cls: str | None = None, obj: object = None) -> dict:
        message = {"ref": op, "name": name, "args": self.encode(list(args)),
                   "kwargs": [[k, self.encode(v)] for k, v in kwargs.items()]}
        if cls is not None:
            message["cls"] = cls
            message["state"] = self.state_of(obj)
        return self.ask(message)

    def state_of(self, obj: object) -> object:
        """``encode`` of ``obj``'s public state, remembered by the state's ``marshal`` bytes.

        The state (a tokenizer's vocabulary: hundreds of values) goes with every call of
        one of the object's methods, mostly unchanged, and encoding it value by value took
        a millisecond per call. ``marshal`` writes builtin types at C speed, and for the
        exact types that ``_public_state`` keeps, the same bytes only for the same data;
        its bytes of some other objects (a numpy scalar, a ``bytearray``) can equal those
        of other data, but such a state holds a value ``_public_state`` leaves out, so it
        is never remembered. A state marshal cannot write, or over ``STATE_BYTES``, is
        encoded each time; all that is remembered stays under ``STATE_BYTES`` of marshal
        bytes (a worker has an eighth of its submission's memory)."""
        import marshal

        try:
            raw = {k: v for k, v in vars(obj).items() if type(k) is str and k[:1] != "_"}
            key = marshal.dumps(raw, 2)  # format 2: no back-references
        except (TypeError, ValueError):  # __slots__, or something marshal will not write
            return self.encode(_public_state(obj))
        found = self.states.get(key)
        if found is None:
            state = _public_state(obj)
            found = self.encode(state)
            if len(key) <= self.STATE_BYTES and len(state) == len(raw):  # all of it plain
                if self.state_bytes + len(key) > self.STATE_BYTES:
                    self.states.clear()
                    self.state_bytes = 0
                self.states[key] = found
                self.state_bytes += len(key)
        return found


_MISSING = object()


class StandIns:
    """Stand-ins for the other parts' spec names, built from the scorer's description.

    Functions become stubs. A class becomes the student's own class of that name with
    the reference's members put in its place (the student's other members stay, so a
    base class's constants and helpers survive), or an empty class if the student has
    none. A stand-in method sends the object's public state with the call and takes the
    new state back, so the object itself always lives here.
    """

    def __init__(self, description: dict, channel: Channel) -> None:
        self.description, self.channel = description, channel
        self.shells: dict[str, type] = {}
        self.deferred: list[dict] = []  # the student's functions of other parts, not run yet
        self.originals: dict[str, tuple[type, dict]] = {}  # members a patch replaced

    def trust(self, namespace: dict, names: list[str]) -> list[str]:
        """Use the student's own functions ``names`` (of parts that passed every test)
        instead of their stand-ins; returns the names now the student's own.

        The scoring process decides; this only runs the student's definitions (tried in
        a forked copy first, like another part's class) and keeps what defines a function.
        """
        for name in names:  # a class: the student's own members come back
            cls, saved = self.originals.pop(name, (None, {}))
            for member, value in saved.items():
                if value is _MISSING:
                    delattr(cls, member)
                else:
                    setattr(cls, member, value)
        wanted = set(names) & set(self.description["functions"])
        for statement in list(self.deferred):
            if set(statement["names"]) <= wanted:
                self.deferred.remove(statement)
                code = compile(statement["source"], f"<{statement['origin']}>", "exec")
                scratch = dict(namespace)
                with contextlib.suppress(BaseException):
                    quietly(code, scratch, statement["source"])
                for name in statement["names"]:  # what it bound before it raised counts too
                    if name in wanted and callable(scratch.get(name)):
                        namespace[name] = scratch[name]
        own = [n for n in names if getattr(namespace.get(n), "__module__", None) == "submission"
               and (n in wanted or n not in self.originals)]
        return sorted(own)

    def prebind(self, namespace: dict) -> None:
        """Names the student's code may use while it is defined (base classes)."""
        for name, value in self.description["values"]:
            namespace[name] = self.channel.decode(value)
        for name in self.description["functions"]:
            namespace[name] = self.function(name)
        for spec in self.description["classes"]:
            bases = tuple(namespace[b] for b in spec["bases"] if isinstance(
                namespace.get(b), type)) or (object,)
            shell = type(spec["name"], bases, {"__module__": "submission"})
            self.shells[spec["name"]] = namespace[spec["name"]] = shell

    def install(self, namespace: dict) -> None:
        """After the student's code: every other part's name stands for the reference."""
        for name in self.description["functions"]:
            namespace[name] = self.function(name)
        for spec in self.description["classes"]:
            name = spec["name"]
            current = namespace.get(name)
            own = isinstance(current, type) and current is not self.shells[name]
            cls = current if own else self.shells[name]
            namespace[name] = cls
            self.patch(cls, spec, own)

    def function(self, name: str):
        channel = self.channel

        def stand_in(*args, **kwargs):
            return channel.call(name, args, kwargs)

        stand_in.__name__ = stand_in.__qualname__ = name
        return stand_in

    def patch(self, cls: type, spec: dict, own: bool) -> None:
        name = spec["name"]
        self.channel.classes[name] = cls
        self.channel.owners[cls] = name
        student_init = cls.__init__ if own and cls.__init__ is not object.__init__ else None
        # The reference's properties and class constants: the student's constructor may
        # shadow them on the object (``self.unk_id = 4``); the reference's values win.
        properties = [m for m, kind in spec["members"].items() if kind != "method"]
        saved = {}
        for member, kind in spec["members"].items():
            private = member.startswith("_") and not member.startswith("__")
            if own and private and hasattr(cls, member):
                continue  # the student's own helper of that name stays theirs
            saved[member] = vars(cls).get(member, _MISSING)
            if kind == "method":
                method = self.method(name, member)
                if member == "__init__":
                    method = self.constructor(method, student_init, properties)
                setattr(cls, member, method)
            elif kind == "property":
                setattr(cls, member, self.property(name, member))
            else:
                setattr(cls, member, kind[1])
        if own:
            self.originals[name] = (cls, saved)

    def method(self, cls_name: str, member: str):
        channel = self.channel

        def stand_in(obj, *args, **kwargs):
            reply = channel.request("method", member, args, kwargs, cls=cls_name, obj=obj)
            with contextlib.suppress(TypeError):  # None: the call left the state as it was
                vars(obj).update(reply["state"])
            return reply["value"]

        stand_in.__name__, stand_in.__qualname__ = member, f"{cls_name}.{member}"
        return stand_in

    def property(self, cls_name: str, member: str) -> property:
        channel = self.channel

        def get(obj):
            assigned = getattr(obj, "__dict__", {})
            if member in assigned:  # the student's code assigned it: read it back
                return assigned[member]
            return channel.request("property", member, (), {}, cls=cls_name, obj=obj)["value"]

        def set_(obj, value):
            vars(obj)[member] = value

        return property(get, set_)

    @staticmethod
    def constructor(reference_init, student_init, properties: list[str]):
        """The student's own constructor first (for the state only it sets), then the
        reference's, whose state wins; a student constructor that raises is ignored, one
        that runs past its budget (all calls together) is never run again."""
        import time

        state = {"left": QUIET_SECONDS, "busy": False}

        def __init__(self, *args, **kwargs):
            if student_init is not None and state["left"] > 0 and not state["busy"]:
                state["busy"] = True
                start = time.monotonic()
                try:
                    with budget(state["left"]):
                        student_init(self, *args, **kwargs)
                except BaseException:  # noqa: BLE001 - not graded here
                    pass
                finally:
                    state["busy"] = False
                    state["left"] -= time.monotonic() - start
                for name in properties:  # the reference computes or holds these
                    getattr(self, "__dict__", {}).pop(name, None)
            reference_init(self, *args, **kwargs)

        return __init__


def answer(request: dict, objects: "Objects", namespace: dict) -> object:
    """The value one request asks for.

    ``get``/``call``: an attribute of, or a call to, a name or a kept object. The grader's
    own plumbing, so that it needs no object of the student's (builtins reached through a
    student's function could be the student's): ``map`` calls the target on each row of
    the argument columns, ``attrs`` reads one attribute of each object in ``args[0]``,
    ``put`` keeps ``args[0]`` here. With ``keep``, the value stays here as a handle.
    """
    op, name = request["op"], request["name"]
    args = objects.decode(request["args"])
    if op == "put":
        return args[0]
    if op == "attrs":
        return [getattr(obj, name) for obj in args[0]]
    target = request["target"]
    obj = objects.by_id[target] if isinstance(target, int) else namespace[target]
    if op == "get":
        return getattr(obj, name) if name else obj
    func = getattr(obj, name) if name else obj
    if op == "map":
        return [func(*row) for row in zip(*args)]
    return func(*args, **objects.decode({"__dict__": request["kwargs"]}))


def serve(in_fd: int, out_fd: int) -> None:
    """Answer requests until the scorer closes the pipe."""
    objects = Objects()
    namespace, errors, standins = load(recv(in_fd), Channel(in_fd, out_fd))
    names = sorted(n for n in namespace if not n.startswith("__"))
    send(out_fd, {"ok": True, "errors": errors, "names": names})
    while True:
        try:
            request = recv(in_fd)
        except EOFError:
            return
        try:
            if request["op"] == "trust":
                value = standins.trust(namespace, request["names"])
                send(out_fd, {"ok": True, "value": value})
                continue
            value = answer(request, objects, namespace)
            keep = request.get("keep") is True
            reply = {"ok": True, "value": objects.keep(value) if keep else objects.encode(value)}
        except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
            reply = {"ok": False, "error": describe(exc)}
        send(out_fd, reply)


def confine(setup: dict) -> None:
    """Confine this process before any student code: mounts, user, capabilities, filter.

    Runs before any student code, so it is still trusted. The mounts are system calls
    made here, not one ``mount`` process each, which keeps a worker's start fast.

    Under namespaces (``setup["mounts"]`` or ``setup["private"]``), as root of fresh
    mount, PID, IPC and network namespaces: cover the folders, give the worker its own
    ``/tmp``, ``/dev/shm`` and ``/dev/mqueue``, bind the allowed packages read-only into
    ``/tmp/.packages``, and mount a ``/proc`` that shows this namespace's processes
    only. Then become ``drop_to`` (or, with no user to become, give up every
    capability), with no way back. Last, the system-call filter (``_filter``).
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source: str, target: str, kind: str | None, flags: int, options: str) -> None:
        data = options.encode() if options else None
        if libc.mount(source.encode(), target.encode(), kind.encode() if kind else None,
                      flags, data) != 0:
            raise OSError(ctypes.get_errno(), f"cannot mount {source} on {target}")

    if setup["private"]:
        # The packages, opened before the folders that hold them are covered.
        packages = {name: os.open(path, os.O_PATH | os.O_DIRECTORY)
                    for name, path in setup["packages"]["binds"].items()}
        for folder in setup["mounts"]:  # the covered folders first (some may lie under /tmp)
            mount("tmpfs", folder, "tmpfs", 0, "size=4k,mode=000")
        mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777,size=64m")
        mount("tmpfs", "/dev/shm", "tmpfs", _NOSUID | _NODEV, "mode=1777,size=64m")
        if os.path.isdir("/dev/mqueue"):  # the host's message queues, by file name
            mount("tmpfs", "/dev/mqueue", "tmpfs", 0, "size=4k,mode=000")
        view = setup["packages"]["path"]
        os.mkdir(view, 0o755)
        for name, fd in packages.items():
            os.mkdir(f"{view}/{name}", 0o755)
            mount(f"/proc/self/fd/{fd}", f"{view}/{name}", None, _BIND, "")
            mount("none", f"{view}/{name}", None,
                  _BIND | _REMOUNT | _RDONLY | _NOSUID | _NODEV, "")
            os.close(fd)  # a handle on the real tree would lead around the covers
        mount("proc", "/proc", "proc", _NOSUID | _NODEV | _NOEXEC, "")
        os.chdir("/tmp")
    if setup["drop_to"] is not None:
        os.setgroups([])
        os.setgid(setup["drop_to"])
        os.setuid(setup["drop_to"])
    elif setup["private"]:  # root of a user namespace: keep nothing that could umount
        for cap in range(64):
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (EINVAL past the last one)
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
        if libc.capset(header, (ctypes.c_uint32 * 6)()) != 0:
            raise OSError(ctypes.get_errno(), "cannot drop capabilities")
    # Orphans of the worker's children (a double fork) become its own children, not
    # init's: the timing tests count the CPU of the worker's tree, and cleaning up finds
    # them there. The filter keeps student code from turning this off.
    if libc.prctl(_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot become the reaper of the worker's orphans")
    # Ended children stay until waited for, their CPU time then in the waiter's: ignoring
    # SIGCHLD would have the kernel drop them, and their time, at once (an inherited
    # SIG_IGN survives exec). The filter keeps it so.
    import signal

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS: no setuid way back
        raise OSError(ctypes.get_errno(), "cannot set no_new_privs")
    os.umask(0o077)  # what the worker creates is its own (umask is filtered below)
    if setup["filter"] != "none":
        try:
            _filter(libc)
        except OSError:
            if setup["filter"] == "required":
                raise


_NOSUID, _NODEV, _NOEXEC, _RDONLY, _REMOUNT, _BIND = 2, 4, 8, 1, 32, 4096
_SET_CHILD_SUBREAPER = 36  # the prctl options the filter refuses (see ``confine``),
_SCHED_CORE = 62  # and core scheduling: a cookie that could keep an SMT sibling idle
_CLONE_PARENT = 0x8000  # the clone flags the filter refuses: this one, and new namespaces
# (mount, cgroup, UTS, IPC, user, PID, network), which only ``confine`` needs
_CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 \
    | 0x40000000
_SIGCHLD = 17  # the signal whose action the filter refuses to change (x86_64, aarch64)
# The calls the filter looks into, by architecture.
_CALLS = {0xC000003E: {"prctl": 157, "clone": 56, "clone3": 435, "rt_sigaction": 13},
          0xC00000B7: {"prctl": 167, "clone": 220, "clone3": 435, "rt_sigaction": 134}}
# System calls the worker never needs and that would open a channel to another worker
# or the host: sockets (the network, named and abstract Unix sockets), System V and
# POSIX message IPC, ptrace, other processes' memory, changing file modes or ACLs (to
# share a file with another worker), the umask, io_uring (425-427: its requests open
# sockets and connect without any of the calls above, unseen by the filter),
# sched_setaffinity (in a batch each grading keeps to its core: processes moved onto
# another would slow a classmate's grading), and unshare and setns (new namespaces, made
# and dropped in a loop, have the kernel tear them down on any core: a classmate's too).
# By architecture, as in <asm/unistd.h>.
_DENIED = {
    0xC000003E: (  # x86_64
        41, 29, 30, 31, 64, 65, 66, 68, 69, 70, 71, 220, 240, 241, 242, 243, 244, 245,
        101, 310, 311, 90, 91, 268, 452, 188, 189, 190, 95, 43, 288, 49, 50, 42,
        425, 426, 427, 203, 272, 308,
    ),
    0xC00000B7: (  # aarch64
        198, 194, 195, 196, 186, 187, 188, 189, 190, 191, 192, 193, 180, 181, 182, 183,
        184, 185, 117, 270, 271, 52, 53, 452, 5, 6, 7, 166, 202, 242, 200, 201, 203,
        425, 426, 427, 122, 97, 268,
    ),
}


def _filter(libc) -> None:
    """Install a seccomp filter: the calls in ``_DENIED``, ``prctl`` giving up the orphans
    (``_SET_CHILD_SUBREAPER``) or setting core scheduling (``_SCHED_CORE``), ``clone``
    with ``CLONE_PARENT`` (a child of the worker's parent, outside the tree the timing
    tests count) or into new namespaces (``_CLONE_NEW``, as ``unshare`` in ``_DENIED``)
    and ``rt_sigaction`` on ``SIGCHLD`` (``SIG_IGN`` or ``SA_NOCLDWAIT`` has the kernel
    reap ended children without adding their CPU time to anyone's: the timing tests
    would not see it) fail with EPERM from now on; ``clone3``, whose flags a filter
    cannot read, says ENOSYS, so that the C library falls back to ``clone``.

    Works without privileges once no_new_privs is set, at every level, and binds
    every process the worker starts. An unknown architecture (or the x32 ABI) gets
    every call refused, so the filter cannot be walked around by a foreign ABI.
    """
    import ctypes

    machine = os.uname().machine
    arch = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}.get(machine)
    if arch is None:
        raise OSError(0, f"no system-call table for {machine}")
    calls = _CALLS[arch]
    eperm, enosys, allow, kill = 0x00050000 | 1, 0x00050000 | 38, 0x7FFF0000, 0x80000000
    jeq, jset, load, ret = 0x15, 0x45, 0x20, 0x06
    program = [(load, 0, 0, 4),  # A = arch
               (jeq, 1, 0, arch),  # the expected arch: skip the next
               (ret, 0, 0, kill),
               (load, 0, 0, 0),  # A = system call number
               (0x35, 0, 1, 0x40000000),  # x32 calls on x86_64: refuse
               (ret, 0, 0, eperm)]
    # Jumps to a label (a string placed before its instruction); None: the next one.
    body = [*((jeq, "eperm", None, number) for number in _DENIED[arch]),
            (jeq, None, "clone", calls["prctl"]),
            (load, None, None, 16),  # A = the first argument (its low half)
            (jeq, "eperm", None, _SET_CHILD_SUBREAPER),
            (jeq, "eperm", "allow", _SCHED_CORE),
            "clone", (jeq, None, "sigaction", calls["clone"]),
            (load, None, None, 16),  # A = the flags
            (jset, "eperm", "allow", _CLONE_PARENT | _CLONE_NEW),
            "sigaction", (jeq, None, "clone3", calls["rt_sigaction"]),
            (load, None, None, 16),  # A = the signal
            (jeq, "eperm", "allow", _SIGCHLD),
            "clone3", (jeq, "enosys", "allow", calls["clone3"]),
            "allow", (ret, None, None, allow),
            "eperm", (ret, None, None, eperm),
            "enosys", (ret, None, None, enosys)]
    labels: dict[str, int] = {}
    steps: list[tuple] = []
    for item in body:
        if isinstance(item, str):
            labels[item] = len(steps)
        else:
            steps.append(item)

    def jump(target: str | None, at: int) -> int:
        offset = 0 if target is None else labels[target] - at - 1
        if not 0 <= offset <= 255:  # a jump is one byte: a longer one would wrap silently
            raise OSError(0, "the system-call filter's jumps are too long")
        return offset

    program += [(code, jump(yes, at), jump(no, at), k)
                for at, (code, yes, no, k) in enumerate(steps)]

    class Instruction(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8),
                    ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(Instruction))]

    table = (Instruction * len(program))(*program)
    fprog = Program(len(program), table)
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, MODE_FILTER
        raise OSError(ctypes.get_errno(), "cannot install the system-call filter")


def apply_limits(limits: dict, own_user: bool) -> None:
    """Lower this process's hard limits; nothing the student runs can raise them again.

    The process limit counts every process of the user, so it is set only when the
    worker runs as a user of its own (``own_user``): then it cannot starve the grader.
    """
    import resource

    pairs = [
        (resource.RLIMIT_CPU, limits["cpu_seconds"]),
        (resource.RLIMIT_AS, limits["address_space"]),
        (resource.RLIMIT_FSIZE, limits["file_size"]),
        (resource.RLIMIT_CORE, 0),
    ]
    if own_user:
        pairs.append((resource.RLIMIT_NPROC, limits["processes"]))
    for which, value in pairs:
        hard = resource.getrlimit(which)[1]  # what the scoring process allows (its timeout)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


# The allowed packages whose import takes long (numpy: a tenth of a second of CPU), which
# ``LazyPackages`` loads at first use.
LAZY_PACKAGES = ("numpy",)


# The seed of the global generators (``random``'s and ``numpy.random``'s), set before any
# student code: code that draws from them instead of the generator a test passes gets the
# same draws at every grading (a grade is a function of the submission alone), and draws
# that a test's own seeds never give. ``numpy.random`` is seeded when first imported.
GLOBAL_SEED = 9_170_413


def seed_globals() -> None:
    import random

    random.seed(GLOBAL_SEED)


def _generator(kind: str, seed: int) -> object:
    """A fresh generator that a test passes (the ``__seeded__`` tag: ``sandbox/seeded.py``)."""
    if kind == "random":
        import random

        return random.Random(seed)
    import numpy

    return numpy.random.default_rng(seed)


class LazyPackages:
    """A finder that gives the packages of ``LAZY_PACKAGES`` a lazy loader: ``import numpy
    as np`` binds the module at once, and its code runs at the first read of one of its
    attributes; ``from numpy import x`` runs it at once. A submission's imports run in
    every worker of its grading (eight of them), and most parts never touch numpy:
    importing it in each cost about 0.75 s of CPU per grading. A package that is missing
    still fails at the import statement; one whose code fails raises at its first use.

    Not ``importlib.util.LazyLoader``: before Python 3.12.3 two threads that use the module
    first at the same time both run its code, and numpy then fails in both. Here the first
    reader runs it under a lock that every other thread waits for (``_LazyModule``). One
    case still differs from an eager import: a thread that imports a submodule
    (``import numpy.linalg``) while another is the first to read the package can wait on
    it for ever, each holding what the other needs."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if name not in LAZY_PACKAGES and name != "numpy.random":
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            wrap = _SeedingLoader if name == "numpy.random" else _LazyLoader
            spec.loader = wrap(spec.loader)
        return spec


class _LazyLoader:
    """The package's own loader, with the running of its code put off (``_LazyModule``)."""

    def __init__(self, loader) -> None:
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        module.__spec__.loader = module.__loader__ = self.loader
        module.__class__ = _LazyModule


class _SeedingLoader(_LazyLoader):
    """``numpy.random``'s own loader, run at once, then seeding the module's global
    generator."""

    def exec_module(self, module) -> None:
        module.__spec__.loader = module.__loader__ = self.loader
        self.loader.exec_module(module)
        module.seed(GLOBAL_SEED)


# Held while a lazy package's code runs; re-entrant, since that code reads the package.
_LAZY_LOCK = _thread.RLock()


class _LazyModule(type(sys)):
    """A package whose code has not run: the first attribute read runs it, under
    ``_LAZY_LOCK``; the module is then a plain module again."""

    def __getattribute__(self, attr: str):
        with _LAZY_LOCK:
            if type(self) is _LazyModule:  # not loaded yet: this thread loads it
                self.__class__ = _Loading
                try:
                    type(sys).__getattribute__(self, "__loader__").exec_module(self)
                finally:
                    self.__class__ = type(sys)
        return type(sys).__getattribute__(self, attr)


class _Loading(type(sys)):
    """A package whose code is running: the thread running it reads it freely (the lock is
    re-entrant), any other waits until the code has run."""

    def __getattribute__(self, attr: str):
        with _LAZY_LOCK:
            pass
        return type(sys).__getattribute__(self, attr)


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    try:
        setup = json.loads(sys.argv[3])
        confine(setup)
        apply_limits(setup["limits"], setup["own_user"])
        # The standard library, then the allowed packages (numpy, regex) and nothing else.
        sys.path.append(setup["packages"]["path"])
        sys.meta_path.insert(0, LazyPackages)
        if sys.argv[1] == "probe":  # the grader checks that confinement works here
            os._exit(0)
        seed_globals()
        send(int(sys.argv[2]), {"ready": True})  # no student code has been read yet
        serve(int(sys.argv[1]), int(sys.argv[2]))
    except BaseException:  # noqa: BLE001
        try:
            import traceback  # only here: 3 ms of every worker's start otherwise

            traceback.print_exc()
        finally:
            os._exit(3)
    os._exit(0)
