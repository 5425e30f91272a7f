"""The hidden suite and its runner (``autograder.suite.run.grade_file``), end to end.

Every submission here is graded by the real runner: a pytest process with the plugin,
one sandboxed worker per part. They are graded once, in parallel, by a module fixture.
"""

import ast
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.sandbox.reference import reference_without
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

REFERENCE = reference_without(TOKENIZATION, 0)[0]


def stub_source() -> str:
    """The release notebook's state: every function body raises, no Q constants."""
    tree = ast.parse(REFERENCE)

    class Stub(ast.NodeTransformer):
        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
            node.body = [ast.Raise(ast.Call(ast.Name("NotImplementedError"), [], []))]
            return node

    tree = Stub().visit(tree)
    tree.body = [
        node for node in tree.body
        if not (isinstance(node, ast.Assign)
                and any(getattr(t, "id", "").startswith("Q") for t in node.targets))
    ]
    return ast.unparse(ast.fix_missing_locations(tree))


# A correct submission that shares no code with the reference: a list for id_to_char,
# vocab_size as a plain attribute, helpers of its own, BPE training with incremental pair
# counts, no encode cache.
DIFFERENT = '''
from collections import Counter, defaultdict

UNK = "<UNK>"
EOW = " "


def _check_id(token, size):
    if type(token) is not int or not 0 <= token < size:
        raise ValueError(f"invalid token id: {token!r}")


class Tokenizer:
    def encode(self, text):
        raise NotImplementedError("Subclasses must implement encode()")

    def decode(self, tokens):
        raise NotImplementedError("Subclasses must implement decode()")


class CharTokenizer(Tokenizer):
    def __init__(self, vocab=None):
        self.unk_id = 0
        self.vocab = [UNK]
        for ch in vocab or ():
            if not isinstance(ch, str) or (len(ch) != 1 and ch != UNK):
                raise ValueError(f"bad vocabulary entry {ch!r}")
            if ch not in self.vocab:
                self.vocab.append(ch)
        self._index()

    def _index(self):
        self.char_to_id = {}
        for i, ch in enumerate(self.vocab):
            self.char_to_id[ch] = i
        self.id_to_char = list(self.vocab)
        self.vocab_size = len(self.vocab)

    def build_vocab(self, corpus):
        seen = set()
        for text in corpus:
            seen.update(text)
        self.vocab = [UNK] + sorted(seen)
        self._index()

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("text must be a str")
        get = self.char_to_id.get
        return [get(ch, 0) for ch in text]

    def decode(self, tokens):
        out = []
        for token in tokens:
            _check_id(token, len(self.vocab))
            out.append(self.id_to_char[token])
        return "".join(out)


def word_frequencies(corpus):
    counts = Counter()
    for text in corpus:
        for word in text.split():
            counts[word] += 1
    return counts


def count_pairs(word_tokens, word_freq):
    counts = Counter()
    for word, tokens in word_tokens.items():
        for i in range(len(tokens) - 1):
            counts[tokens[i], tokens[i + 1]] += word_freq[word]
    return counts


def merge_pair(tokens, pair):
    out, skip = [], False
    for i, token in enumerate(tokens):
        if skip:
            skip = False
        elif i + 1 < len(tokens) and (token, tokens[i + 1]) == tuple(pair):
            out.append(token + tokens[i + 1])
            skip = True
        else:
            out.append(token)
    return out


class BPETokenizer(Tokenizer):
    def __init__(self, vocab_size=1000):
        self.target_vocab_size = self._valid(vocab_size)
        self.vocab = [UNK, EOW]
        self.merges = []
        self._build_mappings()

    @staticmethod
    def _valid(size):
        if type(size) is not int or size <= 0:
            raise ValueError(f"vocab_size must be a positive int, not {size!r}")
        return size

    @property
    def vocab_size(self):
        return len(self.vocab)

    def _get_word_tokens(self, word):
        return [*word, EOW]

    def _get_pairs(self, word_tokens):
        return {(a, b) for a, b in zip(word_tokens, word_tokens[1:])}

    def _apply_merges(self, tokens):
        for pair in self.merges:
            tokens = merge_pair(tokens, pair)
        return list(tokens)

    def _build_mappings(self):
        self.token_to_id = {}
        for i in range(len(self.vocab) - 1, -1, -1):
            self.token_to_id[self.vocab[i]] = i
        self.id_to_token = {i: token for i, token in enumerate(self.vocab)}

    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = self._valid(vocab_size)
        freq = Counter()
        for text in corpus:
            freq.update(text.split())
        words = {w: self._get_word_tokens(w) for w in freq}
        self.vocab = [UNK, EOW] + sorted(set("".join(freq)))
        self.merges = []
        counts, where = Counter(), defaultdict(set)
        for word, tokens in words.items():
            for pair in zip(tokens, tokens[1:]):
                counts[pair] += freq[word]
                where[pair].add(word)
        while len(self.vocab) < self.target_vocab_size:
            live = [pair for pair, count in counts.items() if count > 0]
            if not live:
                break
            top = max(counts[pair] for pair in live)
            best = min(pair for pair in live if counts[pair] == top)
            for word in list(where[best]):
                old = words[word]
                new = merge_pair(old, best)
                if new == old:
                    continue
                for pair in zip(old, old[1:]):
                    counts[pair] -= freq[word]
                for pair in zip(new, new[1:]):
                    counts[pair] += freq[word]
                    where[pair].add(word)
                words[word] = new
            self.merges.append(best)
            if best[0] + best[1] not in self.vocab:
                self.vocab.append(best[0] + best[1])
        self._build_mappings()

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode needs a str")
        ids = []
        for word in text.split():
            ids.extend(self.token_to_id.get(t, 0)
                       for t in self._apply_merges(self._get_word_tokens(word)))
        return ids

    def decode(self, tokens):
        pieces = []
        for token in tokens:
            _check_id(token, len(self.vocab))
            pieces.append(self.id_to_token[token])
        return "".join(pieces).rstrip(" ")


def create_tokenizer(strategy, vocab_size=1000, corpus=None):
    texts = corpus if corpus is not None else []
    if strategy == "bpe":
        tokenizer = BPETokenizer(vocab_size)
        tokenizer.train(texts)
        return tokenizer
    if strategy == "char":
        tokenizer = CharTokenizer()
        tokenizer.build_vocab(texts)
        return tokenizer
    raise ValueError(f"strategy must be 'char' or 'bpe', got {strategy!r}")


def tokenize_dataset(texts, tokenizer, max_length=None):
    if max_length is not None and max_length < 0:
        raise ValueError("max_length must not be negative")
    out = []
    for text in texts:
        ids = tokenizer.encode(text)
        out.append(ids if max_length is None else ids[:max_length])
    return out


def analyze_tokenization(texts, tokenizer):
    sequences = [tokenizer.encode(text) for text in texts]
    lengths = [len(s) for s in sequences]
    total = sum(lengths)
    flat = [i for s in sequences for i in s]
    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": total / len(texts) if texts else 0.0,
        "max_sequence_length": max(lengths) if lengths else 0,
        "unique_tokens": len(set(flat)),
        "compression_ratio": sum(map(len, texts)) / total if total else 0.0,
        "unknown_rate": flat.count(0) / total if total else 0.0,
    }


def embedding_memory_bytes(vocab_size, embed_dim, bytes_per_param=4):
    return vocab_size * embed_dim * bytes_per_param


def attention_scores(seq_len, batch_size=1):
    return batch_size * seq_len * seq_len


def attention_speedup(long_len, short_len):
    return (long_len * long_len) / (short_len * short_len)


def vocab_tradeoff(corpus, vocab_sizes, embed_dim):
    rows = []
    for size in vocab_sizes:
        tokenizer = create_tokenizer("bpe", size, corpus)
        lengths = [len(tokenizer.encode(text)) for text in corpus]
        avg = sum(lengths) / len(lengths) if lengths else 0.0
        rows.append({"vocab_size": size, "actual_vocab_size": len(tokenizer.vocab),
                     "avg_sequence_length": avg,
                     "embedding_bytes": embedding_memory_bytes(len(tokenizer.vocab), embed_dim),
                     "attention_scores": avg * avg})
    return rows


Q1_EMBEDDING_MIB = 87.89
Q2_CHAR_ATTENTION_SCORES = 1_280_000
Q2_BPE_ATTENTION_SCORES = 80_000
Q4_COMPRESSION_RATIO = 4.0
'''

