"""``make bench-compare A=NAME AGAINST=DIR``: is this checkout's grading slower than another's?

    .venv/bin/python -m autograder.bench_compare --assignment NAME --against DIR [--rounds 4]

An issue that asks for "no slowdown over 10 %" cannot be answered by two runs of
``make bench`` taken minutes apart: on a shared two-core machine the same fixed
pure-Python loop took 0.23 s in one minute and 0.39 s in another, with nothing else
running (the loop below, at its size, has shown 0.16 to 0.28 s). So
this tool grades the same sample notebooks (``bench.sample_notebooks``) with both
checkouts, in fresh processes, in turns (A B, then B A, ...), so that a drift of the
machine falls on both sides alike, and compares each round's pair.

``DIR`` is another checkout of this repository (``git worktree add DIR REV``), graded
with its own ``.venv`` when it has one. Only our grader is timed (``bench.time_ours``);
nbgrader is left out. A round's figures: wall and CPU seconds per submission, and the
seconds of a fixed loop timed before and after (the machine's speed at that moment).
The verdict compares the mean of the pairs' ratios with ``--bound`` (1.10). The exit
code is 0 either way: the numbers are for a human, as every benchmark here.
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from .bench import ROOT

# Run inside each checkout (its own ``autograder``): grade each sample notebook ``copies`` times.
ONE_SIDE = """
import json, sys, time
import autograder
from autograder.assignment import load
from autograder.bench import sample_notebooks, time_ours

def loop_seconds():
    started, x = time.process_time(), 0
    for i in range(2_000_000):
        x += i * i % 7
    return time.process_time() - started

before = loop_seconds()
a = load(sys.argv[1])
notebooks = sample_notebooks(a, int(sys.argv[2]))
seconds, cpu, _ = time_ours(a, notebooks)
print(json.dumps({"wall": sum(seconds) / len(seconds), "cpu": cpu / len(seconds),
                  "loop": [before, loop_seconds()], "engine": autograder.__file__}))
"""


def grade_with(checkout: Path, assignment: str, copies: int) -> dict:
    """One side's round, in a fresh process started in ``checkout``."""
    venv = checkout / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    done = subprocess.run([python, "-c", ONE_SIDE, assignment, str(copies)], cwd=checkout,
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"grading in {checkout} failed:\n{done.stderr[-2000:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(got["engine"]).resolve().is_relative_to(checkout.resolve()):
        raise SystemExit(f"{checkout} graded with the engine in {got['engine']}")
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.bench_compare",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", required=True)
    parser.add_argument("--against", required=True, type=Path,
                        help="the other checkout (the baseline)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--copies", type=int, default=2,
                        help="times each sample notebook is graded per side and round")
    parser.add_argument("--bound", type=float, default=1.10)
    args = parser.parse_args(argv)
    sides = {"baseline": args.against.resolve(), "this": ROOT}

    ratios = []
    print(f"{'round':<7}{'side':<10}{'wall s/sub':>11}{'CPU s/sub':>11}{'loop s':>14}")
    for n in range(args.rounds):
        order = list(sides) if n % 2 == 0 else list(reversed(sides))  # A B, B A, ...
        got = {}
        for side in order:
            got[side] = grade_with(sides[side], args.assignment, args.copies)
            loop = "/".join(f"{s:.2f}" for s in got[side]["loop"])
            print(f"{n + 1:<7}{side:<10}{got[side]['wall']:>11.2f}{got[side]['cpu']:>11.2f}"
                  f"{loop:>14}", flush=True)
        ratios.append(got["this"]["wall"] / got["baseline"]["wall"])

    mean = statistics.mean(ratios)
    print(f"\nthis / baseline, wall per submission, per round: "
          f"{', '.join(f'{r:.2f}' for r in ratios)}")
    print(f"mean {mean:.3f} ({(mean - 1) * 100:+.1f} %); bound {args.bound:.2f}: "
          f"{'within' if mean <= args.bound else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
