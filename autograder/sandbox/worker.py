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
            target = request["target"]
            obj = objects.by_id[target] if isinstance(target, int) else namespace[target]
            if request["op"] == "get":
                value = getattr(obj, request["name"]) if request["name"] else obj
            else:
                func = getattr(obj, request["name"]) if request["name"] else obj
                args = objects.decode(request["args"])
                kwargs = objects.decode({"__dict__": request["kwargs"]})
                value = func(*args, **kwargs)
            reply = {"ok": True, "value": objects.encode(value)}
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
# System calls the worker never needs and that would open a channel to another worker
# or the host: sockets (the network, named and abstract Unix sockets), System V and
# POSIX message IPC, ptrace, other processes' memory, changing file modes or ACLs (to
# share a file with another worker) and the umask. By architecture, as in
# <asm/unistd.h>.
_DENIED = {
    0xC000003E: (  # x86_64
        41, 29, 30, 31, 64, 65, 66, 68, 69, 70, 71, 220, 240, 241, 242, 243, 244, 245,
        101, 310, 311, 90, 91, 268, 452, 188, 189, 190, 95, 43, 288, 49, 50, 42,
    ),
    0xC00000B7: (  # aarch64
        198, 194, 195, 196, 186, 187, 188, 189, 190, 191, 192, 193, 180, 181, 182, 183,
        184, 185, 117, 270, 271, 52, 53, 452, 5, 6, 7, 166, 202, 242, 200, 201, 203,
    ),
}


def _filter(libc) -> None:
    """Install a seccomp filter: the calls in ``_DENIED`` fail with EPERM from now on.

    Works without privileges once no_new_privs is set, at every level, and binds
    every process the worker starts. An unknown architecture (or the x32 ABI) gets
    every call refused, so the filter cannot be walked around by a foreign ABI.
    """
    import ctypes

    machine = os.uname().machine
    arch = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}.get(machine)
    if arch is None:
        raise OSError(0, f"no system-call table for {machine}")
    denied = _DENIED[arch]
    errno_eperm, allow, kill = 0x00050000 | 1, 0x7FFF0000, 0x80000000
    program = [(0x20, 0, 0, 4),  # A = arch
               (0x15, 1, 0, arch),  # the expected arch: skip the next
               (0x06, 0, 0, kill),
               (0x20, 0, 0, 0),  # A = system call number
               (0x35, 0, 1, 0x40000000),  # x32 calls on x86_64: refuse
               (0x06, 0, 0, errno_eperm)]
    for index, number in enumerate(denied):
        program.append((0x15, len(denied) - index, 0, number))  # equal: jump to EPERM
    program += [(0x06, 0, 0, allow), (0x06, 0, 0, errno_eperm)]

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
        resource.setrlimit(which, (value, value))


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    try:
        setup = json.loads(sys.argv[3])
        confine(setup)
        apply_limits(setup["limits"], setup["own_user"])
        # The standard library, then the allowed packages (numpy, regex) and nothing else.
        sys.path.append(setup["packages"]["path"])
        if sys.argv[1] == "probe":  # the grader checks that confinement works here
            os._exit(0)
        send(int(sys.argv[2]), {"ready": True})  # no student code has been read yet
        serve(int(sys.argv[1]), int(sys.argv[2]))
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        os._exit(3)
    os._exit(0)
