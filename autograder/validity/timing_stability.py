"""Are the timing tests stable under load, and do they catch quadratic code?

What it measures: the reference and deliberately slow variants of it are graded with
``grade_file`` ``--runs`` times each, round-robin, while ``--load`` busy-loop processes
(``python -c "while True: pass"``) keep the CPU busy. For every timing test it counts
*false failures* on the correct reference (target 0 of N) and *catches* of the variant
the test is meant to catch (target N of N), plus wall time. The busy loops are always
killed at the end, on error too.

The variants are the assignment's own: ``VARIANTS`` in its folder's
``timing_variants.py`` (name -> override appended to the flattened reference, and the
pattern of the timing tests meant to catch it). ``--also`` adds whole correct
submissions, honest like the reference: ``make timing-stability`` passes the
catalogue's (``tests.catalogue.write_correct``), so a correct design that a threshold
cuts through (a sorted list that measured 1.8x to 4.4x against a threshold of 4) shows
as a false failure here, not in a student's regrade. ``--wrong`` adds whole wrong
submissions that only a timing test catches, each named ``pN_...`` for its part: the
catalogue's timed entries (``--timed``). Each must be caught by some timing test of its
part in every run (which one is the suite's business: one slow design fails one test),
so an entry that sits just under a threshold (``ids = ids + ...`` measured 4.4x against
4) shows here too. The report goes to its folder's ``TIMING.md``.

Reproduce::

    make timing-stability A=NAME                                    # 30 runs, writes TIMING.md
    .venv/bin/python -m autograder.validity.timing_stability --assignment NAME --runs 3 \
        --report /tmp/t.md
"""

import argparse
import contextlib
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from ..assignment import Assignment, known, load
from ..sandbox import limits
from ..suite.timers import is_timing_test
from .common import measured_on, same_suite, suite_version

# A failing timing test states its ratio: "took 9.5x as long", or "took over 8x" when the
# slow run was stopped (recorded as inf, shown as "stopped").
RATIO = re.compile(r"took (over )?([\d.]+)x")
# The outcome key that counts, per run of a ``--wrong`` file, whether a timing test of its
# part failed (True) or none did (False).
CAUGHT = "<caught in its part>"


def variants(a: Assignment, also: list[Path] | tuple[Path, ...] = ()
             ) -> dict[str, tuple[str | Path, re.Pattern | None]]:
    """The reference, the assignment's slow variants (``timing_variants.VARIANTS``) and
    the honest submissions ``also`` (by file name)."""
    module = a.module("timing_variants")
    if module is None:
        raise SystemExit(f"{a.name} has no timing_variants.py in {a.folder}")
    return {"reference": ("", None), **module.VARIANTS,
            **{f"correct: {path.name}": (path, None) for path in also}}


def part_of(path: Path) -> int:
    """The part a ``--wrong`` file is meant to lose points in, from its name: ``pN_...``."""
    found = re.match(r"p(\d+)_", path.name)
    if not found:
        raise SystemExit(f"{path.name}: a --wrong file is named pN_... for its part N")
    return int(found.group(1))


def submission(a: Assignment, override: str) -> str:
    """The flattened reference with ``override`` appended (later definitions win)."""
    from ..sandbox.reference import reference_without

    return f"{reference_without(a, 0)[0]}\n\n# --- timing variant ---\n{override.strip()}\n"


