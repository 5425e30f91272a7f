"""The reference for the parts not being graded, served from the scoring process.

When part N is graded, whatever the student's part N uses from other parts must be
the reference (a bug in Part 4 must not cost Part 3). The reference code itself must
never be where student code can read it, so it never enters the worker: the worker
gets *stand-ins*, small stubs that know only names, and each call of a stand-in comes
up the worker's pipe as a ``{"ref": ...}`` message in the middle of a request. This
module answers those messages in the scoring process, which is trusted and already
holds the reference.

The reference served is the reference *minus part N* (``reference_without``), so no
route through the other parts (a factory of Part 5 that builds Part 3's class while
Part 3 is graded, say) computes part N's answers: such a call raises ``NameError`` as
it did when the same source ran in the worker.

The interface is narrow on purpose:

- ``describe()`` tells the worker what to stand in for: the shared constants' values,
  the names of the other parts' functions, and for each class its bases and members
  (methods, properties, plain class constants). No code, no hidden values: the other
  parts' answer constants (``Q1_…``) are not sent at all.
- ``serve(request)`` runs one function, or one method or property of a class on an
  object rebuilt from the *public* plain-data state the worker sent, and returns plain
  data, the object's new public state (None when the call left it as it came), or an
  object of a reference class as ``{"__object__": class name, "state": …}``. Anything
  else cannot cross.

Private attributes (``_word_cache``) never cross: the reference must treat them as
caches it can rebuild. Nothing here trusts the request: names are checked against the
description, values are decoded from plain data only, and the caller bounds the time.

(A little over 300 lines: the server and the coding of the values it serves change
together.)
"""

import builtins
import contextlib
import inspect
import marshal
import signal
import threading
from collections import Counter
from functools import cache

from ..assignment import Assignment
from . import arrays
from .reference import reference_without

MAX_DEPTH = 100
# JSON cannot carry an int of more than ``sys.get_int_max_str_digits()`` (4300) digits:
# the result of a reference function called with ``10**4000``, written into the reply,
# would make the scoring process fail.
MAX_INT_BITS = 12_000
# The bytes of the arrays in one reply of a stand-in, one array or all of them together:
# in base64, 4/3 of it, within the 64 MiB of a message the worker reads
# (``worker.MAX_MESSAGE``). The reference runs on sizes the student picks (a one-hot matrix
# 30,000 wide), and a larger answer cost this process four copies of it for a worker that
# refuses it unread.
MAX_ARRAY_BYTES = 32 * 1024 * 1024
# Exact types that stand for themselves in a message: a list of only these crosses in one
# step, not one call per item (what ``_decode``/``_encode`` would do to each is nothing).
SCALARS = frozenset({int, float, str, bool, type(None)})


class RefError(Exception):
    """A request the reference will not serve (unknown name, value that cannot cross)."""


def _plain(value: object, depth: int = 0) -> bool:
    """Is ``value`` plain data (what may cross the pipe as itself)?"""
    if depth > MAX_DEPTH:
        return False
    if value is None or type(value) in (bool, int, float, str):
        return True
    if type(value) in (list, tuple, set, frozenset):
        return all(_plain(v, depth + 1) for v in value)
    if type(value) in (dict, Counter):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def public_state(obj: object) -> dict:
    """The instance attributes that cross: public names holding plain data."""
    return {k: v for k, v in _public(obj).items() if _plain(v)}


