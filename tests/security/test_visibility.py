"""Red team, category 8: hidden inputs reach feedback only when the instructor opts in.

A hostile submission (a correct script with a few functions replaced) tries every
channel a hidden input could leave by:

- its own exception message (``count_pairs`` raises with its arguments in it) and the
  name of an exception class made at run time (``merge_pair``);
- its reply (``attention_scores`` returns a wrong number that the message would show
  next to the expected one, both computed from the hidden input);
- load warnings: a worker crashes in a hidden test (``word_frequencies`` exits), the
  replacement loads the code again, and a class body raises with something only that
  load knows (random bytes stand for whatever a worker could carry over to its
  successor through a shared place: at the drop and basic levels, ``/tmp``);
- sheer volume: sixty statements that raise with 5,000-character messages.

By default none of it is shown (each piece is "…", a note says why, reload warnings
are counted, not shown) and warnings are capped at 20 of 300 characters, in the result
and in Gradescope's top-level ``output``; with ``show_hidden_inputs`` the inputs return.
Today's grader shows every one of them (``LEAK:`` in messages, every reload warning,
all sixty warnings in full).
"""

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.safe import MAX_WARNINGS, WARNING_CHARS
from autograder.suite.checks import show
from autograder.suite.evidence import compared, evidence, outline, render
from autograder.suite.plugin import shown_warnings
from autograder.suite.run import grade_file
from tests.course import TOKENIZATION

ROOT = Path(__file__).resolve().parents[2]
CORRECT = ROOT / "samples/submitted/dave_script/tokenization/tokenization.py"

# One channel alone, for the CLI's flag: fast to grade (no crash, no reload).
LEAK = '''

def count_pairs(word_tokens, word_freq):
    raise ValueError("LEAK:" + repr(word_freq))
'''

LEAKS = LEAK + '''

def attention_scores(seq_len, batch_size=1):
    return batch_size * seq_len ** 2 + 1


def word_frequencies(corpus):
    import os
    os._exit(3)


def merge_pair(tokens, pair):
    raise type("NAMED" + "".join(tokens), (ValueError,), {})()


class ReloadProbe:
    import os
    raise ValueError("RELOAD-" + os.urandom(6).hex())
'''

FLOOD = "".join(
    f'\n\nclass Flood{i}:\n    raise ValueError("{i}:" + "F" * 5000)\n' for i in range(60)
)


def reloads(result: dict) -> list[str]:
    return [w for w in result["warnings"] if "RELOAD-" in w]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    path = tmp_path_factory.mktemp("visibility") / "tokenization.py"
    path.write_text(CORRECT.read_text(encoding="utf-8") + LEAKS, encoding="utf-8")
    with ThreadPoolExecutor(2) as pool:
        hidden = pool.submit(grade_file, path, "hidden", assignment=TOKENIZATION, timeout=240)
        shown = pool.submit(grade_file, path, "shown", assignment=TOKENIZATION, timeout=240,
                            show_hidden_inputs=True)
        return {"hidden": hidden.result(), "shown": shown.result()}


def output(result: dict, test_id: str) -> str:
    return next(t["output"] for t in result["tests"] if t["id"] == test_id)


@pytest.mark.slow
def test_by_default_no_message_carries_a_hidden_input(graded) -> None:
    result = graded["hidden"]
    assert result["status"] == "graded", result["error"]
    for test in result["tests"]:
        assert "LEAK:" not in test["output"] and "NAMED" not in test["output"], test
    # The student still learns what broke: which call, which exception.
    raised = output(result, "part4::test_count_pairs")
    assert "your code raised ValueError" in raised and "count_pairs(" in raised, raised
    scores = output(result, "part6::test_attention_scores_random")
    assert "attention_scores" in scores and "hidden test" in scores, scores
    assert not re.search(r"\d", scores.split("\n")[0]), scores