@contextlib.contextmanager
def cpu_load(processes: int):
    """Run ``processes`` busy loops for the duration; always kill them (ours, by pid)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(processes)]
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        signal.signal(signal.SIGTERM, previous)


def measure(a: Assignment, runs: int, load: int, timeout: float,
            also: list[Path] | tuple[Path, ...] = (), wrong: list[Path] | tuple[Path, ...] = (),
            cpus: list[int] | None = None) -> tuple[dict, dict, dict, float]:
    """Outcomes ``{variant: {test: Counter}}``, ratios of failures, grade seconds, wall
    (``wrong`` files are variants named ``wrong: <file name>``; ``cpus``: each grading
    kept to these, as a batch keeps its gradings, the busy loops free to run anywhere)."""
    from ..suite.run import grade_file

    outcomes: dict = defaultdict(lambda: defaultdict(Counter))
    ratios: dict = defaultdict(lambda: defaultdict(list))
    seconds: dict = defaultdict(list)
    started = time.monotonic()
    parts = {f"wrong: {path.name}": part_of(path) for path in wrong}
    graded = {**variants(a, also), **{f"wrong: {path.name}": (path, None) for path in wrong}}
    with tempfile.TemporaryDirectory(prefix="timing-") as tmp, cpu_load(load):
        paths = {}
        for i, (name, (override, _)) in enumerate(graded.items()):
            if isinstance(override, Path):  # a whole submission, .py or .ipynb
                paths[name] = Path(tmp) / f"variant{i}{override.suffix}"
                paths[name].write_bytes(override.read_bytes())
                continue
            paths[name] = Path(tmp) / f"variant{i}.py"
            paths[name].write_text(submission(a, override), encoding="utf-8")
        for run in range(1, runs + 1):
            for name, path in paths.items():
                result = grade_file(path, f"timing-{run}", assignment=a, timeout=timeout,
                                    cpus=cpus)
                seconds[name].append(result["seconds"])
                if result["status"] != "graded":
                    outcomes[name]["<grading error>"]["failed"] += 1
                caught = False
                for test in result["tests"]:
                    if is_timing_test(a, test["id"]):
                        outcomes[name][test["id"]][test["status"]] += 1
                        found = RATIO.search(test["output"])
                        if test["status"] == "failed" and found:
                            value = math.inf if found.group(1) else float(found.group(2))
                            ratios[name][test["id"]].append(value)
                        caught |= test["status"] == "failed" and name in parts \
                            and test["id"].startswith(f"part{parts[name]}::")
                outcomes[name][CAUGHT][caught] += 1
            print(f"run {run}/{runs} done after {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return outcomes, ratios, seconds, time.monotonic() - started


def _spread(values: list[float]) -> str:
    """``min / median / max`` of the ratios a failing test reported."""
    if not values:
        return ""
    v = ["stopped" if x == math.inf else f"{x:.1f}" for x in sorted(values)]
    return f"{v[0]} / {v[len(v) // 2]} / {v[-1]}"


def _wrong_rows(outcomes: dict, ratios: dict, runs: int,
                wrong: list[Path] | tuple[Path, ...]) -> list[str]:
    """The table of ``--wrong`` submissions: runs caught by a timing test of their part."""
    lines = ["", "Wrong submissions only a timing test catches (`--wrong`): runs in which some",
             "timing test of their part failed (target: every run), and which tests did:", "",
             "| Submission | Part | Caught | Timing tests that failed (runs) | Ratios | Verdict |",
             "|---|---:|---:|---|---|---|"]
    for path in wrong:
        name, part = f"wrong: {path.name}", part_of(path)
        mine = {t: c for t, c in outcomes[name].items() if t.startswith(f"part{part}::")}
        caught = outcomes[name][CAUGHT][True]  # runs in which any of them failed
        by_test = ", ".join(f"`{t}` {c['failed']}" for t, c in sorted(mine.items()) if c["failed"])
        spread = "; ".join(f"{t.split('::')[-1]}: {_spread(ratios[name][t])}"
                           for t in sorted(mine) if ratios[name][t])
        lines.append(f"| {path.name} | {part} | {caught} / {runs} | {by_test or 'none'} | "
                     f"{spread} | {'ok' if caught == runs else 'MISSES TARGET'} |")
    return lines


def report(a: Assignment, outcomes: dict, ratios: dict, seconds: dict, wall: float, runs: int,
           load: int, versions: tuple[str, str],
           also: list[Path] | tuple[Path, ...] = (), wrong: list[Path] | tuple[Path, ...] = (),
           cpus: list[int] | None = None) -> str:
    """TIMING.md: per timing test, false failures on the reference and catches of variants."""
    slow = variants(a, also)
    tests = sorted({t for per in outcomes.values() for t in per if not t.startswith("<")})
    lines = [
        f"# Timing tests under load: {a.name}",
        "",
        "Generated by `make timing-stability` (`python -m autograder.validity.timing_stability`),",
        f"do not edit. {runs} gradings of each variant, round-robin, with {load} busy-loop",
        f"processes on the machine's CPUs the whole time; wall time {wall / 60:.1f} min."
        + (f" Each grading kept to CPU {', '.join(map(str, cpus))}, as a batch's are."
           if cpus else ""),
        f"Suite measured: `{versions[0]}`"
        + ("." if same_suite(*versions) else
           f" at the start, `{versions[1]}` at the end (THE SUITE CHANGED DURING THE RUN).")
        + f" Measured {measured_on()}.",
        "Targets: 0 false failures on the honest variants (the reference; the reference",
        "with another part wrong, graded with the grader's code for that part; the reference",
        "with another tie-break, which the correctness tests charge and the timing tests must",
        "not charge again; the correct submissions given with `--also`), every run of a slow",
        "variant caught by the timing test meant for it.",
        "",
        "Ratios are those the failing runs reported (min / median / max; *stopped*: the slow",
        "run was cut off); a passing run reports none. Thresholds are the hidden tests' own",
        f"(`autograder/hidden/{a.name}/`).",
        "",
        "| Timing test | False failures (honest) | Ratios | Variant it must catch | Caught "
        "| Ratios | Verdict |",
        "|---|---:|---|---|---:|---|---|",
    ]
    honest = [n for n, (_, p) in slow.items() if p is None]
    for test in tests:
        false = sum(outcomes[n][test]["failed"] for n in honest)
        ref_n = sum(sum(outcomes[n][test].values()) for n in honest)
        false_ratios = [r for n in honest for r in ratios[n][test]]
        targets = [n for n, (_, p) in slow.items() if p is not None and p.search(test)]
        for name in targets or ["(none)"]:
            got = outcomes[name][test] if targets else Counter()
            caught, n = got["failed"], sum(got.values())
            ok = false == 0 and (not targets or caught == n == runs)
            lines.append(f"| `{test}` | {false} / {ref_n} | {_spread(false_ratios)} "
                         f"| {name} | {caught} / {n} | {_spread(ratios[name][test])} | "
                         f"{'ok' if ok else 'MISSES TARGET'} |")
    lines += ["", "All timing-test failures per variant (failed / graded):", "",
              "| Variant | " + " | ".join(f"`{t}`" for t in tests) + " | Grade time (s, median) |",
              "|---|" + "---:|" * (len(tests) + 1)]
    for name in slow:
        cells = [f"{outcomes[name][t]['failed']}/{sum(outcomes[name][t].values())}"
                 for t in tests]
        times = sorted(seconds[name])
        median = times[len(times) // 2] if times else 0.0
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {median:.1f} |")
    if wrong:
        lines += _wrong_rows(outcomes, ratios, runs, wrong)
    errors = {n: outcomes[n]["<grading error>"]["failed"] for n in [*slow, *outcomes]}
    if any(errors.values()):
        lines += ["", f"Gradings that ended in an error: {errors}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="gradings of each variant")
    parser.add_argument("--load", type=int, default=2, help="busy-loop processes")
    parser.add_argument("--timeout", type=float, default=600.0, help="per grading, seconds")
    parser.add_argument("--assignment", required=True, choices=known())
    parser.add_argument("--report", type=Path, help="default: TIMING.md in the assignment's folder")
    parser.add_argument("--also", type=Path, nargs="*", default=[],
                        help="more correct submissions (.py or .ipynb), honest like the reference")
    parser.add_argument("--wrong", type=Path, nargs="*", default=[],
                        help="wrong submissions pN_*.py that a timing test of part N must catch")
    parser.add_argument("--cpus", type=int, nargs="*", default=None,
                        help="keep each grading to these CPUs (as a batch keeps its gradings)")
    args = parser.parse_args(argv)
    if args.cpus is not None and not (args.cpus and set(args.cpus) <= os.sched_getaffinity(0)
                                      and limits.can_keep_to_cpus()):
        parser.error(f"--cpus must name CPUs this process may use "
                     f"({sorted(os.sched_getaffinity(0))}), at a level whose workers cannot "
                     "leave them (not basic)")
    a = load(args.assignment)
    for path in args.wrong:
        part_of(path)  # a misnamed file stops the run before any grading
    before = suite_version(a)
    outcomes, ratios, seconds, wall = measure(a, args.runs, args.load, args.timeout, args.also,
                                              args.wrong, args.cpus)
    versions = (before, suite_version(a))
    text = report(a, outcomes, ratios, seconds, wall, args.runs, args.load, versions, args.also,
                  args.wrong, args.cpus)
    (args.report or a.folder / "TIMING.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
