"""Grade the catalogue with the hidden autograder: which submissions, and how to run them.

Wrong entries are graded in *bundles*: one submission holds at most one entry per part,
so each of its parts is graded against at most one bug (the grader grades every part
with the reference for all the others). A bundle's parts that hold no entry must score
full marks, which checks that a bug costs nothing outside its own part. Parts are spread
over bundles so that every bundle keeps several clean parts. Even bundles edit a wrong
method into the student's class; odd bundles add it the notebook way, as a later cell
``class X(X)`` (see ``submission_source``). ``CATALOGUE_SOLO=1`` grades every entry
alone instead (the strictest isolation check; slower).

Correct submissions (the reference and differently structured alternatives) are graded
alone and must score full marks in every part.
"""

import json
import os
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import jupytext

from autograder.parts import POINTS

from .catalogue import Entry, reference_source, submission_source

CORRECT_DIR = Path(__file__).with_name("correct")


@dataclass
class Job:
    """One submission file to grade and what it contains."""

    key: str
    suffix: str
    source: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def bug_parts(self) -> set[int]:
        return {entry.part for entry in self.entries}


@dataclass(frozen=True)
class Correct:
    """A correct submission; ``gap`` says why the grader wrongly takes points, if it does.

    ``code``, when set, is edited into the reference like an entry's (``submission_source``):
    the reference written in another student's style.
    """

    name: str
    description: str
    gap: str | None = None
    code: str | None = None


CORRECT = [
    Correct("reference", "the reference solution flattened into one .py file"),
    Correct(
        "incremental",
        "incremental pair-count BPE trainer, inline validation, loop-style helpers (.py)",
    ),
    Correct(
        "lists_functional",
        "list-based CharTokenizer (id_to_char is a list), functional-style utilities (.py)",
    ),
    Correct(
        "methods_stdlib",
        "BPE steps as private/static methods, defaultdict counts, stdlib utilities (.py)",
    ),
    Correct(
        "notebook_style",
        "a notebook (.ipynb) with helpers inlined, plain attributes, demo and plot cells",
    ),
    Correct(
        "later_cell_override",
        "the reference plus a later cell that redefines CharTokenizer as a subclass of itself "
        "with an equivalent encode (a common notebook way to change one method)",
    ),
]

from .styles import STYLES  # noqa: E402 - the correct styles need Correct defined above

CORRECT += STYLES

LATER_CELL_OVERRIDE = '''

class CharTokenizer(CharTokenizer):
    def encode(self, text):
        """The same encode, rewritten with a loop in a later cell."""
        if not isinstance(text, str):
            raise TypeError(f"encode expects a str, got {type(text).__name__}")
        ids = []
        for ch in text:
            ids.append(self.char_to_id.get(ch, self.unk_id))
        return ids
'''


def correct_job(correct: Correct) -> Job:
    if correct.code is not None:
        return Job(f"correct:{correct.name}", ".py", submission_source(correct.code))
    if correct.name == "reference":
        return Job("correct:reference", ".py", reference_source())
    if correct.name == "later_cell_override":
        return Job(f"correct:{correct.name}", ".py", reference_source() + LATER_CELL_OVERRIDE)
    path = CORRECT_DIR / f"{correct.name}.py"
    if correct.name == "notebook_style":  # a percent-format file, graded as a notebook
        notebook = jupytext.writes(jupytext.read(path), "ipynb")
        return Job(f"correct:{correct.name}", ".ipynb", notebook)
    return Job(f"correct:{correct.name}", ".py", path.read_text(encoding="utf-8"))


def plan_bundles(entries: list[Entry], solo: bool = False) -> list[Job]:
    """Group entries into submissions with at most one entry per part."""
    if solo:
        return [Job(f"entry:{e.name}", ".py", submission_source(e.code), [e]) for e in entries]
    by_part: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_part[entry.part].append(entry)
    count = max(len(group) for group in by_part.values())
    bundles: list[list[Entry]] = [[] for _ in range(count)]
    # Biggest parts first; each entry goes to the least loaded bundle without its part.
    for part in sorted(by_part, key=lambda p: (-len(by_part[p]), p)):
        for entry in by_part[part]:
            free = [b for b in bundles if all(e.part != part for e in b)]
            min(free, key=len).append(entry)
    jobs = []
    for index, bundle in enumerate(bundles):
        codes = [e.code for e in sorted(bundle, key=lambda e: e.part)]
        # Odd bundles change methods the notebook way: a later class X(X) cell.
        source = submission_source(*codes, later_cells=index % 2 == 1)
        jobs.append(Job(f"bundle:{index:02d}", ".py", source, bundle))
    return jobs


def grade_all(jobs: list[Job], directory: Path, workers: int) -> dict[str, dict]:
    """Grade every job with ``grade_file`` on a small thread pool; results by key."""
    from autograder.suite.run import grade_file

    def grade(job: Job) -> tuple[str, dict]:
        path = directory / (job.key.replace(":", "_") + job.suffix)
        path.write_text(job.source, encoding="utf-8")
        return job.key, grade_file(path, job.key, timeout=240.0)

    # The slowest submissions (timing bugs) start first so they do not finish last.
    ordered = sorted(jobs, key=lambda j: not any("quadratic" in e.name for e in j.entries))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(pool.map(grade, ordered))


def lost(result: dict, part: int) -> float:
    """Points a result lost in ``part``."""
    scores = result["parts"][str(part)]
    return float(scores["max_score"]) - float(scores["score"])


def failed_tests(result: dict, part: int | None = None) -> list[str]:
    return [
        t["id"]
        for t in result["tests"]
        if t["status"] == "failed" and (part is None or t["part"] == part)
    ]


def write_report(path: str, jobs: list[Job], results: dict[str, dict]) -> None:
    """A JSON summary for people: per submission, its entries, part scores and failed tests."""
    report = {}
    for job in jobs:
        result = results[job.key]
        report[job.key] = {
            "entries": {e.name: e.part for e in job.entries},
            "status": result["status"],
            "error": result["error"],
            "seconds": result["seconds"],
            "lost": {p: lost(result, p) for p in POINTS},
            "failed": failed_tests(result),
        }
    Path(path).write_text(json.dumps(report, indent=2), encoding="utf-8")


def settings_from_env() -> tuple[bool, int, str | None]:
    solo = os.environ.get("CATALOGUE_SOLO", "") not in ("", "0")
    workers = int(os.environ.get("CATALOGUE_JOBS", "3"))
    return solo, workers, os.environ.get("CATALOGUE_REPORT")