@pytest.mark.slow
def test_the_instructor_can_opt_in_to_showing_them(graded) -> None:
    result = graded["shown"]
    assert "LEAK:" in output(result, "part4::test_count_pairs")
    assert "NAMED" in output(result, "part4::test_merge_pair")
    scores = output(result, "part6::test_attention_scores_random")
    assert re.match(r"attention_scores\(\d+, \d+\) returned \d+, expected \d+", scores), scores


@pytest.mark.slow
def test_warnings_of_a_reloaded_worker_are_withheld_by_default(graded) -> None:
    hidden, shown = graded["hidden"], graded["shown"]
    # Every worker loaded before the tests says its line; the crash in Part 4 makes a
    # replacement whose line only the opt-in shows.
    assert len(reloads(shown)) > len(reloads(hidden)) >= 6, (reloads(hidden), reloads(shown))
    assert any("from reloading your code" in w for w in hidden["warnings"]), hidden["warnings"]


def test_evidence_marks_cannot_be_forged_to_reveal_anything() -> None:
    # A student's text holding the marks cannot end a piece of evidence early.
    forged = evidence("\ue001secret\ue002\ue000")
    assert "secret" not in render(f"raised {forged}", False, 200)
    assert render(f"got {show('x' * 500)}", False, 200).startswith("got a str of 500 characters")
    assert outline("a\tb <UNK>") == "a str of 9 characters with a tab, the text <UNK>"
    # A value the test's name spells out is no secret; any other stays hidden.
    name = 'merge_pair(["a","a","a"], ("a","a")) == ["aa","a"]'
    assert "['a', 'a', 'a']" in render(f"f({show(['a', 'a', 'a'])})", False, 200, name)
    assert "['a', 'a', 'b']" not in render(f"f({show(['a', 'a', 'b'])})", False, 200, name)
    # A reply is described against the expected value, never by numbers it chose.
    assert "104" not in compared(list(range(104)), [1, 2]) + compared(104, 3)
    withheld = shown_warnings(["cell 1: NameError", evidence("cell 1: NameError"),
                               evidence("cell 2: secret")], reveal=False)
    assert withheld[0] == "cell 1: NameError" and "secret" not in " ".join(withheld)
    assert withheld[-1].startswith("1 more warning ")


@pytest.mark.slow
def test_the_cli_flag_reaches_feedback_html_and_results_json(tmp_path: Path) -> None:
    tree = tmp_path / "submitted" / "mallory" / "tokenization"
    tree.mkdir(parents=True)
    (tree / "tokenization.py").write_text(CORRECT.read_text(encoding="utf-8") + LEAK,
                                          encoding="utf-8")

    def grade(out: str, *flags: str) -> Path:
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(tree.parent.parent),
                               "--out", str(tmp_path / out), *flags], cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return tmp_path / out / "mallory"

    with ThreadPoolExecutor(2) as pool:
        hidden = pool.submit(grade, "hidden")
        shown = pool.submit(grade, "shown", "--show-hidden-inputs")
        hidden_dir, shown_dir = hidden.result(), shown.result()
    for name in ("feedback.html", "results.json"):
        assert "LEAK:" not in (hidden_dir / name).read_text(encoding="utf-8"), name
        assert "LEAK:" in (shown_dir / name).read_text(encoding="utf-8"), name


@pytest.mark.slow
def test_warnings_are_capped_in_results_json_output(tmp_path: Path) -> None:
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "tokenization.py").write_text(
        CORRECT.read_text(encoding="utf-8") + LEAK + FLOOD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "autograder.gradescope.run", "--root", str(root),
                           "--assignment", "tokenization"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    top = data["output"]
    assert "LEAK:" not in top and all("LEAK:" not in t["output"] for t in data["tests"])
    warnings = [line for line in top.splitlines() if line.startswith("- ")]
    assert len(warnings) == MAX_WARNINGS, top[:3000]
    assert all(len(w) <= WARNING_CHARS + 2 for w in warnings), max(map(len, warnings))
    assert re.fullmatch(r"- … and \d+ more warnings", warnings[-1]), warnings[-1]
    assert len(top) < MAX_WARNINGS * (WARNING_CHARS + 3) + 500
