"""Red team, category "reference code reachable by student code".

A submission with no code of its own tries to obtain the reference: it searches the
worker's memory for functions and source of the reference, passes what it finds to its
other workers through every shared place it can write (``/dev/shm``, ``/tmp``), and
answers every graded name with what it stole. It must score 0 in every part, and no
line of the reference may reach its feedback, at every isolation level this machine
has. The worker also holds none of the other parts' answer constants, and a request
forged on the worker's own pipe cannot call the graded part's reference.
"""

import hashlib
import json
import os
from pathlib import Path

import pytest

from autograder.sandbox import StudentError, Worker, limits
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

from .hostile import submission

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"

STEALER = r'''
import collections
import gc
import marshal
import os
import types

PLACES = ["/dev/shm", "/tmp", os.environ.get("TMPDIR", "/tmp")]


def _foreign_functions():
    """Every function in memory that this submission did not write."""
    found = {}
    for obj in gc.get_objects():
        try:
            if isinstance(obj, types.FunctionType) and obj.__module__ != "submission":
                found[obj.__qualname__] = marshal.dumps(obj.__code__)
            elif isinstance(obj, str) and "def " in obj and "return" in obj and len(obj) > 300:
                found.setdefault("<source>", b"")
                found["<source>"] += obj.encode("utf-8", "replace") + b"\n"
        except Exception:
            pass
    return found


def _share():
    data = marshal.dumps(_foreign_functions())
    for place in PLACES:
        try:
            with open(f"{place}/stolen-{os.getpid()}.bin", "wb") as handle:
                handle.write(data)
        except OSError:
            pass
    return len(data)


def _loot():
    table = dict(_foreign_functions())
    for place in PLACES:
        try:
            names = os.listdir(place)
        except OSError:
            continue
        for name in names:
            if name.startswith("stolen-"):
                try:
                    with open(f"{place}/{name}", "rb") as handle:
                        table.update(marshal.loads(handle.read()))
                except Exception:
                    pass
    return table


SHARED_BYTES = _share()


def _call(name, args, kwargs):
    table = _loot()
    scope = {"__builtins__": __builtins__, "Counter": collections.Counter,
             "UNK": "<UNK>", "EOW": " "}
    for qualname, code in table.items():
        if qualname != "<source>" and "." not in qualname:
            try:
                scope[qualname] = types.FunctionType(marshal.loads(code), scope)
            except Exception:
                pass
    if name not in scope and "<source>" in table:
        try:
            exec(table["<source>"].decode(), scope)
        except Exception:
            pass
    if name not in scope:
        raise NotImplementedError(f"nothing to steal for {name}; saw {sorted(table)[:40]}")
    return scope[name](*args, **kwargs)


def word_frequencies(*a, **k):
    return _call("word_frequencies", a, k)


def count_pairs(*a, **k):
    return _call("count_pairs", a, k)


def merge_pair(*a, **k):
    return _call("merge_pair", a, k)


def create_tokenizer(*a, **k):
    return _call("create_tokenizer", a, k)


def tokenize_dataset(*a, **k):
    return _call("tokenize_dataset", a, k)


def analyze_tokenization(*a, **k):
    return _call("analyze_tokenization", a, k)


def embedding_memory_bytes(*a, **k):
    return _call("embedding_memory_bytes", a, k)


def attention_scores(*a, **k):
    return _call("attention_scores", a, k)


def attention_speedup(*a, **k):
    return _call("attention_speedup", a, k)


def vocab_tradeoff(*a, **k):
    return _call("vocab_tradeoff", a, k)
'''


def _reference_lines() -> set[str]:
    """Distinctive lines of the reference (long enough not to be anyone's boilerplate)."""
    lines = set()
    for path in SOLUTIONS.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if len(line) >= 40 and not line.startswith(("from ", "import ", "#")):
                lines.add(line)
    return lines


def _levels() -> list[str]:
    """The levels this machine can run (as root: root, drop and basic)."""
    return ["root", "drop", "basic"] if os.geteuid() == 0 else ["userns", "basic"]


