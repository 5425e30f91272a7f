"""``make bench-batch``: a generated class graded by the real CLI, timed and measured.

(About 580 lines: one benchmark, from generating the class through measuring the run
to its report; its pieces are used nowhere else.)

    .venv/bin/python -m autograder.hidden.tokenization.bench_batch [--count 200] [--jobs 2]

Generates ``--count`` submissions into a temporary nbgrader ``submitted/`` tree, every
one distinct bytes (the grader caches results by content):

- 50% correct: half copies of the sample notebook ``samples/submitted/alice_correct``
  with a comment and a notes cell added, half the flattened reference as a ``.py`` with
  cosmetic changes only (a header comment, ``# %%`` cells, extra blank lines);
- 25% wrong: the reference with one plausible bug (``BUGS``, one part each);
- 10% stubs: the release notebook (``samples/submitted/carol_stub``), untouched but for
  a notes cell;
- 8% hanging: an endless loop in a graded call (``merge_pair``, ``train``), at load in a
  class body, or a long ``sleep`` in ``encode``;
- 7% crashing: ``os._exit`` inside a graded call, a constant whose value calls
  ``os._exit`` at load, a memory hog that runs into the worker's limit (MemoryError),
  a segmentation fault.

Then it runs ``python -m autograder grade TREE --out OUT --jobs N --force`` as a
subprocess (default per-submission timeout, 300 s) and reports wall time, submissions
per minute, the peak of the summed RSS of the CLI and all its descendants (scoring
processes, sandboxed workers; sampled from ``/proc`` every 0.2 s, so shared pages count
once per process), the load average at start and end, and, from ``grades.csv`` and each
``results.json``: correct submissions that lost any point (false failures, with the
tests that failed), hanging and crashing ones graded without stopping the batch and how
long they took, wrong ones that lost points, stubs' scores.

Exits 1 when a target is missed: the class graded at 25 submissions per minute or
better (200 in 8 minutes), no false failure among the correct submissions, every
submission in ``grades.csv``, every hostile one handled, and the same grader sources at
the end as at the start (scoring processes import the suite from this tree, so a commit
landing mid-run would mix two graders). Only our own generated code runs in this
process; hostile submissions are only written to disk.
"""

import argparse
import ast
import contextlib
import csv
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.assignment import load
from autograder.cache import grader_fingerprint
from autograder.sandbox import cleanup
from autograder.validity.common import is_timing_test, suite_version

ROOT = Path(__file__).resolve().parents[3]
ASSIGNMENT = "tokenization"
TOKENIZATION = load(ASSIGNMENT)
SAMPLES = ROOT / "samples" / "submitted"
CORRECT_SAMPLE = SAMPLES / "alice_correct" / ASSIGNMENT
STUB_SAMPLE = SAMPLES / "carol_stub" / ASSIGNMENT

# Share of each category in a generated class, in the order students are numbered.
MIX = {"correct": 0.50, "wrong": 0.25, "stub": 0.10, "hanging": 0.08, "crashing": 0.07}
HOSTILE = ("hanging", "crashing")
TARGET_PER_MINUTE = 200 / 8  # 200 submissions in 8 minutes
SAMPLE_SECONDS = 0.2
PAGE = os.sysconf("SC_PAGE_SIZE")

