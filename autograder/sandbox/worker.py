"""The worker: the only process that runs student code.

Started by ``client.Worker`` as ``python -I -S - IN_FD OUT_FD SETUP`` with this
file on standard input, so it needs no readable copy of the grader. ``SETUP`` is
JSON: the folders to cover and the user to become (see ``confine``) and the
resource limits. It applies them all, says *ready* (so that the scorer can tell a
sandbox that does not start on this machine from student code that crashes), and
only then reads one *load* message (reference source for the other parts, then the student's
statements), then answers *call* / *get* requests until its input closes.
Messages are length-prefixed JSON; values are plain data with a few tags (tuple,
dict, set, remote object handle). Nothing is ever pickled.

Everything in this process is untrusted once student code has run: the scoring
process re-validates every reply and measures time itself. This file imports
only the standard library, so it runs without the rest of the grader.
"""

import contextlib
import json
import numbers
import os
import struct
import sys
import traceback

MAX_MESSAGE = 64 * 1024 * 1024


def send(fd: int, message: object) -> None:
    """Write one length-prefixed JSON message to ``fd``."""
    data = json.dumps(message, allow_nan=True).encode("utf-8")
    payload = struct.pack(">I", len(data)) + data
    while payload:
        payload = payload[os.write(fd, payload) :]


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
            return [self.encode(v, depth + 1) for v in value]
        if isinstance(value, tuple):
            return {"__tuple__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, (set, frozenset)):
            return {"__set__": [self.encode(v, depth + 1) for v in value]}
        if isinstance(value, dict):
            d = depth + 1
            return {"__dict__": [[self.encode(k, d), self.encode(v, d)] for k, v in value.items()]}
        return self.keep(value)

    def keep(self, value: object) -> dict:
        """A handle to ``value``, which stays here."""
        handle = len(self.by_id) + 1
        self.by_id[handle] = value
        return {"__remote__": handle, "type": type(value).__name__}

    def decode(self, value: object) -> object:
        """Arguments from the scorer: plain data, tags, and handles to our objects."""
        if isinstance(value, list):
            return [self.decode(v) for v in value]
        if isinstance(value, dict):
            (tag, inner), = value.items()
            if tag == "__tuple__":
                return tuple(self.decode(v) for v in inner)
            if tag == "__set__":
                return {self.decode(v) for v in inner}
            if tag == "__dict__":
                return {self.decode(k): self.decode(v) for k, v in inner}
            if tag == "__remote__":
                return self.by_id[inner]
            raise ValueError(f"unknown tag {tag}")
        return value


def describe(exc: BaseException) -> dict:
    """An exception as data: its class, the classes it derives from, and its message."""
    try:
        message = str(exc)
    except BaseException:  # noqa: BLE001 - a student __str__ may raise anything
        message = "<unprintable>"
    mro = [cls.__name__ for cls in type(exc).__mro__]
    return {"type": type(exc).__name__, "mro": mro, "message": message[:2000]}


def load(request: dict) -> tuple[dict, list[str]]:
    """Build the namespace: reference exports first, then the student's statements."""
    reference: dict = {"__name__": "reference"}
    exec(compile(request["reference"], "<reference>", "exec"), reference)
    namespace: dict = {"__name__": "submission", "__builtins__": __builtins__}
    for name in request["exports"]:
        namespace[name] = reference[name]
    errors = []
    for statement in request["student"]:
        try:
            exec(compile(statement["source"], f"<{statement['origin']}>", "exec"), namespace)
        except BaseException as exc:  # noqa: BLE001 - SystemExit and friends included
            info = describe(exc)
            errors.append(f"{statement['origin']}: {info['type']}: {info['message']}")
    for class_name, method in request["graft"]:
        graft(namespace, reference, class_name, method)
    return namespace, errors


def graft(namespace: dict, reference: dict, class_name: str, method: str) -> None:
    """Grade one student method on the reference class (Part 4's ``build_vocab``).

    The student's own helper methods come along; the reference keeps everything
    else, so a bug elsewhere in the student's class cannot cost this part.
    """
    target = reference[class_name]
    student = namespace.get(class_name)
    if isinstance(student, type) and student is not target:
        original = set(dir(target))
        # Every class of the student's own (a later `class CharTokenizer(CharTokenizer)`
        # inherits build_vocab), base-most first so that an override wins.
        own = [cls for cls in reversed(student.__mro__) if cls not in target.__mro__]
        for cls in own:
            for name, value in vars(cls).items():
                if name == method or not (name.startswith("__") or name in original):
                    setattr(target, name, value)
        # A read-only property of the reference (vocab_size) that the student's code
        # assigns as a plain attribute must accept the assignment.
        for name, value in list(vars(target).items()):
            if isinstance(value, property) and value.fset is None and not any(
                isinstance(vars(cls).get(name), property) for cls in own
            ):
                setattr(target, name, _assignable(name, value))
        if any("__init__" in vars(cls) for cls in own):
            target.__init__ = _with_student_state(target.__init__, student)
    namespace[class_name] = target


class _Overtime(BaseException):
    """The student's constructor ran past its budget on the scratch object."""


def _with_student_state(reference_init, student: type, budget: float = 0.5):
    """The reference ``__init__``, plus the attributes only the student's ``__init__`` sets.

    The grafted method may read state of the student's own (``self.unk_token``). The
    student's constructor runs on a scratch object; only instance attributes that neither
    the reference's constructor nor its class define are copied, so a bug in the student's
    ``vocab``, mappings or ``vocab_size`` still costs nothing here. A constructor that
    raises is ignored; one that runs past ``budget`` seconds (a Part 2 loop) is stopped by
    an alarm, repeated until it gives up, and never tried again.
    """
    import signal

    state = {"overran": False, "busy": False}

    def stop(signum: int, frame: object) -> None:
        state["overran"] = True
        raise _Overtime

    def run_scratch(args: tuple, kwargs: dict) -> dict:
        scratch = object.__new__(student)
        previous = signal.signal(signal.SIGALRM, stop)
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, budget, 0.05)
                student.__init__(scratch, *args, **kwargs)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.signal(signal.SIGALRM, previous)
        return dict(vars(scratch))

    def __init__(self, *args, **kwargs):
        reference_init(self, *args, **kwargs)
        # Not for the scratch object itself (the student's class calling super()), nor
        # for a tokenizer the student's constructor builds, nor after one overran.
        if isinstance(self, student) or state["busy"] or state["overran"]:
            return
        state["busy"] = True
        try:
            extra = run_scratch(args, kwargs)
        except BaseException:  # noqa: BLE001 - the student's constructor is not graded here
            return
        finally:
            state["busy"] = False
        for name, value in extra.items():
            if (name not in vars(self) and not hasattr(type(self), name)
                    and not name.startswith("_assigned_")):  # see _assignable
                with contextlib.suppress(Exception):
                    setattr(self, name, value)

    return __init__


