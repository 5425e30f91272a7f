"""The benchmark's table: speed, CPU, memory, and what happened to each kind of submission.

Targets (the run exits 1 when one is missed): at least ``TARGET_PER_MINUTE`` submissions
per minute, no correct submission losing a point, every hostile one graded without
stopping the batch, every submission in ``grades.csv``, memory that does not grow over the
run (``flat_memory``), and the same grader sources at the end as at the start (scoring
processes import the suite from this tree, so a commit landing mid-run would mix two
graders).
"""

import os
import statistics

from autograder.assignment import Assignment
from autograder.suite.timers import is_timing_test

from .make import HOSTILE, MIX
from .measure import Run
from .outcomes import Outcome

TARGET_PER_MINUTE = 200 / 8  # a class of 200 graded in 8 minutes with --jobs 2 on 2 cores
# The second half of the run may hold this much more than the first (median of the summed
# RSS), as a factor and in bytes: one memory hog more in flight, not a leak.
GROWTH, GROWTH_BYTES = 1.25, 64 * 2**20


def flat_memory(run: Run) -> bool:
    """True when the run's second half used no more memory than the first, give or take
    (``GROWTH``): what the grader holds does not grow with the number graded."""
    (_, first), (_, second) = run.sampler.halves()
    return second <= first * GROWTH + GROWTH_BYTES


def _seconds(outcomes: list[Outcome]) -> str:
    times = [o.seconds for o in outcomes]
    if not times:
        return "-"
    return f"median {statistics.median(times):.1f} s, max {max(times):.1f} s"


def _clock(seconds: float) -> str:
    return f"{int(seconds // 60)}m {seconds % 60:04.1f}s"