# (variant, part, what the student got wrong, exact text in the flattened reference, new)
BUGS: list[tuple[str, int, str, str, str]] = [
    ("p2_encode_keyerror", 2, "encode looks up unknown characters with [] (KeyError)",
     "return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
     "return [self.char_to_id[ch] for ch in text]"),
    ("p3_tie_break", 3, "ties go to the first pair counted, not the smallest",
     "best = min(counts, key=lambda pair: (-counts[pair], pair))",
     "best = max(counts, key=counts.get)"),
    ("p3_decode_keeps_eow", 3, "decode keeps the trailing end-of-word space",
     "return text.rstrip(' ')", "return text"),
    ("p3_encode_quadratic", 3, "encode concatenates lists (quadratic in the number of words)",
     "ids.extend(cache[word])", "ids = ids + cache[word]"),
    ("p4_count_pairs_once", 4, "count_pairs counts a repeated pair once per word",
     "for pair in zip(tokens, tokens[1:]):", "for pair in set(zip(tokens, tokens[1:])):"),
    ("p4_merge_overlap", 4, "merge_pair steps one token after a merge (overlapping merges)",
     "merged.append(first + second)\n            i += 2",
     "merged.append(first + second)\n            i += 1"),
    ("p4_split_on_space", 4, "word_frequencies splits on ' ' (counts empty words)",
     "for word in text.split()))", "for word in text.split(' ')))"),
    ("p5_truncate_off_by_one", 5, "tokenize_dataset keeps max_length - 1 tokens",
     "return [ids[:max_length] for ids in encoded]",
     "return [ids[:max_length - 1] for ids in encoded]"),
    ("p5_compression_inverted", 5, "compression_ratio is tokens per character",
     "'compression_ratio': characters / total if total else 0.0",
     "'compression_ratio': total / characters if characters else 0.0"),
    ("p6_q1_megabytes", 6, "Q1 in decimal megabytes instead of MiB",
     "Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / MIB, 2)",
     "Q1_EMBEDDING_MIB = round(30000 * 768 * 4 / 1000000, 2)"),
    ("p6_attention_linear", 6, "attention_scores doubles seq_len instead of squaring it",
     "return batch_size * seq_len ** 2", "return batch_size * seq_len * 2"),
]

# (variant, category, what it does, exact text in the flattened reference, new, marker)
# ``marker`` is text only the hostile version contains (the smoke test looks for it).
HOSTILE_EDITS: list[tuple[str, str, str, str, str, str]] = [
    ("merge_pair_stuck", "hanging",
     "merge_pair never advances past an unmerged first symbol (endless loop, Part 4)",
     "        else:\n            merged.append(tokens[i])\n            i += 1\n    return merged",
     "        elif tokens[i] != first:\n            merged.append(tokens[i])\n            i += 1\n"
     "    return merged",
     "elif tokens[i] != first:"),
    ("class_body_loop", "hanging", "an endless loop in the BPETokenizer class body (at load)",
     '    """Subword tokenizer learned by greedy pair merging."""\n',
     '    """Subword tokenizer learned by greedy pair merging."""\n    while True:\n'
     "        pass\n",
     "    while True:\n        pass\n"),
    ("train_no_break", "hanging",
     "train loops forever once no pair is left (continue for break, Part 3)",
     "if not counts:\n                break", "if not counts:\n                continue",
     "if not counts:\n                continue"),
    ("encode_sleep", "hanging", "CharTokenizer.encode sleeps for an hour (wall time, no CPU)",
     "        return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
     "        __import__('time').sleep(3600)\n"
     "        return [self.char_to_id.get(ch, self.unk_id) for ch in text]",
     "sleep(3600)"),
    ("exit_in_call", "crashing", "count_pairs calls os._exit (the worker dies, Part 4)",
     "    counts: Counter = Counter()\n",
     "    counts: Counter = Counter()\n    __import__('os')._exit(0)\n",
     "._exit(0)"),
    ("exit_at_load", "crashing", "a constant whose value calls os._exit (every part's load)",
     "UNK = '<UNK>'\n", "UNK = '<UNK>'\nCHECKPOINT = __import__('os')._exit(3)\n",
     "CHECKPOINT = __import__('os')._exit(3)"),
    ("memory_hog", "crashing",
     "train keeps 64 MiB blocks until the worker's memory limit (MemoryError, Part 3)",
     "        word_freq = word_frequencies(corpus)\n",
     "        hog = []\n        while True:\n            hog.append(b'x' * (64 << 20))\n"
     "        word_freq = word_frequencies(corpus)\n",
     "hog.append(b'x' * (64 << 20))"),
    ("segfault", "crashing", "word_frequencies reads address 0 through ctypes (SIGSEGV, Part 4)",
     '    """How often each whitespace-separated word occurs across all texts."""\n',
     '    """How often each whitespace-separated word occurs across all texts."""\n'
     "    __import__('ctypes').string_at(0)\n",
     "string_at(0)"),
]