# One plausible bug per part, appended to the reference: the last definition wins.
BUGGY = '''
class Tokenizer:
    def encode(self, text):
        raise NotImplementedError

    def decode(self, tokens):
        raise NotImplementedError


class CharTokenizer(CharTokenizer):
    def decode(self, tokens):
        out = []
        for t in tokens:
            if isinstance(t, bool) or not isinstance(t, int) or t >= self.vocab_size:
                raise ValueError(f"token ID {t!r} is out of range")
            out.append(self.vocab[t])
        return "".join(out)


class BPETokenizer(BPETokenizer):
    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = check_vocab_size(vocab_size)
        word_freq = word_frequencies(corpus)
        word_tokens = {w: self._get_word_tokens(w) for w in word_freq}
        self.vocab = [UNK, EOW] + sorted({c for w in word_freq for c in w})
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = count_pairs(word_tokens, word_freq)
            if not counts:
                break
            best = max(counts, key=lambda pair: (counts[pair], pair))
            for w in word_tokens:
                word_tokens[w] = merge_pair(word_tokens[w], best)
            self.merges.append(best)
            if best[0] + best[1] not in self.vocab:
                self.vocab.append(best[0] + best[1])
        self._build_mappings()


def merge_pair(tokens, pair):
    i = 0
    while i < len(tokens) - 1:
        if (tokens[i], tokens[i + 1]) == tuple(pair):
            tokens[i:i + 2] = [tokens[i] + tokens[i + 1]]
        i += 1
    return tokens


def analyze_tokenization(texts, tokenizer):
    sequences = [tokenizer.encode(text) for text in texts]
    total = sum(len(ids) for ids in sequences)
    characters = sum(len("".join(text.split())) for text in texts)
    unknown = sum(ids.count(0) for ids in sequences)
    return {
        "vocab_size": len(tokenizer.vocab),
        "total_tokens": total,
        "avg_sequence_length": total / len(texts) if texts else 0.0,
        "max_sequence_length": max((len(ids) for ids in sequences), default=0),
        "unique_tokens": len({t for ids in sequences for t in ids}),
        "compression_ratio": characters / total if total else 0.0,
        "unknown_rate": unknown / total if total else 0.0,
    }


Q1_EMBEDDING_MIB = 92.16
'''