def report(assignment: Assignment, outcomes: list[Outcome], run: Run, jobs: int,
           loads: tuple[tuple[float, ...], tuple[float, ...]], grader: tuple[str, bool]) -> bool:
    """Print the table; True when every target is met."""
    count, wall, sampler = len(outcomes), run.wall, run.sampler
    cores = min(jobs, os.cpu_count() or 1)
    by_cat = {cat: [o for o in outcomes if o.sub.category == cat] for cat in MIX}
    per_minute = count / (wall / 60)
    target_wall = count / TARGET_PER_MINUTE * 60
    false = [o for o in by_cat["correct"] if o.lost]
    hostile = [o for cat in HOSTILE for o in by_cat[cat]]
    handled = [o for o in hostile if o.in_csv and o.lost]
    missing = [o for o in outcomes if not o.in_csv]
    caught = [o for o in by_cat["wrong"] if o.lost]
    stub_scores = sorted({o.score for o in by_cat["stub"]})
    checks = {
        "wall": wall <= target_wall,
        "false": not false,
        "hostile": len(handled) == len(hostile),
        "complete": run.code == 0 and not missing,
        "same grader": grader[1],
        "memory": flat_memory(run),
    }
    timing = sorted({t for o in false for t in o.failed if is_timing_test(assignment, t)})
    halves = run.sampler.halves()

    def mark(ok: bool) -> str:
        return "met" if ok else "NOT met"

    load_during = (f"mean {statistics.fmean(sampler.loads):.1f}, max {max(sampler.loads):.1f}"
                   if sampler.loads else "-")
    rows = [
        ("assignment", assignment.name, ""),
        ("submissions", f"{count} ({', '.join(f'{len(v)} {k}' for k, v in by_cat.items())})",
         ""),
        ("jobs / cores", f"{jobs} / {os.cpu_count()}", ""),
        ("load average 1/5/15 min, start", " / ".join(f"{x:.1f}" for x in loads[0]), ""),
        ("load average 1/5/15 min, end", " / ".join(f"{x:.1f}" for x in loads[1]), ""),
        ("load average 1 min, during", load_during, ""),
        ("CLI exit code, rows in grades.csv", f"{run.code}, {count - len(missing)} / {count}",
         mark(checks["complete"])),
        ("wall time", f"{_clock(wall)} ({wall:.0f} s)",
         f"<= {_clock(target_wall)}: {mark(checks['wall'])}"),
        ("submissions per minute", f"{per_minute:.1f}",
         f">= {TARGET_PER_MINUTE:g}: {mark(checks['wall'])}"),
        ("of which grading / the rest", "-" if run.grading is None else
         f"{run.grading:.0f} s / {wall - run.grading:.0f} s (start-up, reports, plots)", ""),
        ("CPU time, CLI + descendants",
         f"{run.cpu:.0f} s ({run.cpu / count:.1f} s per submission)",
         f"/ {cores} cores = {_clock(run.cpu / cores)} if nothing else ran"),
        ("peak RSS, CLI + descendants", f"{sampler.peak / 2**20:.0f} MiB "
         f"({sampler.samples} samples)", f"grading then: {', '.join(sampler.peak_students)}"),
        ("median RSS over the run", f"{statistics.median(sampler.totals or [0]) / 2**20:.0f} MiB",
         ""),
        ("RSS peak / median, 1st half", " / ".join(f"{x / 2**20:.0f}" for x in halves[0])
         + " MiB", ""),
        ("RSS peak / median, 2nd half", " / ".join(f"{x / 2**20:.0f}" for x in halves[1])
         + " MiB", f"median <= {GROWTH:g}x the 1st half's + {GROWTH_BYTES >> 20} MiB: "
         f"{mark(checks['memory'])}"),
        ("grader (git)", grader[0], "" if grader[1] else
         "CHANGED DURING THE RUN: the numbers mix two graders"),
        ("correct: false failures", f"{len(false)} / {len(by_cat['correct'])}"
         f" ({len(timing)} timing tests among them)",
         f"0: {mark(checks['false'])}"),
        ("hanging + crashing handled", f"{len(handled)} / {len(hostile)}",
         f"all: {mark(checks['hostile'])}"),
        ("wrong: lost points", f"{len(caught)} / {len(by_cat['wrong'])}", "(not a target)"),
        ("stub scores", ", ".join(f"{s:g}" for s in stub_scores) or "-", "(expect 0)"),
    ]
    rows += [(f"seconds per submission, {cat}", _seconds(by_cat[cat]), "") for cat in MIX]
    width = max(len(r[0]) for r in rows) + 2
    value_width = max(len(r[1]) for r in rows) + 2
    print()
    for name, value, target in rows:
        print(f"{name:<{width}}{value:<{value_width}}{target}".rstrip())

    for title, group in (("hanging and crashing", hostile), ("wrong", by_cat["wrong"])):
        print(f"\n{title} submissions by variant: count, seconds, outcomes")
        for variant in sorted({o.sub.variant for o in group}):
            some = [o for o in group if o.sub.variant == variant]
            results = sorted({f"{o.status} {o.score:g}" if o.status == "graded"
                              else f"{o.status}: {o.error[:50]}" for o in some})
            print(f"  {variant:<24}{len(some):>3} x  {_seconds(some):<28}{', '.join(results)}")
    if false:
        print("\nFALSE FAILURES (correct submissions that lost points):")
        for o in false:
            shown = ", ".join(o.failed[:5]) + (f" and {len(o.failed) - 5} more"
                                               if len(o.failed) > 5 else "")
            print(f"  {o.sub.student} ({o.sub.variant}): {o.score:g}/{o.max_score:g}, "
                  f"{len(o.failed)} failed: {shown}; first message: {o.message!r}")
        print(f"  timing tests among them: {', '.join(timing) or 'none'}")
    not_caught = [o for o in by_cat["wrong"] if not o.lost]
    if not_caught:
        print("\nwrong submissions that scored full marks (a gap in the suite, not the batch):")
        for o in not_caught:
            print(f"  {o.sub.student}: {o.sub.what}")
    for o in [o for o in hostile if o not in handled] + missing:
        print(f"NOT HANDLED: {o.sub.student} ({o.sub.variant}): in grades.csv {o.in_csv}, "
              f"{o.status} {o.score:g}/{o.max_score:g}")
    ok = all(checks.values())
    print(f"\ntargets (>= {TARGET_PER_MINUTE:g} submissions per minute, no false failure, "
          f"every hostile submission handled, every row written, memory flat over the run, "
          f"one grader throughout): {mark(ok)}")
    return ok