def _assignable(name: str, prop: property) -> property:
    """``prop``, but an assigned value is kept and read back instead of computed."""
    key = f"_assigned_{name}"

    def get(self):
        return self.__dict__[key] if key in self.__dict__ else prop.fget(self)

    def set_(self, value):
        self.__dict__[key] = value

    return property(get, set_, doc=prop.__doc__)


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
    namespace, errors = load(recv(in_fd))
    names = sorted(n for n in namespace if not n.startswith("__"))
    send(out_fd, {"ok": True, "errors": errors, "names": names})
    while True:
        try:
            request = recv(in_fd)
        except EOFError:
            return
        try:
            value = answer(request, objects, namespace)
            keep = request.get("keep") is True
            reply = {"ok": True, "value": objects.keep(value) if keep else objects.encode(value)}
        except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
            reply = {"ok": False, "error": describe(exc)}
        send(out_fd, reply)


def confine(setup: dict) -> None:
    """Inside fresh namespaces, as their root: cover folders, private /tmp, become nobody.

    Runs before any student code, so it is still trusted. The mounts are system
    calls made here, not one ``mount`` process each, which keeps a worker's start fast.
    """
    if not setup["mounts"] and setup["drop_to"] is None:
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def tmpfs(target: str, options: str) -> None:
        if libc.mount(b"tmpfs", target.encode(), b"tmpfs", 0, options.encode()) != 0:
            raise OSError(ctypes.get_errno(), f"cannot mount a tmpfs on {target}")

    # The covered folders first (some may lie under /tmp), then a private /tmp.
    for folder in setup["mounts"]:
        tmpfs(folder, "size=4k,mode=000")
    if setup["mounts"]:
        tmpfs("/tmp", "mode=1777,size=64m")
        os.chdir("/tmp")
    if setup["drop_to"] is not None:
        os.setgroups([])
        os.setgid(setup["drop_to"])
        os.setuid(setup["drop_to"])
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS: no setuid way back
            raise OSError(ctypes.get_errno(), "cannot set no_new_privs")


def apply_limits(limits: dict) -> None:
    """Lower this process's hard limits; nothing the student runs can raise them again."""
    import resource

    pairs = [
        (resource.RLIMIT_CPU, limits["cpu_seconds"]),
        (resource.RLIMIT_AS, limits["address_space"]),
        (resource.RLIMIT_FSIZE, limits["file_size"]),
        (resource.RLIMIT_CORE, 0),
    ]
    if os.getuid() == 65534:  # its own user: a process limit cannot starve the grader
        pairs.append((resource.RLIMIT_NPROC, limits["processes"]))
    for which, value in pairs:
        resource.setrlimit(which, (value, value))


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    try:
        setup = json.loads(sys.argv[3])
        confine(setup)
        apply_limits(setup["limits"])
        if sys.argv[1] == "probe":  # the grader checks that confinement works here
            os._exit(0)
        send(int(sys.argv[2]), {"ready": True})  # no student code has been read yet
        serve(int(sys.argv[1]), int(sys.argv[2]))
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        os._exit(3)
    os._exit(0)