def without(source: str, name: str) -> str:
    tree = ast.parse(source)
    tree.body = [node for node in tree.body if getattr(node, "name", None) != name]
    return ast.unparse(tree)


# The reference as notebook-style cells, the cell of vocab_tradeoff broken: only that
# cell is lost.
BROKEN_CELL = "# %%\ndef vocab_tradeoff(corpus, vocab_sizes, embed_dim:\n    return []\n"

# Top-level code that kills the worker while it loads; kept because it is a constant
# (exits every part's worker) or a class body (exits the part of that class).
EXIT_ALL = "import os\n\nEXIT_NOW = os._exit(1)\n"
EXIT_PART3 = "import os\n\n\nclass BPETokenizer(BPETokenizer):\n    os._exit(1)\n"

# A correct build_vocab that reads state its own class's __init__ set up: Part 4 grafts
# build_vocab onto the reference class, which must carry that state along.
OWN_STATE = """
class CharTokenizer(CharTokenizer):
    def __init__(self, vocab=None):
        self.unk_token = UNK
        super().__init__(vocab)

    def build_vocab(self, corpus):
        chars = sorted(set("".join(corpus)) - {self.unk_token})
        self.vocab = [self.unk_token] + chars
        self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))
"""

# A constructor that never returns: Part 2's bug, which must not cost Part 4 (whose graft
# also builds the student's state) more than a moment.
INIT_LOOPS = """
class CharTokenizer(CharTokenizer):
    def __init__(self, vocab=None):
        while True:
            pass
"""

# A class of the student's own that keeps vocab_size as a plain attribute, which its
# build_vocab leaves alone. Part 4 grades build_vocab on the reference class, whose
# vocab_size is computed: the constructor's stale number must not replace it.
INIT_SETS_SIZE = """
class CharTokenizer(Tokenizer):
    def __init__(self, vocab=None):
        self.vocab = [UNK] + [c for c in dict.fromkeys(vocab or []) if c != UNK]
        self.vocab_size = len(self.vocab)
        self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))

    def build_vocab(self, corpus):
        self.vocab = [UNK] + sorted(set("".join(corpus)))
        self.char_to_id = {c: i for i, c in enumerate(self.vocab)}
        self.id_to_char = dict(enumerate(self.vocab))
"""

