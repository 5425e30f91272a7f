"""Mutation score of the hidden suite: does it fail submissions that are slightly wrong?

What it measures: every one-change mutant of the reference (``mutants.py``) is written
as a ``.py`` student submission and graded by ``grade_file``, exactly as a student would
be. A mutant is *killed* when it scores below full marks (the part that lost points is
recorded), and *survives* otherwise. Survivors are reviewed in ``survivors.py`` of the
assignment's folder: either equivalent (with the reason) or a gap that needs a new hidden
test. The oracle (``solutions/<name>/``) is never touched. The unmutated reference is
graded too: it must get full marks, or the run stops.

A mutant that fails only timing tests is graded a second time and counts as killed only
if it fails again, so a noisy timing test cannot inflate the score.

Reproduce (2 graders in parallel; results are appended to ``--results`` as they come,
so ``--resume`` continues an interrupted run)::

    make mutation A=NAME                        # all mutants, writes its folder's MUTATION.md
    .venv/bin/python -m autograder.validity.mutation --assignment NAME --limit 5  # a look
    .venv/bin/python -m autograder.validity.mutation --assignment NAME --sample 40 --seed 1
    .venv/bin/python -m autograder.validity.mutation --assignment NAME --report-only
"""

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from ..assignment import REPO, Assignment, known, load
from ..suite.timers import is_timing_test
from .common import measured_on, same_suite, suite_version
from .mutants import Mutant, mutants, original_source


def reviews(a: Assignment) -> tuple[dict, dict, dict]:
    """The assignment's reviewed survivors (``survivors.py`` in its folder): equivalent,
    unspecified, needs a test; all empty when it has none yet."""
    module = a.module("survivors")
    return tuple(getattr(module, table, {}) for table in  # type: ignore[return-value]
                 ("EQUIVALENT", "UNSPECIFIED", "NEEDS_TEST"))


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def grade_source(a: Assignment, source: str, student_id: str, workdir: Path,
                 timeout: float) -> dict:
    """Grade one submission source with the hidden suite; the parts that lost points."""
    from ..suite.run import grade_file

    path = workdir / f"{student_id}.py"
    path.write_text(source, encoding="utf-8")
    result = grade_file(path, student_id, assignment=a, timeout=timeout)
    failed = [t["id"] for t in result["tests"] if t["status"] != "passed"]
    lost = {p: round(s["max_score"] - s["score"], 3) for p, s in result["parts"].items()
            if s["score"] < s["max_score"]}
    # A timeout is the student's: the submission scores 0. Any other error is the grader's
    # (the suite's JSON did not validate, pytest stopped): it proves nothing either way.
    grader_error = result["status"] != "graded" and not str(result["error"]).startswith("timeout")
    return {"status": result["status"], "error": result["error"],
            "score": result["score"], "max_score": result["max_score"], "lost_parts": lost,
            "failed": failed, "seconds": round(result["seconds"], 1),
            "grader_error": grader_error,
            "killed": not grader_error and (result["status"] != "graded"
                                            or result["score"] < result["max_score"])}


def grade_mutant(a: Assignment, mutant: Mutant, workdir: Path, timeout: float) -> dict:
    """Grade one mutant; grade again once after a grader error or when only timing tests failed."""
    record = grade_source(a, mutant.source, f"mutant-{mutant.index:04d}", workdir, timeout)
    failed = record["failed"]
    timing_only = (record["status"] == "graded" and failed
                   and all(is_timing_test(a, test) for test in failed))
    if timing_only or record["grader_error"]:
        again = grade_source(a, mutant.source, f"mutant-{mutant.index:04d}b", workdir, timeout)
        record = {**again, "regraded": True, "first_failed": failed, "first_error": record["error"]}
    return {"index": mutant.index, "key": mutant.key, "operator": mutant.operator,
            "part": mutant.part, "line": mutant.line, "sha": _sha(mutant.source), **record}


def select(all_mutants: tuple[Mutant, ...], limit: int | None, sample: int | None,
           seed: int) -> list[Mutant]:
    """The mutants of this run: all, a seeded random sample, and/or the first ``limit``."""
    chosen = list(all_mutants)
    if sample is not None:
        chosen = sorted(random.Random(seed).sample(chosen, min(sample, len(chosen))),
                        key=lambda m: m.index)
    return chosen[:limit] if limit is not None else chosen


def _load(results: Path) -> dict[str, dict]:
    if not results.exists():
        return {}
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    return {f"{r['key']}@{r['sha']}": r for r in records}