class ReferenceServer:
    """The reference without one part, and the narrow interface the worker may use."""

    def __init__(self, assignment: Assignment, part: int) -> None:
        source, exports = reference_without(assignment, part)
        self.namespace: dict = {"__name__": f"reference_without_part_{part}"}
        exec(compile(source, "<reference>", "exec"), self.namespace)
        self.functions: dict[str, object] = {}
        self.classes: dict[str, type] = {}
        self.values: dict[str, object] = {}
        for name in exports:
            value = self.namespace[name]
            if inspect.isclass(value):
                self.classes[name] = value
            elif inspect.isfunction(value):
                self.functions[name] = value
            elif name in assignment.shared_names and _plain(value):
                self.values[name] = value
        self.members = {name: self._members(cls) for name, cls in self.classes.items()}
        self._decoded: dict[bytes, bytes] = {}  # state sent -> decoded (``_rebuild``)
        self._kept = 0  # their bytes

    # --- what the worker is told ------------------------------------------------------

    def _members(self, cls: type) -> dict[str, object]:
        """Each member a stand-in class gets: "method", "property" or ["value", v]."""
        members: dict[str, object] = {}
        for klass in reversed(cls.__mro__[:-1]):  # base-most first, object left out
            for name, value in vars(klass).items():
                if name.startswith("__") and name != "__init__":
                    continue
                if inspect.isfunction(value):
                    members[name] = "method"
                elif isinstance(value, property):
                    members[name] = "property"
                elif not name.startswith("_") and _plain(value):
                    members[name] = ["value", value]
        return members

    def describe(self) -> dict:
        """Names and shapes only: what the worker needs to build its stand-ins."""
        classes = []
        for name, cls in self.classes.items():  # definition order: bases first
            bases = [b.__name__ for b in cls.__bases__ if b.__name__ in self.classes]
            classes.append({"name": name, "bases": bases, "members": self.members[name]})
        return {
            "values": [[k, self._encode(v)] for k, v in self.values.items()],
            "functions": list(self.functions),
            "classes": classes,
        }

    # --- serving ------------------------------------------------------------------------

    def serve(self, request: dict) -> dict:
        """Answer one stand-in call; never raises for a bad request (it is an error reply)."""
        try:
            return {"ref_ok": self._run(request)}
        except RefError as exc:
            return {"ref_error": {"type": "RuntimeError", "message": str(exc)}}
        except OutOfTime:
            raise
        except RecursionError:
            return {"ref_error": {"type": "RecursionError", "message": "too deep"}}
        except Exception as exc:  # noqa: BLE001 - the reference's own errors, as data
            kind = type(exc).__name__
            if not isinstance(getattr(builtins, kind, None), type):
                kind = "RuntimeError"
            return {"ref_error": {"type": kind, "message": _message(exc)}}

    def _run(self, request: dict) -> dict:
        op, name = request.get("ref"), request.get("name")
        args = self._decode(request.get("args", []))
        kwargs = self._decode({"__dict__": request.get("kwargs", [])})
        if type(args) is not list or type(kwargs) is not dict or not all(
                type(k) is str for k in kwargs):
            raise RefError("malformed arguments")
        if op == "call":
            func = self.functions.get(name) if type(name) is str else None
            if func is None:
                raise RefError(f"the reference has no function {name!r} here")
            return {"value": self._encode(func(*args, **kwargs))}
        cls = self.classes.get(request.get("cls")) if type(request.get("cls")) is str else None
        if cls is None or type(name) is not str or name not in self.members[cls.__name__]:
            raise RefError(f"the reference has no member {name!r} here")
        sent = request.get("state")
        obj, frozen = self._rebuild(cls, sent)
        member = inspect.getattr_static(cls, name)
        if op == "method" and inspect.isfunction(member):
            value = member(obj, *args, **kwargs)
        elif op == "property" and isinstance(member, property) and not args and not kwargs:
            value = member.fget(obj)
        else:
            raise RefError(f"{name!r} cannot be used that way")
        if frozen is not None and _marshalled(_public(obj)) == frozen:
            return {"value": self._encode(value), "state": None}  # left as it came
        return {"value": self._encode(value), "state": self._encode(public_state(obj))}

    def _rebuild(self, cls: type, state: object) -> tuple[object, bytes | None]:
        """A reference object holding the public state the worker sent, and that state
        frozen (``_marshalled``), or None if it cannot be.

        A tokenizer's state (its vocabulary: hundreds of values) comes with every call of
        one of its methods, mostly unchanged, and decoding it value by value in Python
        cost Part 6 seconds per grading when it is served a Part 4 tokenizer. So each state
        decoded is kept frozen, by the bytes of what was sent, and thawed into a fresh copy
        for each call; and a call that leaves it as it was sends back None: the worker keeps
        its object as it is, the same values (a list the student holds stays that list; a
        new state arrives as fresh copies, a frozenset as a set, as it always did)."""
        sent = _marshalled(state)
        frozen = self._decoded.get(sent) if sent is not None else None
        if frozen is None:
            decoded = self._decode(state if state is not None else {"__dict__": []})
            if type(decoded) is not dict or not all(
                    type(k) is str and not k.startswith("_") for k in decoded):
                raise RefError("malformed object state")
            frozen = _marshalled(decoded) if sent is not None else None
            if frozen is not None and len(sent) + len(frozen) <= KEPT_BYTES:
                while self._decoded and self._kept + len(sent) + len(frozen) > KEPT_BYTES:
                    oldest = next(iter(self._decoded))  # the oldest goes first
                    self._kept -= len(oldest) + len(self._decoded.pop(oldest))
                self._decoded[sent] = frozen
                self._kept += len(sent) + len(frozen)
        obj = object.__new__(cls)
        vars(obj).update(marshal.loads(frozen) if frozen is not None else decoded)
        return obj, frozen

    def _decode(self, value: object, depth: int = 0) -> object:
        """Plain data with the pipe's tags, and reference objects; nothing else."""
        if depth > MAX_DEPTH:
            raise RefError("value nested too deeply")
        if value is None or type(value) in (bool, int, str):
            return value
        if type(value) is float:
            return value
        if type(value) is list:
            if set(map(type, value)) <= SCALARS:  # a word's tokens: fresh from json.loads
                return value
            return [self._decode(v, depth + 1) for v in value]
        if type(value) is dict and len(value) in (1, 2):
            tag = next(iter(value))
            inner = value[tag]
            if tag == "__tuple__" and type(inner) is list:
                return tuple(self._decode(v, depth + 1) for v in inner)
            if tag == "__set__" and type(inner) is list:
                return {self._key(self._decode(v, depth + 1)) for v in inner}
            if tag in ("__dict__", "__counter__") and type(inner) is list and all(
                    type(kv) is list and len(kv) == 2 for kv in inner):
                made = {self._key(self._decode(k, depth + 1)): self._decode(v, depth + 1)
                        for k, v in inner}
                return made if tag == "__dict__" else Counter(made)
            if tag == "__object__" and type(inner) is str and inner in self.classes:
                return self._rebuild(self.classes[inner], value.get("state"))[0]
            if tag == arrays.TAG and len(value) == 1:
                try:
                    made = arrays.from_wire(inner)
                except ValueError as exc:
                    raise RefError(str(exc)) from None
                if isinstance(made, arrays.ObjectArray):
                    raise RefError("an array of Python objects (dtype=object) cannot be passed")
                return made
        raise RefError("only plain data and the reference's own objects can be passed")

    @staticmethod
    def _key(value: object) -> object:
        try:
            hash(value)
        except TypeError:
            raise RefError("unhashable key") from None
        return value

    def _encode(self, value: object, depth: int = 0, sent: list[int] | None = None) -> object:
        """The reply in the pipe's tags; an object of a reference class goes as its state.

        ``sent`` counts the bytes of the arrays written so far, one count for the whole
        reply: arrays each within ``MAX_ARRAY_BYTES`` are not enough, as a list of eight
        (or of one array eight times: each is written out) is eight times the message."""
        sent = [0] if sent is None else sent
        if depth > MAX_DEPTH:
            raise RefError("value nested too deeply")
        if type(value) is int and value.bit_length() > MAX_INT_BITS:
            raise RefError("the reference returned a number too long to send")
        if value is None or type(value) in (bool, int, str):
            return value
        if type(value) is float:
            return value
        if type(value) in (list, tuple):
            # Not with ints: each must be checked against MAX_INT_BITS.
            items = list(value) if set(map(type, value)) <= SCALARS - {int} else [
                self._encode(v, depth + 1, sent) for v in value]
            return items if type(value) is list else {"__tuple__": items}
        if type(value) in (set, frozenset):  # a frozenset stays one (a shared constant may be)
            tag = "__set__" if type(value) is set else "__frozenset__"
            return {tag: [self._encode(v, depth + 1, sent) for v in value]}
        if type(value) in (dict, Counter):  # a Counter stays a Counter in the worker
            tag = "__dict__" if type(value) is dict else "__counter__"
            return {tag: [[self._encode(k, depth + 1, sent), self._encode(v, depth + 1, sent)]
                          for k, v in value.items()]}
        if arrays.is_array(value):
            if value.nbytes > MAX_ARRAY_BYTES:
                raise RefError(f"the reference returned an array of {value.nbytes:,} bytes, too "
                               "large to send")
            sent[0] += value.nbytes
            if sent[0] > MAX_ARRAY_BYTES:
                raise RefError(f"the reference returned arrays of at least {sent[0]:,} bytes in "
                               "all, too large to send")
            return arrays.to_wire(value)
        if arrays.is_scalar(value):  # a numpy number: the Python number it holds
            return self._encode(value.item(), depth + 1)
        cls = type(value)
        if self.classes.get(cls.__name__) is cls:
            return {"__object__": cls.__name__, "state": self._encode(public_state(value))}
        raise RefError(f"the reference returned a {cls.__name__}, which cannot cross")