SUBMISSIONS = {
    "reference": REFERENCE,
    "stub": stub_source(),
    "different": DIFFERENT,
    "buggy": REFERENCE + "\n\n" + BUGGY,
    "broken_cell": "# %%\n" + without(REFERENCE, "vocab_tradeoff").replace(
        "\nclass ", "\n# %%\nclass ") + "\n" + BROKEN_CELL,
    "exit_all": REFERENCE + "\n\n" + EXIT_ALL,
    "exit_part3": REFERENCE + "\n\n" + EXIT_PART3,
    "own_state": REFERENCE + "\n\n" + OWN_STATE,
    "init_loops": REFERENCE + "\n\n" + INIT_LOOPS,
    "init_sets_size": REFERENCE + "\n\n" + INIT_SETS_SIZE,
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    paths = {}
    for name, source in SUBMISSIONS.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(source, encoding="utf-8")
    # The longest first, so that no slot waits on it at the end: init_loops waits out two
    # call timeouts of 5 s (idle, so it takes a slot but hardly a core), buggy's trainer is slow.
    order = sorted(paths, key=lambda name: name not in ("init_loops", "buggy"))
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(grade_file, paths[name], name, assignment=TOKENIZATION,
                                     timeout=240) for name in order}
        return {name: future.result() for name, future in futures.items()}


def part_scores(result) -> dict[int, float]:
    return {int(part): score["score"] for part, score in result["parts"].items()}


def failed(result) -> set[str]:
    return {t["id"] for t in result["tests"] if t["status"] == "failed"}


@pytest.mark.slow
def test_every_part_adds_up_to_its_points(graded):
    result = graded["reference"]
    for part, points in TOKENIZATION.points.items():
        assert sum(t["max_score"] for t in result["tests"] if t["part"] == part) == points
        assert result["parts"][str(part)]["max_score"] == points
    assert result["max_score"] == sum(TOKENIZATION.points.values())


@pytest.mark.slow
def test_reference_gets_full_marks(graded):
    result = graded["reference"]
    assert result["status"] == "graded", result["error"]
    assert failed(result) == set(), [t["output"] for t in result["tests"]
                                     if t["status"] == "failed"]
    assert part_scores(result) == {p: float(m) for p, m in TOKENIZATION.points.items()}
    assert result["score"] == 100


@pytest.mark.slow
def test_stub_gets_zero_everywhere(graded):
    result = graded["stub"]
    assert result["status"] == "graded", result["error"]
    assert part_scores(result) == {p: 0.0 for p in TOKENIZATION.points}
    outputs = [t["output"] for t in result["tests"]]
    assert not any("InternalError" in o or "grader could not" in o for o in outputs), outputs


@pytest.mark.slow
def test_a_differently_built_correct_submission_gets_full_marks(graded):
    result = graded["different"]
    assert result["status"] == "graded", result["error"]
    assert failed(result) == set(), [(t["id"], t["output"]) for t in result["tests"]
                                     if t["status"] == "failed"]


@pytest.mark.slow
def test_one_bug_per_part_costs_points_in_that_part_only(graded):
    result = graded["buggy"]
    assert result["status"] == "graded", result["error"]
    lost = failed(result)
    assert {t for t in lost if t.startswith("part1::")} == {
        "part1::test_encode_not_implemented", "part1::test_decode_not_implemented",
        "part1::test_not_implemented_for_any_input"}
    assert {t for t in lost if t.startswith("part2::")} == {"part2::test_decode_rejects_bad_ids"}
    part3 = {t for t in lost if t.startswith("part3::")}
    assert {"part3::test_tie_break", "part3::test_merges_match_reference",
            "part3::test_worked_example_hello"} <= part3
    assert not part3 & {"part3::test_round_trip", "part3::test_encode_matches_reference",
                        "part3::test_decode_rejects_bad_ids", "part3::test_initial_state"}
    assert {t for t in lost if t.startswith("part4::")} == {
        "part4::test_merge_pair_returns_new_list"}
    assert {"part5::test_analyze_counts_whitespace_and_unknowns",
            "part5::test_analyze_tokenization"} <= lost
    assert {t for t in lost if t.startswith("part6::")} == {"part6::test_q1_embedding_mib"}