def run(a: Assignment, chosen: list[Mutant], results: Path, jobs: int, timeout: float,
        resume: bool, baseline: bool = True) -> tuple[dict | None, list[dict]]:
    """Grade the reference and ``chosen`` (minus those in ``results`` when resuming).

    The reference is graded alongside the first mutants; if it misses full marks, the
    run stops: a mutation score against a suite that fails the reference means nothing.
    """
    results.parent.mkdir(parents=True, exist_ok=True)
    done = _load(results) if resume else {}
    if not resume:
        results.write_text("")
    todo = [m for m in chosen if f"{m.key}@{_sha(m.source)}" not in done]
    records = [done[f"{m.key}@{_sha(m.source)}"] for m in chosen if m not in todo]
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp, \
            ThreadPoolExecutor(max_workers=jobs) as pool:
        base = baseline and pool.submit(grade_source, a, original_source(a), "reference",
                                        Path(tmp), timeout)
        futures = [pool.submit(grade_mutant, a, m, Path(tmp), timeout) for m in todo]
        reference = base.result() if base else None
        if reference and (reference["killed"] or reference["grader_error"]):
            pool.shutdown(cancel_futures=True)
            raise SystemExit(f"the unmutated reference does not get full marks: {reference}")
        for n, future in enumerate(as_completed(futures), start=1):
            record = future.result()
            with results.open("a") as out:
                out.write(json.dumps(record) + "\n")
            records.append(record)
            verdict = "killed" if record["killed"] else "SURVIVED"
            print(f"[{n}/{len(todo)}] {verdict:8} {record['seconds']:6.1f}s {record['key']}",
                  file=sys.stderr, flush=True)
    return reference, sorted(records, key=lambda r: r["index"])


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def rematch(results: Path, all_mutants: tuple[Mutant, ...]) -> list[dict]:
    """Stored results of the current mutants (matched by source), under their current names."""
    by_sha = {_sha(m.source): m for m in all_mutants}
    records = []
    for record in _load(results).values():
        m = by_sha.get(record["sha"])
        if m is not None:
            records.append({**record, "index": m.index, "key": m.key, "line": m.line,
                            "operator": m.operator, "part": m.part})
    return sorted(records, key=lambda r: r["index"])