@dataclass(frozen=True)
class Generated:
    """One generated submission: who, what kind, and the file's name and text."""

    student: str
    category: str
    variant: str
    what: str
    filename: str
    text: str
    marker: str = ""  # hostile submissions: text only the hostile code contains


def allocate(count: int) -> dict[str, int]:
    """Submissions per category for a class of ``count`` (largest remainders, sums to count)."""
    exact = {cat: share * count for cat, share in MIX.items()}
    counts = {cat: int(value) for cat, value in exact.items()}
    by_remainder = sorted(MIX, key=lambda cat: (-(exact[cat] - counts[cat]), list(MIX).index(cat)))
    for cat in by_remainder[: count - sum(counts.values())]:
        counts[cat] += 1
    return counts


def reference_source() -> str:
    from autograder.sandbox.reference import reference_without

    return reference_without(TOKENIZATION, 0)[0] + "\n"


def edit(source: str, old: str, new: str, name: str) -> str:
    """``source`` with ``old`` replaced; ``old`` must occur exactly once (fail loudly)."""
    if source.count(old) != 1:
        raise SystemExit(f"bench_batch: the edit {name!r} no longer matches the reference "
                         f"exactly once ({source.count(old)} matches)")
    return source.replace(old, new)


def as_cells(source: str) -> str:
    """A flat source cut into jupytext ``# %%`` cells, one per top-level def or class."""
    starts = {
        min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        for node in ast.parse(source).body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    lines = source.splitlines(keepends=True)
    return "# %%\n" + "".join(("# %%\n" if i in starts else "") + line
                              for i, line in enumerate(lines))


def tagged_script(source: str, student: str, style: int) -> str:
    """Cosmetic variations of a .py submission: a header, ``# %%`` cells, blank lines."""
    header = f"# Tokenization assignment, submitted by {student}\n"
    if style == 1:
        return header + as_cells(source)
    if style == 2:
        spaced = source.replace("\n\ndef ", "\n\n\ndef ").replace("\n\nclass ", "\n\n\nclass ")
        return header + spaced + f"\n# end of {student}'s submission\n"
    return header + source


def sample_file(folder: Path) -> Path:
    """The one notebook (else .py) in a sample folder."""
    files = sorted(folder.glob("*.ipynb")) or sorted(folder.glob("*.py"))
    if not files:
        raise SystemExit(f"bench_batch: no sample in {folder} (run samples/make_samples.py)")
    return files[0]


def tagged_notebook(path: Path, student: str, comment: bool) -> tuple[str, str]:
    """A sample (notebook or .py) with a notes cell and, if ``comment``, a code comment."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return path.name, f"# {student}\n{text}"
    notebook = json.loads(text)
    if comment:
        cell = next(c for c in notebook["cells"] if c.get("cell_type") == "code")
        source = cell["source"]
        line = f"# checked by {student} before submitting\n"
        cell["source"] = [line, *source] if isinstance(source, list) else line + source
    notebook["cells"].append({
        "cell_type": "markdown", "metadata": {},
        "source": [f"Submitted by {student}. I used the lecture notes and office hours."],
    })  # fmt: skip
    return path.name, json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def generate(count: int) -> list[Generated]:
    """``count`` distinct submissions in the ``MIX`` proportions (deterministic)."""
    reference = reference_source()
    correct_nb, stub_nb = sample_file(CORRECT_SAMPLE), sample_file(STUB_SAMPLE)
    hostile = {cat: [h for h in HOSTILE_EDITS if h[1] == cat] for cat in HOSTILE}
    # Categories interleaved as in a real class (the batch grades in student_id order).
    plan = [(cat, i) for cat, n in allocate(count).items() for i in range(n)]
    random.Random(0).shuffle(plan)
    subs: list[Generated] = []
    for number, (category, i) in enumerate(plan, 1):
        student = f"s{number:03d}_{category}"
        if category == "correct" and i % 2 == 0:
            name, text = tagged_notebook(correct_nb, student, comment=i % 4 == 0)
            subs.append(Generated(student, category, "notebook",
                                  "the sample correct notebook", name, text))
        elif category == "correct":
            style = (i // 2) % 3
            subs.append(Generated(
                student, category, f"script_style{style}",
                "the flattened reference, cosmetic changes only", f"{ASSIGNMENT}.py",
                tagged_script(reference, student, style),
            ))
        elif category == "wrong":
            variant, part, what, old, new = BUGS[i % len(BUGS)]
            text = edit(reference, old, new, variant)
            subs.append(Generated(student, category, variant, f"Part {part}: {what}",
                                  f"{ASSIGNMENT}.py", tagged_script(text, student, 0)))
        elif category == "stub":
            name, text = tagged_notebook(stub_nb, student, comment=False)
            subs.append(Generated(student, category, "release",
                                  "the release notebook, a notes cell added", name, text))
        else:
            variant, _, what, old, new, marker = hostile[category][i % len(hostile[category])]
            text = edit(reference, old, new, variant)
            subs.append(Generated(student, category, variant, what, f"{ASSIGNMENT}.py",
                                  tagged_script(text, student, 0), marker))
    if len({s.text for s in subs}) != len(subs):
        raise AssertionError("two generated submissions have the same bytes")
    return subs


def write_tree(subs: list[Generated], root: Path) -> Path:
    """Write ``root/submitted/<student>/tokenization/<file>``; returns the submitted/ folder."""
    tree = Path(root) / "submitted"
    for sub in subs:
        folder = tree / sub.student / ASSIGNMENT
        folder.mkdir(parents=True, exist_ok=True)
        (folder / sub.filename).write_text(sub.text, encoding="utf-8")
    return tree


# --- measuring the run ----------------------------------------------------------------


def rss(pid: int) -> int:
    """Bytes resident in ``pid`` (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def tree_rss(pid: int) -> int:
    """Bytes resident in ``pid`` and all its descendants, summed (0 once it is gone)."""
    return sum(rss(p) for p in cleanup.tree(pid))


def in_flight(pids: list[int]) -> list[str]:
    """The students whose scoring processes are among ``pids`` (from ``--submission=``)."""
    students = []
    for pid in pids:
        with contextlib.suppress(OSError):
            for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"):
                if arg.startswith(b"--submission="):
                    students.append(Path(arg.decode(errors="replace")).parents[1].name)
    return sorted(set(students))


class Sampler(threading.Thread):
    """Samples the summed RSS of a process tree and the load average until stopped."""

    def __init__(self, pid: int, interval: float = SAMPLE_SECONDS) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.peak_students: list[str] = []  # being graded when the peak was sampled
        self.totals: list[int] = []
        self.loads: list[float] = []
        self._stop_event = threading.Event()

    @property
    def samples(self) -> int:
        return len(self.totals)

    def run(self) -> None:
        while True:
            pids = cleanup.tree(self.pid)
            total = sum(rss(p) for p in pids)
            if total > self.peak:
                self.peak, self.peak_students = total, in_flight(pids)
            self.totals.append(total)
            self.loads.append(os.getloadavg()[0])
            if self._stop_event.wait(self.interval):
                return

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def children_cpu() -> float:
    """CPU seconds of every finished process this one started, their descendants included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Run:
    """How the CLI run went."""

    code: int
    wall: float  # seconds from start to exit, reports included
    grading: float | None  # the CLI's own "Took N s": grading only
    cpu: float  # CPU seconds of the CLI and everything it started
    sampler: Sampler


def run_cli(tree: Path, out: Path, jobs: int) -> Run:
    """Grade ``tree`` with the CLI (its progress on stderr, its summary echoed)."""
    command = [sys.executable, "-m", "autograder", "grade", str(tree), "--out", str(out),
               "--jobs", str(jobs), "--force"]
    cpu, started = children_cpu(), time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, text=True)
    sampler = Sampler(process.pid)
    sampler.start()
    try:
        summary, _ = process.communicate()
    finally:
        sampler.stop()
    wall = time.monotonic() - started
    print(summary, end="", flush=True)
    took = re.search(r"Took ([0-9.]+) s", summary)
    return Run(process.returncode, wall, float(took[1]) if took else None,
               children_cpu() - cpu, sampler)


# --- reading the reports --------------------------------------------------------------


@dataclass
class Outcome:
    """What the reports say about one generated submission."""

    sub: Generated
    in_csv: bool
    status: str
    error: str
    score: float
    max_score: float
    seconds: float
    failed: list[str]  # ids of the failed tests, or why it was not graded
    message: str = ""  # what the first failed test told the student

    @property
    def lost(self) -> bool:
        return self.status != "graded" or self.score < self.max_score


def read_outcomes(subs: list[Generated], out: Path) -> list[Outcome]:
    rows = {}
    with contextlib.suppress(OSError), open(out / "grades.csv", encoding="utf-8") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    outcomes = []
    for sub in subs:
        row = rows.get(sub.student)
        try:
            data = json.loads((out / sub.student / "results.json").read_text("utf-8"))
        except (OSError, ValueError):
            data = {}
        extra = data.get("extra_data", {})
        status = extra.get("status") or (row or {}).get("status") or "missing"
        failed = [
            t.get("extra_data", {}).get("id", t["name"])
            for t in data.get("tests", []) if t.get("status") == "failed"
        ] if status == "graded" else [f"not graded: {extra.get('error')}"]
        message = next((str(t.get("output", "")) for t in data.get("tests", [])
                        if t.get("status") == "failed"), "")
        outcomes.append(Outcome(
            sub, row is not None, status, str(extra.get("error") or ""),
            float(data.get("score", row["total"] if row else 0.0)),
            float(row["max_total"]) if row else 100.0,
            float(data.get("execution_time", 0.0)), failed, " ".join(message.split())[:120],
        ))  # fmt: skip
    return outcomes


def _seconds(outcomes: list[Outcome]) -> str:
    times = [o.seconds for o in outcomes]
    if not times:
        return "-"
    return f"median {statistics.median(times):.1f} s, max {max(times):.1f} s"


def _clock(seconds: float) -> str:
    return f"{int(seconds // 60)}m {seconds % 60:04.1f}s"


def report(outcomes: list[Outcome], run: Run, jobs: int,
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
    }
    timing = sorted({t for o in false for t in o.failed if is_timing_test(TOKENIZATION, t)})

    def mark(ok: bool) -> str:
        return "met" if ok else "NOT met"

    load_during = (f"mean {statistics.fmean(sampler.loads):.1f}, max {max(sampler.loads):.1f}"
                   if sampler.loads else "-")
    rows = [
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
          f"every hostile submission handled, every row written, one grader throughout): "
          f"{mark(ok)}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.hidden.tokenization.bench_batch",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200,
                        help="submissions in the class (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="the CLI's --jobs (default: %(default)s)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated tree and the reports")
    args = parser.parse_args(argv)
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be at least 1")
    subs = generate(args.count)
    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        tree = write_tree(subs, work)
        out = work / "out"
        load_start = os.getloadavg()
        print(f"bench-batch: {len(subs)} submissions in {tree}, grading with --jobs {args.jobs}; "
              f"load average {load_start[0]:.1f}", flush=True)
        version = suite_version(TOKENIZATION)
        before = grader_fingerprint.__wrapped__(TOKENIZATION)
        run = run_cli(tree, out, args.jobs)
        load_end = os.getloadavg()
        # Nobody changed the grader meanwhile:
        same = grader_fingerprint.__wrapped__(TOKENIZATION) == before
        ok = report(read_outcomes(subs, out), run, args.jobs, (load_start, load_end),
                    (version, same))
    finally:
        if args.keep:
            print(f"kept the submissions and reports in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
