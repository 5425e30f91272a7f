"""Record what correct code costs per test: ``CALL_COSTS.json``, the CPU budgets' basis.

What it measures: the assignment's reference, its timing variants (``timing_variants.py``:
correct but slow code, and honest variants with another part wrong, which only make the
costs larger), its bench sample of correct work, and any ``--also`` files (``make
call-costs`` adds the catalogue's correct submissions) are each graded ``--runs`` times,
with ``--load`` busy loops on the machine. The reference, the sample and the ``--also``
files must score full marks (else the tool stops: a correct request that timed out would
be missing from the costs).
Each scoring process reports the most CPU a single ordinary request of each test used
(``suite/budget.py``: the worker's process tree, plus the scorer's work for it). The
file keeps the largest over every grading, per test.

A test that no correct submission calls (every request made inside a timing block) is
not listed, and keeps ``CALL_TIMEOUT``. The budgets only read the file: rerun this after
a change to the hidden tests or the reference, and commit the file with them. The file
names the suite it measured (``suite_version``: the commit and the fingerprint of what
decides scores, which includes the costs file itself as it was before the run).

Reproduce::

    make call-costs A=NAME
    .venv/bin/python -m autograder.validity.call_costs --assignment NAME --runs 1 \\
        --output /tmp/costs.json
"""

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

from ..assignment import Assignment, known, load
from ..suite.budget import COSTS_FILE, FACTOR, FLOOR, RECORD_ENV
from ..suite.student import CALL_TIMEOUT
from .common import suite_version
from .timing_stability import cpu_load, submission, variants


def _correct_work(a: Assignment, also: list[Path], folder: Path) -> tuple[dict[str, Path],
                                                                          set[str]]:
    """Every submission to grade, by name, written into ``folder`` where needed, and the
    names of those that must score full marks (not the honest variants with a part wrong)."""
    paths: dict[str, Path] = {}
    if a.module("timing_variants") is not None:
        for i, (name, (override, _)) in enumerate(variants(a).items()):
            paths[name] = folder / f"variant{i}.py"
            paths[name].write_text(submission(a, override), encoding="utf-8")
    else:
        paths["reference"] = folder / "reference.py"
        paths["reference"].write_text(submission(a, ""), encoding="utf-8")
    sample = getattr(a.module("bench_submissions"), "CORRECT_SAMPLE", None)
    if sample is not None:
        from ..bench_batch.make import sample_file

        paths["bench sample"] = sample_file(a, sample)
    paths.update({f"also: {path.name}": path for path in also})
    full = {"reference", "bench sample", *(f"also: {path.name}" for path in also)}
    return paths, full & set(paths)


def measure(a: Assignment, paths: dict[str, Path], correct: set[str], runs: int,
            load: int) -> dict[str, float]:
    """``{test id: the most CPU seconds of one request}`` over every grading (``correct``:
    the names that must score full marks)."""
    os.environ[RECORD_ENV] = record = tempfile.mkdtemp(prefix="call-costs-")
    from ..suite.run import grade_file  # its zygote starts with the variable set

    most: dict[str, float] = {}
    started = time.monotonic()
    with cpu_load(load):
        for run in range(1, runs + 1):
            for name, path in paths.items():
                result = grade_file(path, f"costs-{run}", assignment=a, timeout=600.0)
                lost = result["max_score"] - result["score"]
                if result["status"] != "graded":
                    raise SystemExit(f"{name} was not graded ({result.get('error')})")
                if lost and name in correct:
                    raise SystemExit(f"{name} lost {lost} points: fix the suite first")
                for file in Path(record).glob("costs-*.json"):
                    for test, seconds in json.loads(file.read_text(encoding="utf-8")).items():
                        most[test] = max(seconds, most.get(test, 0.0))
                    file.unlink()
            print(f"run {run}/{runs} done after {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
    os.rmdir(record)
    return most


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", required=True,
                        help=f"one of {', '.join(known())}, or an assignment's folder")
    parser.add_argument("--runs", type=int, default=2, help="gradings of each submission")
    parser.add_argument("--load", type=int, default=0, help="busy-loop processes")
    parser.add_argument("--also", type=Path, nargs="*", default=[],
                        help="more correct submissions (.py or .ipynb)")
    parser.add_argument("--output", type=Path, help=f"default: {COSTS_FILE} in the folder")
    args = parser.parse_args(argv)
    a = load(args.assignment)
    output = args.output or a.folder / COSTS_FILE
    with tempfile.TemporaryDirectory(prefix="call-costs-") as tmp:
        paths, correct = _correct_work(a, args.also, Path(tmp))
        most = measure(a, paths, correct, args.runs, args.load)
    document = {
        "about": "Generated by `make call-costs` (autograder/validity/call_costs.py), do not "
                 "edit: per test, the most CPU seconds one request took in the gradings of "
                 "the correct work below. Budgets: suite/budget.py.",
        "suite": suite_version(a),
        "graded": sorted(paths),
        "runs": args.runs,
        "load": args.load,
        # Rounded up to a tenth of a millisecond: a request that took under that (a worker
        # read within microseconds) is not written down as costing nothing.
        "costs": {test: math.ceil(most[test] * 1e4) / 1e4 for test in sorted(most)},
    }
    if not most:
        raise SystemExit("no request was recorded: is the suite's fixture `recording` in use?")
    output.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    budgets = sorted(min(CALL_TIMEOUT, max(FLOOR, FACTOR * s)) for s in most.values())
    over = [t for t, s in most.items() if FACTOR * s > FLOOR]
    print(f"{len(most)} tests recorded in {output}; budgets {budgets[0]:.2g} to "
          f"{budgets[-1]:.2g} s; {len(over)} above the floor: {', '.join(sorted(over))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