def report(a: Assignment, records: list[dict], total: int, meta: dict) -> str:
    """MUTATION.md: score, breakdowns, every survivor with its review, every kill."""
    EQUIVALENT, UNSPECIFIED, NEEDS_TEST = reviews(a)  # noqa: N806 - the tables' names
    killed = [r for r in records if r["killed"]]
    errors = [r for r in records if r.get("grader_error")]
    survived = [r for r in records if not r["killed"] and r not in errors]
    equivalent = [r for r in survived if r["key"] in EQUIVALENT]
    unspecified = [r for r in survived if r["key"] in UNSPECIFIED]
    gaps = [r for r in survived if r["key"] in NEEDS_TEST]
    reviewed = equivalent + unspecified + gaps
    unreviewed = [r for r in survived if r not in reviewed]
    n = len(records) - len(errors)
    score = 100 * len(killed) / n if n else 0.0
    gradable = n - len(equivalent) - len(unspecified)
    adjusted = 100 * len(killed) / gradable if gradable else 0.0
    scope = ("all mutants" if len(records) == total
             else f"PARTIAL RUN: {len(records)} of {total} mutants")
    baseline, seconds = meta["baseline"], meta["seconds"]
    base = (f"{baseline['score']:g}/{baseline['max_score']:g} in {baseline['seconds']:.0f} s"
            if baseline else "not graded (--no-baseline)")
    lines = [
        f"# Mutation testing of the hidden suite: {a.name}",
        "",
        "Generated by `make mutation` (`python -m autograder.validity.mutation`); do not edit.",
        "Engine: the AST mutator in `autograder/validity/mutants.py` (an equivalent of mutmut's",
        "operators: one change per mutant, applied to the flattened reference used as a student",
        "`.py` submission; the oracle `solutions/` is not mutated). Each mutant is graded by",
        "`grade_file`; *killed* = below full marks. Reviews of survivors: `survivors.py`",
        f"in `autograder/hidden/{a.name}/`.",
        "",
        f"- Suite measured: `{meta['commit']}`; {scope}; wall time {seconds / 60:.1f} min "
        f"({meta['jobs']} graders in parallel); unmutated reference: {base}."
        + (f" Measured {meta['measured']}." if "measured" in meta else ""),
        f"- **Killed {len(killed)} / {n} = {score:.1f}%**; survived {len(survived)}: "
        f"{len(equivalent)} equivalent, {len(unspecified)} differ only where the spec is "
        f"silent, {len(gaps)} need a new hidden test, {len(unreviewed)} unreviewed.",
        f"- Killed among mutants the spec can tell apart (equivalent and unspecified ones "
        f"left out): {len(killed)} / {gradable} = {adjusted:.1f}%.",
        f"- Grader errors (twice; left out of every count above): {len(errors)}"
        + (": " + ", ".join(f"#{r['index']} ({r['error']})" for r in errors) if errors else "."),
        "",
        "## By part",
        "",
        "| Part | Mutants | Killed | Survived |",
        "|---|---:|---:|---:|",
    ]
    scored = [r for r in records if r not in errors]
    by_part: dict[str, Counter] = defaultdict(Counter)
    for r in scored:
        by_part[str(r["part"] or "shared")][r["killed"]] += 1
    for part in sorted(by_part):
        c = by_part[part]
        lines.append(f"| {part} | {c[True] + c[False]} | {c[True]} | {c[False]} |")
    lines += ["", "## By operator", "", "| Operator | Mutants | Killed |", "|---|---:|---:|"]
    by_op: dict[str, Counter] = defaultdict(Counter)
    for r in scored:
        by_op[r["operator"]][r["killed"]] += 1
    for op, c in sorted(by_op.items(), key=lambda kv: -sum(kv[1].values())):
        lines.append(f"| {op} | {c[True] + c[False]} | {c[True]} |")
    lines += ["", "## Survivors", "", "| # | Line | Mutant | Verdict | Reason or test needed |",
              "|---:|---:|---|---|---|"]
    for r in survived:
        verdict, why = (("equivalent", EQUIVALENT[r["key"]]) if r in equivalent
                        else ("unspecified", UNSPECIFIED[r["key"]]) if r in unspecified
                        else ("NEEDS TEST", NEEDS_TEST[r["key"]]) if r in gaps
                        else ("UNREVIEWED", ""))
        lines.append(f"| {r['index']} | {r['line']} | {_md(r['key'])} | {verdict} | {_md(why)} |")
    lines += ["", "## Killed", "", "Part(s) that lost points and the first failing test.", "",
              "<details><summary>All killed mutants</summary>", "",
              "| # | Mutant | Lost (part: points) | First failing test |", "|---:|---|---|---|"]
    for r in killed:
        lost = ", ".join(f"{p}: {v:g}" for p, v in sorted(r["lost_parts"].items()))
        first = r["failed"][0] if r["failed"] else (r["error"] or "")
        note = " (timing only, failed twice)" if r.get("regraded") else ""
        lines.append(f"| {r['index']} | {_md(r['key'])} | {lost or r['status']} | "
                     f"{_md(first)}{note} |")
    lines += ["", "</details>", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="grade only the first N selected mutants")
    parser.add_argument("--sample", type=int, help="grade a random sample of N mutants")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded in parallel")
    parser.add_argument("--timeout", type=float, default=300.0, help="per submission, seconds")
    parser.add_argument("--resume", action="store_true", help="skip mutants in --results")
    parser.add_argument("--no-baseline", action="store_true",
                        help="do not grade the reference first (smoke tests only)")
    parser.add_argument("--assignment", required=True, choices=known())
    parser.add_argument("--results", type=Path,
                        help="JSON lines, appended (default: out/mutation/NAME/results.jsonl)")
    parser.add_argument("--report", type=Path, help="default: MUTATION.md in the assignment's "
                        "folder for a full run, MUTATION-partial.md beside --results otherwise")
    parser.add_argument("--report-only", action="store_true",
                        help="grade nothing: rewrite the report from --results (after a review)")
    args = parser.parse_args(argv)
    a = load(args.assignment)
    args.results = args.results or REPO / "out" / "mutation" / a.name / "results.jsonl"
    all_mutants = mutants(a)
    meta_path = args.results.with_suffix(".meta.json")
    if args.report_only:
        records, meta = rematch(args.results, all_mutants), json.loads(meta_path.read_text())
    else:
        chosen = select(all_mutants, args.limit, args.sample, args.seed)
        started, version = time.monotonic(), suite_version(a)
        baseline, records = run(a, chosen, args.results, args.jobs, args.timeout, args.resume,
                                not args.no_baseline)
        after = suite_version(a)
        meta = {"seconds": time.monotonic() - started, "baseline": baseline, "jobs": args.jobs,
                "measured": measured_on(),
                "commit": version if same_suite(version, after) else
                f"{version}, THE SUITE CHANGED DURING THE RUN (now {after})"}
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
    full = len(records) == len(all_mutants)
    partial = args.results.parent / "MUTATION-partial.md"
    path = args.report or (a.folder / "MUTATION.md" if full else partial)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report(a, records, len(all_mutants), meta), encoding="utf-8")
    killed = sum(r["killed"] for r in records)
    print(f"killed {killed}/{len(records)} ({100 * killed / max(len(records), 1):.1f}%) "
          f"in {meta['seconds'] / 60:.1f} min; report: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