@pytest.mark.slow
def test_a_cell_that_does_not_parse_costs_only_its_own_definitions(graded):
    result = graded["broken_cell"]
    assert result["status"] == "graded", result["error"]
    assert any("not valid Python" in w for w in result["warnings"]), result["warnings"]
    scores = part_scores(result)
    assert all(scores[p] == TOKENIZATION.points[p] for p in range(1, 6)), scores
    assert failed(result) == {"part6::test_vocab_tradeoff"}


@pytest.mark.slow
def test_a_submission_that_exits_while_loading_gets_fair_zeros(graded):
    everywhere = graded["exit_all"]
    # The student's own exit is the student's zero, not a sandbox that did not start.
    assert everywhere["status"] == "graded", everywhere["error"]
    assert part_scores(everywhere) == {p: 0.0 for p in TOKENIZATION.points}
    assert everywhere["seconds"] < 120
    part3 = graded["exit_part3"]
    assert part3["status"] == "graded", part3["error"]
    scores = part_scores(part3)
    assert scores[3] == 0
    assert all(scores[p] == TOKENIZATION.points[p] for p in TOKENIZATION.points if p != 3), scores
    outputs = {t["output"] for t in part3["tests"] if t["part"] == 3}
    assert all("crashed" in o for o in outputs), outputs


def suite_lines() -> set[str]:
    lines = set()
    engine_suite = Path(grade_file.__code__.co_filename).parent
    for path in [*TOKENIZATION.folder.glob("*.py"), *engine_suite.glob("*.py")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if len(line.strip()) > 25:
                lines.add(line.strip())
    return lines


@pytest.mark.slow
def test_messages_show_no_suite_source_and_no_traceback(graded):
    lines = suite_lines()
    assert len(lines) > 100
    for name, result in graded.items():
        for test in result["tests"]:
            output = test["output"]
            assert "Traceback" not in output and 'File "' not in output, (name, output)
            leaked = [line for line in lines if line in output]
            assert not leaked, (name, test["id"], leaked[:3])


def test_an_unreadable_submission_is_an_error_not_a_crash(tmp_path):
    missing = grade_file(tmp_path / "missing.ipynb", "nobody", assignment=TOKENIZATION)
    assert missing["status"] == "error" and "unreadable" in missing["error"]
    assert missing["parts"]["3"] == {"score": 0.0, "max_score": 25.0}
    empty = tmp_path / "empty.py"
    empty.write_text("print('hello')\n", encoding="utf-8")
    result = grade_file(empty, "nobody", assignment=TOKENIZATION)
    assert result["status"] == "error" and "no code" in result["error"]
    assert result["score"] == 0 and result["max_score"] == 100


@pytest.mark.slow
def test_test_names_and_ids_are_student_readable(graded):
    for test in graded["reference"]["tests"]:
        assert re.fullmatch(r"part[1-6]::test_\w+", test["id"]), test["id"]
        assert test["name"] and "\n" not in test["name"] and not test["name"].startswith("test_")



@pytest.mark.slow
def test_build_vocab_may_use_state_from_the_students_own_constructor(graded):
    result = graded["own_state"]
    assert result["score"] == 100, [(t["id"], t["output"]) for t in result["tests"]
                                    if t["status"] != "passed"]


@pytest.mark.slow
def test_state_from_the_students_constructor_never_overrides_the_reference(graded):
    assert part_scores(graded["init_sets_size"])[4] == TOKENIZATION.points[4]


@pytest.mark.slow
def test_a_constructor_that_hangs_costs_part2_only(graded):
    scores = part_scores(graded["init_loops"])
    assert scores[2] == 0
    assert all(scores[p] == TOKENIZATION.points[p] for p in TOKENIZATION.points if p != 2), scores


@pytest.mark.slow
def test_a_subclass_override_keeps_build_vocab_in_part4(graded):
    # The Part 2 bug is a later `class CharTokenizer(CharTokenizer)` that does not
    # redefine build_vocab: Part 4 must still find the student's build_vocab.
    lost = failed(graded["buggy"])
    assert not {t for t in lost if t.startswith("part4::test_build_vocab")}
