"""Fair isolation: a correct submission organised differently keeps full marks.

When part N is graded, the other parts' spec names stand for the reference, but the
student's own classes stay: constants and helpers the reference does not define (a
base class holding shared symbols, as TinyTorch's does; a helper method that another
part's code calls) keep working. Both submissions below lost points when the reference
classes replaced the student's (60/100 and 99/100 on the grader before stand-ins).
"""

import ast
import json

import pytest

from autograder.extract import extract
from autograder.sandbox import Worker, standin
from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION, known, load

BASE_WITH_CONSTANTS = '''
class Tokenizer:
    TOK_UNKNOWN = "<UNK>"
    TOK_EOW = " "

    def _check(self, token_id, size):
        if isinstance(token_id, bool) or not isinstance(token_id, int):
            raise ValueError(f"token ID {token_id!r} is not an int")
        if not 0 <= token_id < size:
            raise ValueError(f"token ID {token_id} is outside [0, {size})")
        return token_id

    def encode(self, text):
        raise NotImplementedError("encode: a subclass must implement encode(text)")

    def decode(self, tokens):
        raise NotImplementedError("decode: a subclass must implement decode(tokens)")
'''


def _reference_without_base() -> str:
    tree = ast.parse(reference_without(TOKENIZATION, 0)[0])
    tree.body = [n for n in tree.body
                 if not (isinstance(n, ast.ClassDef) and n.name == "Tokenizer")
                 and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
    return ast.unparse(tree)


def tinytorch_style() -> str:
    """Subclasses read the base class's constants and call its helper."""
    source = _reference_without_base()
    edits = [("self.vocab = [UNK] + unique", "self.vocab = [self.TOK_UNKNOWN] + unique"),
             ("self.vocab: list[str] = [UNK, EOW]",
              "self.vocab: list[str] = [self.TOK_UNKNOWN, self.TOK_EOW]"),
             ("self.vocab = [UNK, EOW] +", "self.vocab = [self.TOK_UNKNOWN, self.TOK_EOW] +"),
             ("check_token_id(t, self.vocab_size)", "self._check(t, self.vocab_size)")]
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    return BASE_WITH_CONSTANTS + "\n" + source


def helper_used_across_parts() -> str:
    """Part 5's create_tokenizer calls a helper method of the student's own CharTokenizer."""
    tree = ast.parse(reference_without(TOKENIZATION, 0)[0])
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "CharTokenizer":
            node.body += ast.parse("def fit(self, corpus):\n    self.build_vocab(corpus)").body
    source = ast.unparse(tree)
    old = "tokenizer.build_vocab(corpus)"
    assert old in source, old
    return source.replace(old, "tokenizer.fit(corpus)")


@pytest.mark.parametrize("make", [tinytorch_style, helper_used_across_parts])
def test_a_differently_organised_correct_submission_keeps_full_marks(tmp_path, make):
    path = tmp_path / f"{make.__name__}.py"
    path.write_text(make(), encoding="utf-8")
    result = grade_file(path, make.__name__, assignment=TOKENIZATION, timeout=240)
    assert result["status"] == "graded", result["error"]
    lost = [(t["id"], t["output"]) for t in result["tests"] if t["status"] == "failed"]
    assert result["score"] == sum(TOKENIZATION.points.values()), lost


TRUSTED = """
def merge_pair(tokens, pair):
    return ["mine"]

def uses_merge_pair():
    return merge_pair(["a", "b"], ("a", "b"))

class CharTokenizer:
    def __init__(self, vocab=None):
        self.vocab = ["<UNK>"]

    def encode(self, text):
        return [42]
"""


def test_a_part_that_passed_runs_the_students_own_code_once_trusted(tmp_path):
    from security.hostile import submission

    code = submission(tmp_path, TRUSTED)
    with Worker(TOKENIZATION, code, part=3, timeout=30) as worker:
        assert worker.call("uses_merge_pair") == ["ab"]  # the reference stands in
        worker.trust(["merge_pair", "word_frequencies"])
        assert worker.call("uses_merge_pair") == ["mine"]
    with Worker(TOKENIZATION, code, part=5, timeout=30) as worker:
        tok = worker.call("CharTokenizer")
        assert worker.method(tok, "encode", "a") == [0]
        worker.trust(["CharTokenizer"])
        assert worker.method(worker.call("CharTokenizer"), "encode", "a") == [42]


@pytest.mark.parametrize("name", known())
def test_every_description_crosses_the_pipe_and_keeps_shared_constants(tmp_path, name):
    """The description the worker gets is JSON for every part of every assignment, and a
    shared constant arrives with its type (production's ``WHITE_SPACE`` is a frozenset)."""
    assignment = load(name)
    for part in assignment.parts:
        json.dumps(standin.ReferenceServer(assignment, part).describe())
    path = tmp_path / "student.py"
    path.write_text("def probe():\n    return [type(globals()[n]).__name__ for n in NAMES]\n"
                    f"NAMES = {list(assignment.shared_names)!r}\n", encoding="utf-8")
    code = extract(path)
    other = assignment.grading_order[-1]
    expected = [type(standin.server(assignment, other).values.get(n)).__name__
                for n in assignment.shared_names]
    with Worker(assignment, code, other, timeout=30) as worker:
        assert worker.call("probe") == expected


def _char_state(server: standin.ReferenceServer, chars: list[str]) -> object:
    """A ``CharTokenizer``'s public state as the worker sends it (the pipe's tags)."""
    tok = server.classes["CharTokenizer"](chars)
    return json.loads(json.dumps(server._encode(standin.public_state(tok))))


def _method(server: standin.ReferenceServer, name: str, state: object, *args) -> dict:
    request = {"ref": "method", "cls": "CharTokenizer", "name": name, "args": list(args),
               "kwargs": [], "state": state}
    return server.serve(request)["ref_ok"]


def test_an_object_state_is_decoded_once_and_each_call_gets_a_fresh_copy(monkeypatch):
    """``ReferenceServer._rebuild``: a stand-in object's state comes with each call of its
    methods. It is decoded once, by what was sent; each call gets its own copy (a method
    that changes its object in place changes nothing for the next call); a call that
    leaves the state as it was sends back None (the worker's object stays as it is), else
    the new state."""
    server = standin.ReferenceServer(TOKENIZATION, 5)  # parts 2 and 4 are the reference's
    state = _char_state(server, list("abc"))
    decoded = []
    decode = server._decode
    monkeypatch.setattr(server, "_decode", lambda value, depth=0: (
        decoded.append(depth) if value == state else None, decode(value, depth))[1])
    first = _method(server, "encode", state, "cab")
    again = _method(server, "encode", json.loads(json.dumps(state)), "ba")
    assert (first["value"], again["value"]) == ([3, 1, 2], [2, 1])
    assert first["state"] is None and decoded == [0]  # unchanged; one decoding

    cls = server.classes["CharTokenizer"]
    monkeypatch.setattr(cls, "encode", lambda self, text: (self.vocab.append(text),
                                                            len(self.vocab))[1])
    grown = [_method(server, "encode", state, "z") for _ in range(2)]
    assert [reply["value"] for reply in grown] == [5, 5]  # not 5, then 6
    assert grown[0]["state"] != state
    assert server._decode(grown[0]["state"])["vocab"] == ["<UNK>", "a", "b", "c", "z"]

    built = _method(server, "build_vocab", state, ["xy"])
    assert server._decode(built["state"])["vocab"] == ["<UNK>", "x", "y"]


def test_a_stand_in_object_changed_by_the_student_sends_its_new_state(tmp_path):
    """``worker.Channel.state_of`` remembers an object's encoded state by the state's own
    bytes, so a change the student's code makes to the object, in place or not, reaches
    the reference at the next call; a state it cannot remember (a student's object in it)
    is sent as before."""
    from security.hostile import submission

    code = submission(tmp_path, """
        class Mine:
            pass

        def probe():
            tok = CharTokenizer(["a", "b"])
            seen = [tok.encode("ab"), tok.encode("ab")]
            tok.char_to_id["a"] = 2  # in place
            seen.append(tok.encode("ab"))
            tok.char_to_id = {"<UNK>": 0, "a": 1, "b": 1}  # a new value
            seen.append(tok.encode("ab"))
            tok.extra = Mine()  # not plain: left out of the state
            seen.append(tok.encode("ba"))
            return seen
    """)
    with Worker(TOKENIZATION, code, part=5, timeout=30) as worker:
        assert worker.call("probe") == [[1, 2], [1, 2], [2, 2], [1, 1], [1, 1]]


def test_a_stand_in_object_passed_to_the_reference_arrives_as_the_object():
    """An argument that is a stand-in object (``{"__object__": ...}``) reaches the reference
    as an object of its class, rebuilt from its state, however states are kept."""
    server = standin.ReferenceServer(TOKENIZATION, 6)  # Part 5's functions are served
    arg = {"__object__": "CharTokenizer", "state": _char_state(server, list("abc"))}
    request = {"ref": "call", "name": "tokenize_dataset", "args": [["cab", "ba"], arg],
               "kwargs": []}
    assert server.serve(request) == {"ref_ok": {"value": [[3, 1, 2], [2, 1]]}}


def test_remembered_states_stay_small_when_each_call_brings_a_new_one():
    """Both ends remember object states by bytes, within a bound: a big stand-in whose
    public state changes before each call (a counter the student keeps on it) does not
    fill the worker's memory (an eighth of its submission's: 64 such states of 40,000
    characters, kept, held 1.3 GB) nor the scoring process's (``standin.KEPT_BYTES``)."""
    from autograder.sandbox import worker

    class Tok:
        pass

    channel = worker.Channel(-1, -1)
    tok = Tok()
    tok.vocab = [chr(0x4E00 + i) for i in range(40_000)]
    for i in range(64):
        tok.calls = i
        assert channel.state_of(tok) == {"__dict__": [["vocab", tok.vocab], ["calls", i]]}
    assert 0 < sum(map(len, channel.states)) <= channel.STATE_BYTES
    assert channel.state_of(tok) is channel.state_of(tok)  # the last one is remembered

    server = standin.ReferenceServer(TOKENIZATION, 5)
    for i in range(12):
        state = {"__dict__": [["vocab", list(range(200_000))], ["calls", i]]}
        _method(server, "build_vocab", state, ["ab"])
    held = sum(len(k) + len(v) for k, v in server._decoded.items())
    assert 0 < held <= standin.KEPT_BYTES


def test_a_reference_array_larger_than_a_worker_reads_is_refused_before_it_is_written():
    """A stand-in runs in the scoring process on sizes the student picks: ``one_hot`` of
    1,000 IDs and 30,000 columns is 229 MiB, written out as 305 MiB of JSON there (1.2 GB at
    once, within 2 s of the 2 GiB the scoring process has) for a worker that reads 64 MiB."""
    from autograder.assignment import load
    from autograder.sandbox.standin import ReferenceServer
    from autograder.sandbox.worker import MAX_MESSAGE

    server = ReferenceServer(load("tokens_to_vectors"), 6)
    answer = server.serve({"ref": "call", "name": "one_hot",
                           "args": [list(range(1000)), 30_000], "kwargs": []})
    assert answer["ref_error"]["type"] == "RuntimeError"
    assert "too large" in answer["ref_error"]["message"]
    small = server.serve({"ref": "call", "name": "one_hot", "args": [[1, 0], 3], "kwargs": []})
    assert small["ref_ok"]["value"]["__ndarray__"][:2] == ["<f8", [2, 3]]
    assert MAX_MESSAGE < 8 * 1000 * 30_000


def test_a_reply_of_many_arrays_is_refused_by_their_bytes_in_all(monkeypatch):
    """The bound on a stand-in's arrays holds for the whole reply: eight arrays each within
    ``MAX_ARRAY_BYTES`` (or one array eight times: each is written out) are eight times a
    message, and a list of eight 32 MiB arrays was written out as 341 MiB in the scoring
    process. The bound is made 1 MiB here: the same sums, at a size cheap to get wrong."""
    import numpy as np

    monkeypatch.setattr(standin, "MAX_ARRAY_BYTES", 1 << 20)
    server = standin.ReferenceServer(TOKENIZATION, 5)
    whole, half = np.zeros(1 << 17), np.zeros(1 << 16)  # 1 MiB and 512 KiB of float64

    def reply(value: object) -> dict:
        monkeypatch.setitem(server.functions, "arrays", lambda: value)
        return server.serve({"ref": "call", "name": "arrays", "args": [], "kwargs": []})

    for many in ([whole] * 8, (half, half.copy(), half), {"a": half, "b": [[half]] * 2}):
        refused = reply(many)["ref_error"]
        assert refused["type"] == "RuntimeError" and "too large" in refused["message"]
        assert "in all" in refused["message"]
    assert reply(whole)["ref_ok"]["value"]["__ndarray__"][:2] == ["<f8", [1 << 17]]
    assert len(reply((half, half))["ref_ok"]["value"]["__tuple__"]) == 2
