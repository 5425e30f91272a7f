"""``make bench A=NAME``: seconds per submission, our hidden suite vs ``nbgrader autograde``.

    .venv/bin/python -m autograder.bench --assignment NAME [--copies N] [--keep]

Both graders get the same notebooks (the assignment's sample notebooks in
``samples/submitted/<student>/NAME/``,
each repeated ``--copies`` times under a new student ID) and grade them one after
another, in one run on one machine:

- ours: ``grade_file`` on each notebook (extract -> sandboxed workers -> hidden
  suite), timed per call;
- nbgrader: a temporary course folder with ``source/NAME`` (the
  instructor's notebook and its data), ``nbgrader generate_assignment`` (not
  timed), the notebooks copied into ``submitted/``, then ``nbgrader autograde``
  timed as a whole. It executes every cell of each notebook, as it does for a
  real class.

Prints wall and CPU seconds per submission (CPU time, summed over every process
each grader starts, barely changes when other jobs load the machine; the load
average is printed too) and the ratio; exits 1 if ours takes more than the assignment's
``BENCH_SECONDS`` (3 s unless its spec says) of wall time per submission, or is slower
than nbgrader.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .assignment import Assignment, known, load

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "submitted"

NBGRADER_CONFIG = """\
c = get_config()  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "bench"
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.ExecutePreprocessor.timeout = 300
"""


def cpu_seconds() -> float:
    """CPU time of this process and every finished process it started."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def sample_notebooks(a: Assignment, copies: int) -> list[tuple[str, Path]]:
    """(student_id, notebook) for every sample notebook of ``a`` that is valid JSON,
    ``copies`` times."""
    notebooks = []
    for path in sorted(SAMPLES.glob(f"*/{a.name}/*.ipynb")):
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue  # the broken sample: neither grader can grade it
        student = path.parents[1].name
        notebooks += [(f"{student}_{i}", path) for i in range(copies)]
    return notebooks


def time_ours(
    a: Assignment, notebooks: list[tuple[str, Path]],
) -> tuple[list[float], float, dict[str, float]]:
    """Wall seconds of each ``grade_file`` call, total CPU seconds, scores."""
    from .suite import zygote
    from .suite.run import grade_file

    seconds, scores = [], {}
    cpu = cpu_seconds()
    for student, path in notebooks:
        started = time.perf_counter()
        result = grade_file(path, student, assignment=a)
        seconds.append(time.perf_counter() - started)
        scores[student] = result["score"] if result["status"] == "graded" else float("nan")
    zygote.stop_all()  # its runs' CPU time is counted once it has been reaped
    return seconds, cpu_seconds() - cpu, scores


def _nbgrader(course: Path, *args: str) -> None:
    # nbgrader runs `alembic` from PATH: put this environment's scripts first.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, "--log-level=ERROR"],
        cwd=course, capture_output=True, text=True, env=env,
    )
    if proc.returncode != 0:
        raise SystemExit(f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")


def time_nbgrader(
    a: Assignment, notebooks: list[tuple[str, Path]], course: Path
) -> tuple[float, float, dict[str, float]]:
    """Wall and CPU seconds of one ``nbgrader autograde`` over all notebooks, scores."""
    source, name = ROOT / "source" / a.name, a.name
    (course / "nbgrader_config.py").write_text(NBGRADER_CONFIG.format(root=str(course)))
    shutil.copytree(source, course / "source" / name)
    _nbgrader(course, "generate_assignment", name, "--force")
    data = [p for p in source.iterdir() if p.suffix != ".ipynb"]
    for student, path in notebooks:
        folder = course / "submitted" / student / name
        folder.mkdir(parents=True)
        shutil.copy(path, folder / f"{name}.ipynb")
        for extra in data:  # the notebook reads its data files from its own folder
            if extra.is_dir():
                shutil.copytree(extra, folder / extra.name)
            else:
                shutil.copy(extra, folder / extra.name)
    started, cpu = time.perf_counter(), cpu_seconds()
    _nbgrader(course, "autograde", name, "--create", "--force")
    elapsed, cpu = time.perf_counter() - started, cpu_seconds() - cpu

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        scores = {
            student: gradebook.find_submission(name, student).score
            for student, _ in notebooks
        }
    return elapsed, cpu, scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=1,
                        help="times each sample notebook is graded (default: %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep the nbgrader course folder")
    parser.add_argument("--assignment", required=True, choices=known())
    args = parser.parse_args(argv)
    a = load(args.assignment)
    notebooks = sample_notebooks(a, max(1, args.copies))
    if not notebooks or not (ROOT / "source" / a.name / f"{a.name}.ipynb").is_file():
        raise SystemExit(f"needs source/{a.name}/{a.name}.ipynb and sample notebooks in "
                         f"samples/submitted/<student>/{a.name}/ (samples/make_samples.py)")
    names = sorted({p.parents[1].name for _, p in notebooks})
    print(f"Grading {len(notebooks)} notebooks ({', '.join(names)}; x{args.copies}) "
          "one at a time with each grader...", flush=True)

    load_before = os.getloadavg()[0]
    ours, ours_cpu, our_scores = time_ours(a, notebooks)
    course = Path(tempfile.mkdtemp(prefix="nbgrader-bench-"))
    try:
        theirs_total, theirs_cpu, their_scores = time_nbgrader(a, notebooks, course)
    finally:
        if args.keep:
            print(f"nbgrader course folder kept in {course}")
        else:
            shutil.rmtree(course, ignore_errors=True)

    n = len(notebooks)
    ours_mean, theirs_mean = sum(ours) / n, theirs_total / n
    ratio = ours_mean / theirs_mean
    print()
    print(f"{os.cpu_count()} cores; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    print(f"{'grader':<32}{'total s':>10}{'wall s / sub':>15}{'CPU s / sub':>14}")
    print(f"{'ours (grade_file, hidden suite)':<32}{sum(ours):>10.1f}{ours_mean:>15.2f}"
          f"{ours_cpu / n:>14.2f}")
    print(f"{'nbgrader autograde':<32}{theirs_total:>10.1f}{theirs_mean:>15.2f}"
          f"{theirs_cpu / n:>14.2f}")
    factor, word = (1 / ratio, "faster") if ratio < 1 else (ratio, "slower")
    print(f"ratio ours / nbgrader, wall: {ratio:.2f} ({factor:.1f}x {word}); "
          f"CPU: {ours_cpu / theirs_cpu:.2f}")
    print(f"ours per submission: median {statistics.median(ours):.2f} s, max {max(ours):.2f} s")
    print()
    print(f"{'student':<22}{'ours (hidden)':>14}{'nbgrader (visible)':>20}")
    for student, _ in notebooks:
        print(f"{student:<22}{our_scores[student]:>14.1f}{their_scores[student]:>20.1f}")
    ok = ours_mean <= a.bench_seconds and ratio <= 1.0
    print()
    print(f"target: <= {a.bench_seconds:g} s per submission and not slower than nbgrader: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
