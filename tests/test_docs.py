"""The guides cannot rot: ``README.md`` and ``docs/*.md`` (the conventions: docs/README.md).

- Every command in a fenced ``sh`` block is run by a test or marked as not runnable here
  with its reason. Unmarked blocks run here, in a scratch copy of this checkout (those
  marked ``slow`` among the slow tests); a ``run-by`` block names a test that exists and
  reads that guide; of a ``not-run`` block, what can be checked without running it is
  checked (its ``make`` targets exist, its ``python -m`` modules import).
- Every relative link resolves to a file of the checkout, and an ``#anchor`` to a heading.
- The README stays short, and links every guide.
- No tracked file names the team's work rounds (the word "stop" with a round's number) or
  the numbers of its private tracker ("issue" with a number): what was measured, and why
  the choice follows, stands on its own; history belongs to ``git log``. A public tracker's
  number (CPython's ``gh-106905``) is fine.
"""

import re
import shlex
from pathlib import Path

import pytest

from tests.checkout import checkout_files, copy_checkout, run
from tests.markdown import GUIDES, ROOT, Block, blocks

BLOCKS = [block for guide in GUIDES for block in blocks(guide)]
COMMANDS = [block for block in BLOCKS if block.is_command]
# Languages a command could hide under, unchecked: a command block is ```sh.
SHELLS = {"bash", "shell", "console", "zsh", "shell-session"}
README_LINES = 200


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_every_command_block_says_who_runs_it():
    assert len(COMMANDS) >= 20, "the guides' commands are found"
    for block in BLOCKS:
        assert block.language not in SHELLS, f"{block.where}: write commands as ```sh"
        assert block.kind != "unknown", f"{block.where}: unknown info string {block.detail!r}"
        if block.is_command:
            assert block.kind in ("", "slow", "run-by", "not-run"), block.where
            assert block.kind != "not-run" or len(block.detail) > 10, (
                f"{block.where}: say why it cannot run here")
        else:
            assert block.kind in ("", "file", "output"), block.where


@pytest.mark.parametrize("block", [b for b in COMMANDS if b.kind == "run-by"],
                         ids=lambda b: b.where)
def test_a_block_run_by_another_test_is_read_by_it(block: Block):
    test = ROOT / block.detail
    assert re.fullmatch(r"tests/(\w+/)*test_\w+\.py", block.detail) and test.is_file(), (
        f"{block.where}: {block.detail} is no test file")
    assert relative(block.guide) in test.read_text(encoding="utf-8"), (
        f"{block.where}: {block.detail} does not read {relative(block.guide)}")


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One scratch copy of this checkout for every block of a session, run in the guides'
    order: no block relies on another's work."""
    return copy_checkout(tmp_path_factory.mktemp("docs") / "checkout")


@pytest.mark.parametrize("block", [
    block if block.kind == "" else pytest.param(block, marks=pytest.mark.slow)
    for block in COMMANDS if block.kind in ("", "slow")], ids=lambda b: b.where)
@pytest.mark.timeout(1800)
def test_a_command_block_runs(block: Block, checkout: Path):
    done = run(block.text, checkout, timeout=1800)
    assert done.returncode == 0, (f"{block.where} failed:\n{block.text}\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def not_run_lines() -> list[tuple[Block, list[str]]]:
    """Each command line of the ``not-run`` blocks, as words (comments left out)."""
    found = []
    for block in COMMANDS:
        if block.kind == "not-run":
            for line in block.text.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    found.append((block, shlex.split(line)))
    return found


def test_what_is_not_run_still_names_real_targets_and_modules(checkout: Path):
    """A ``make`` line's target exists (``make -n`` runs nothing), and a ``python -m``
    line's module can be found in this checkout."""
    checked = 0
    for block, words in not_run_lines():
        if words[0] == "make":
            done = run(f"make -n {shlex.join(words[1:])}", checkout)
            assert done.returncode == 0, f"{block.where}: {shlex.join(words)}\n{done.stderr}"
            checked += 1
        elif words[0] == ".venv/bin/python" and words[1] == "-m":
            code = ("import importlib.util, sys; "
                    f"sys.exit(importlib.util.find_spec({words[2]!r}) is None)")
            done = run(shlex.join([".venv/bin/python", "-c", code]), checkout)
            assert done.returncode == 0, f"{block.where}: no module {words[2]}"
            checked += 1
    assert checked >= 5


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_every_relative_link_resolves():
    checked = 0
    for guide in GUIDES:
        text = re.sub(r"^```.*?^```", "", guide.read_text(encoding="utf-8"), flags=re.M | re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            name, _, anchor = target.partition("#")
            path = (guide.parent / name).resolve() if name else guide
            assert path.is_relative_to(ROOT) and path.exists(), (
                f"{relative(guide)}: {target} is not a file of this checkout")
            if anchor:
                assert path.suffix == ".md" and anchor in anchors(path), (
                    f"{relative(guide)}: {target}: no such heading")
            checked += 1
    assert checked >= 30, "the guides' links are found"


def test_the_readme_is_short_and_points_to_every_guide():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES
    for guide in sorted((ROOT / "docs").glob("*.md")):
        assert f"({relative(guide)})" in text, f"README.md does not link {relative(guide)}"


# The words of a team's work rounds and private tracker: "stop" or "issue" (or their plurals)
# and a number, with a space, a hyphen or a "#" between them.
ROUND_WORDS = re.compile(r"\b(stops?|issues?)[- ]#?\d+", re.IGNORECASE)
# Files that hold data, not words.
DATA = re.compile(r"(\.(json|ipynb|png|zip|bin)|merges\.txt|tinyshakespeare\.txt"
                  r"|NormalizationTest[^/]*\.txt)$")


def test_no_tracked_file_uses_work_round_words():
    found = []
    for name in checkout_files():
        if DATA.search(name):
            continue
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if ROUND_WORDS.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "say what was measured instead:\n" + "\n".join(found)