# Bytes of the object states kept decoded (``ReferenceServer._rebuild``), what was sent
# and what it decoded to: the tokenizers one test uses, and a bound on what a worker that
# sends a new state with each call can make this process hold.
KEPT_BYTES = 8 << 20


def _marshalled(value: object) -> bytes | None:
    """``value`` as bytes that only the same plain data gives, or None if it holds anything
    else (a ``Counter``, an object). ``marshal`` (format 2: no back-references, so the bytes
    do not depend on how the values are shared) writes only builtin types and rebuilds them
    as they were. It writes what the worker sent (JSON's types: the key of a state) and
    what this process decoded; only bytes written here are ever read back."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def _public(obj: object) -> dict:
    """The instance attributes with public names, whatever they hold."""
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def _message(exc: BaseException) -> str:
    try:
        return str(exc)[:2000]
    except Exception:  # noqa: BLE001
        return "<unprintable>"


class OutOfTime(Exception):
    """A stand-in call used up the time left to the request that made it."""


@contextlib.contextmanager
def cpu_limit(seconds: float):
    """Stop the reference after ``seconds`` of this process's CPU time (``ITIMER_PROF``:
    the suite's own test timeout owns ``SIGALRM``). Only the main thread can be
    interrupted; elsewhere the caller's size limits must do."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if seconds <= 0:
        raise OutOfTime

    def stop(signum: int, frame: object) -> None:
        raise OutOfTime

    previous = signal.signal(signal.SIGPROF, stop)
    try:
        signal.setitimer(signal.ITIMER_PROF, seconds)
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@cache
def server(assignment: Assignment, part: int) -> ReferenceServer:
    """The assignment's reference without ``part``, built once per process."""
    return ReferenceServer(assignment, part)
