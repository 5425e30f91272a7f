"""The fenced blocks of the guides (``README.md`` and ``docs/*.md``), as the tests read them.

A block's first line is its *info string*: a language, then what the block is for
(``docs/README.md`` says who runs each kind):

- ```` ```sh ````, ```` ```sh slow ````, ```` ```sh run-by: tests/FILE.py ````,
  ```` ```sh not-run: REASON ````: commands;
- ```` ```python file: PATH ```` (any language): a file of the adding-an-assignment guide,
  written at ``PATH``;
- ```` ```text output: PATH ````: what a command of the guide writes at ``PATH``;
- anything else: text for the reader.
"""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,})(.*)$")
COMMANDS = {"sh"}  # the languages whose blocks are commands


@dataclass(frozen=True)
class Block:
    """One fenced block: where it starts, its language, what it is for, and its text."""

    guide: Path
    line: int  # of the opening fence, from 1
    language: str
    kind: str  # "" (run by tests/test_docs.py), "slow", "run-by", "not-run", "file", "output"
    detail: str  # the test file, the reason, or the path
    text: str

    @property
    def where(self) -> str:
        return f"{self.guide.relative_to(ROOT)}:{self.line}"

    @property
    def is_command(self) -> bool:
        return self.language in COMMANDS


def _kind(rest: str) -> tuple[str, str]:
    """What an info string's words after the language say: ``(kind, detail)``."""
    rest = rest.strip()
    if not rest:
        return "", ""
    if rest == "slow":
        return "slow", ""
    for kind in ("run-by", "not-run", "file", "output"):
        if rest.startswith(f"{kind}:"):
            return kind, rest[len(kind) + 1:].strip()
    return "unknown", rest


def blocks(guide: Path) -> list[Block]:
    """The fenced blocks of ``guide``, in order."""
    found, lines = [], guide.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, info = opening.groups()
        end = next((i for i in range(index + 1, len(lines)) if lines[i].strip() == fence),
                   len(lines))
        language, _, rest = info.strip().partition(" ")
        kind, detail = _kind(rest)
        text = "\n".join(lines[index + 1:end]) + "\n"
        found.append(Block(guide, index + 1, language, kind, detail, text))
        index = end + 1
    return found