@pytest.mark.parametrize("level", _levels())
def test_a_submission_that_steals_the_reference_scores_zero(tmp_path, monkeypatch, level):
    monkeypatch.setenv("AUTOGRADER_ISOLATION", level)
    monkeypatch.setenv("AUTOGRADER_ALLOW_BASIC", "1")
    monkeypatch.delenv(limits.PROBED_ENV, raising=False)
    path = tmp_path / "stealer.py"
    path.write_text(STEALER, encoding="utf-8")
    result = grade_file(path, "stealer", assignment=TOKENIZATION, timeout=240)
    assert result["status"] == "graded", result["error"]
    scores = {int(p): v["score"] for p, v in result["parts"].items()}
    assert scores == {p: 0.0 for p in TOKENIZATION.points}, scores
    text = json.dumps(result, ensure_ascii=False)
    leaked = [line for line in _reference_lines() if line in text]
    assert not leaked, leaked[:5]


def _digests() -> list[str]:
    return sorted(hashlib.sha256(line.encode()).hexdigest() for line in _reference_lines())


SCANNER = r'''
import gc
import hashlib
import sys

DIGESTS = set(%r)


def _scan():
    """Reference code in this process: code objects compiled from it, and its lines in
    any string (compared by hash, so that this probe carries no reference text)."""
    hits = set()
    for obj in gc.get_objects():
        try:
            if hasattr(obj, "__code__") and obj.__code__.co_filename == "<reference>":
                hits.add("code:" + obj.__qualname__)
            if isinstance(obj, str) and len(obj) >= 40:
                for line in obj.splitlines():
                    digest = hashlib.sha256(line.strip().encode()).hexdigest()
                    if digest in DIGESTS:
                        hits.add("line")
        except Exception:
            pass
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, dict) and "reference" in value:
                hits.add("frame:" + frame.f_code.co_name)
        frame = frame.f_back
    return sorted(hits)


FOUND_AT_LOAD = _scan()


def found_at_call():
    return _scan()


def constants_here():
    return sorted(n for n in globals() if n.startswith("Q") and n[1:2].isdigit())


def forged(name):
    import json, os, struct
    data = json.dumps({"ref": "call", "name": name,
                       "args": [["a", "b"], {"__tuple__": ["a", "b"]}], "kwargs": []}).encode()
    out_fd, in_fd = int(sys.argv[2]), int(sys.argv[1])
    os.write(out_fd, struct.pack(">I", len(data)) + data)
    size = struct.unpack(">I", os.read(in_fd, 4))[0]
    return json.loads(os.read(in_fd, size).decode())
'''


@pytest.mark.parametrize("part", sorted(TOKENIZATION.points))
def test_no_reference_code_or_answers_in_the_worker(tmp_path, part):
    code = submission(tmp_path, SCANNER % (_digests(),))
    with Worker(TOKENIZATION, code, part=part, timeout=30) as worker:
        assert worker.get(None, "FOUND_AT_LOAD") == []
        assert worker.call("found_at_call") == []
        # The other parts' answer constants are never sent (they are hidden values).
        assert worker.call("constants_here") == []


def test_a_forged_request_cannot_reach_the_graded_parts_reference(tmp_path):
    code = submission(tmp_path, SCANNER % ([],))
    with Worker(TOKENIZATION, code, part=4, timeout=30) as worker:
        reply = worker.call("forged", "merge_pair")
        assert "ref_error" in reply and "no function" in reply["ref_error"]["message"]
    with Worker(TOKENIZATION, code, part=3, timeout=30) as worker:  # another part's: served
        assert worker.call("forged", "merge_pair") == {"ref_ok": {"value": ["ab"]}}


def test_another_parts_reference_cannot_compute_the_graded_part(tmp_path):
    code = submission(tmp_path, """
        def via_create_tokenizer():
            tok = create_tokenizer("bpe", 30, ["low lower lowest"])
            return tok.merges
    """)
    with Worker(TOKENIZATION, code, part=3, timeout=30) as worker:
        with pytest.raises(StudentError) as error:
            worker.call("via_create_tokenizer")
        assert error.value.type_name == "NameError"
