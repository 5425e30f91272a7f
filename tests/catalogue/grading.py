"""Grade the catalogue with the hidden autograder: which submissions, and how to run them.

Wrong entries are graded in *bundles*: one submission holds at most one entry per part,
so each of its parts is graded against at most one bug (the grader grades every part
with the reference for all the others). A bundle's parts that hold no entry must score
full marks, which checks that a bug costs nothing outside its own part. Parts are spread
over bundles so that every bundle keeps several clean parts. Even bundles edit a wrong
method into the student's class; odd bundles add it the notebook way, as a later cell
``class X(X)`` (see ``submission_source``). ``CATALOGUE_SOLO=1`` grades every entry
alone instead (the strictest isolation check; slower).

A bundle's other bugs can hide a leak: a Part 4 bug that leaks into Part 5 through the
student's Part 2 class leaks only when Part 2 passes. So for every pair of parts where
one reaches the other (``calls.reached``), an entry of the callee that changes a name the
caller reaches is graded alone (``apart_entries``), every other part clean.

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

from autograder.assignment import Assignment, load

from .calls import defined, reached
from .catalogue import Catalogue, Correct, Entry, reference_source, submission_source

HERE = Path(__file__).resolve().parent


@dataclass
class Job:
    """One submission file of one assignment to grade, and what it contains."""

    assignment: Assignment
    key: str
    suffix: str
    source: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def bug_parts(self) -> set[int]:
        return {entry.part for entry in self.entries}


def correct_job(catalogue: Catalogue, correct: Correct) -> Job:
    a = load(catalogue.assignment)
    key = f"correct:{correct.name}"
    if correct.code is not None:
        return Job(a, key, ".py", submission_source(a, correct.code,
                                                    later_cells=correct.later_cells))
    if correct.name == "reference":
        return Job(a, key, ".py", reference_source(a))
    path = HERE / a.name / "correct" / f"{correct.name}.py"
    if correct.notebook:  # a percent-format file, graded as a notebook
        return Job(a, key, ".ipynb", jupytext.writes(jupytext.read(path), "ipynb"))
    return Job(a, key, ".py", path.read_text(encoding="utf-8"))


def plan_bundles(catalogue: Catalogue, solo: bool = False) -> list[Job]:
    """Group the catalogue's entries into submissions with at most one entry per part."""
    a, entries = load(catalogue.assignment), catalogue.entries
    if solo:
        return [Job(a, f"entry:{e.name}", ".py", submission_source(a, e.code), [e])
                for e in entries]
    apart = apart_entries(catalogue)
    jobs = [Job(a, f"apart:{e.name}", ".py", submission_source(a, e.code), [e]) for e in apart]
    by_part: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry not in apart:
            by_part[entry.part].append(entry)
    count = max(len(group) for group in by_part.values())
    bundles: list[list[Entry]] = [[] for _ in range(count)]
    # Biggest parts first; each entry goes to the least loaded bundle without its part.
    for part in sorted(by_part, key=lambda p: (-len(by_part[p]), p)):
        for entry in by_part[part]:
            free = [b for b in bundles if all(e.part != part for e in b)]
            min(free, key=len).append(entry)
    for index, bundle in enumerate(bundles):
        codes = [e.code for e in sorted(bundle, key=lambda e: e.part)]
        # Odd bundles change methods the notebook way: a later class X(X) cell.
        source = submission_source(a, *codes, later_cells=index % 2 == 1)
        jobs.append(Job(a, f"bundle:{index:02d}", ".py", source, bundle))
    return jobs


def apart_entries(catalogue: Catalogue) -> list[Entry]:
    """Entries to grade alone: for each ``(caller, callee)`` pair of parts, one entry of
    the callee (caught by the suite: no ``gap``) whose code changes a name the caller
    reaches; fewest entries first come, most pairs each."""
    pairs = reached(load(catalogue.assignment))
    chosen: list[Entry] = []
    left = set(pairs)

    def covers(entry: Entry) -> set[tuple[int, int]]:
        return {p for p in left if p[1] == entry.part and defined(entry.code) & pairs[p]}

    while left:
        best = max((e for e in catalogue.entries if not e.gap and e not in chosen),
                   key=lambda e: len(covers(e)), default=None)
        if best is None or not covers(best):
            break  # no entry for the rest: ``test_every_calling_pair_is_graded_apart`` says so
        chosen.append(best)
        left -= covers(best)
    return chosen


def grade_all(jobs: list[Job], directory: Path, workers: int) -> dict[str, dict]:
    """Grade every job with ``grade_file`` on a small thread pool; results by key."""
    from autograder.suite.run import grade_file

    def grade(job: Job) -> tuple[str, dict]:
        path = directory / (job.key.replace(":", "_") + job.suffix)
        path.write_text(job.source, encoding="utf-8")
        return job.key, grade_file(path, job.key, assignment=job.assignment, timeout=240.0)

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


def messages(result: dict, ids: list[str]) -> str:
    """The feedback of the tests ``ids`` in ``result``, shortened: why they failed, so that
    a failure seen once (in CI, under load) can be understood without grading again."""
    said = {t["id"]: " ".join(str(t["output"]).split())[:400] for t in result["tests"]}
    return "".join(f"\n  {test}: {said.get(test, '')}" for test in ids)


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
            "lost": {p: lost(result, p) for p in job.assignment.points},
            "failed": failed_tests(result),
        }
    Path(path).write_text(json.dumps(report, indent=2), encoding="utf-8")


def settings_from_env() -> tuple[bool, int, str | None]:
    solo = os.environ.get("CATALOGUE_SOLO", "") not in ("", "0")
    workers = int(os.environ.get("CATALOGUE_JOBS", "3"))
    return solo, workers, os.environ.get("CATALOGUE_REPORT")
