"""Are the timing tests stable under load, and do they catch quadratic code?

What it measures: the reference and deliberately slow variants of it are graded with
``grade_file`` ``--runs`` times each, round-robin, while ``--load`` busy-loop processes
(``python -c "while True: pass"``) keep the CPU busy. For every timing test it counts
*false failures* on the correct reference (target 0 of N) and *catches* of the variant
the test is meant to catch (target N of N), plus wall time. The busy loops are always
killed at the end, on error too.

Variants (each a small override appended to the flattened reference; the grader keeps
the last definition, so ``class BPETokenizer(BPETokenizer)`` replaces one method):
quadratic ``CharTokenizer.encode`` (string slicing per character), quadratic
``CharTokenizer.decode`` and ``BPETokenizer.encode`` (list concatenation per token), and
a BPE trainer that counts pairs over every word occurrence instead of distinct words.

Reproduce::

    make timing-stability                                           # 30 runs, writes TIMING.md
    .venv/bin/python -m autograder.validity.timing_stability --runs 3 --report /tmp/t.md
"""

import argparse
import contextlib
import math
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from .common import is_timing_test, same_suite, suite_version

HERE = Path(__file__).resolve().parent
REPORT = HERE / "TIMING.md"
# A failing timing test states its ratio: "took 9.5x as long", or "took over 8x" when the
# slow run was stopped (recorded as inf, shown as "stopped").
RATIO = re.compile(r"took (over )?([\d.]+)x")


QUADRATIC_CHAR_ENCODE = '''
class CharTokenizer(CharTokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        ids = []
        while text:
            ids.append(self.char_to_id.get(text[0], self.unk_id))
            text = text[1:]
        return ids
'''
QUADRATIC_CHAR_DECODE = '''
class CharTokenizer(CharTokenizer):
    def decode(self, tokens):
        chars = []
        for t in tokens:
            chars = chars + [self.id_to_char[check_token_id(t, self.vocab_size)]]
        return "".join(chars)
'''
QUADRATIC_BPE_ENCODE = '''
class BPETokenizer(BPETokenizer):
    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError("encode expects a str")
        ids = []
        for word in text.split():
            tokens = self._apply_merges(self._get_word_tokens(word))
            ids = ids + [self.token_to_id.get(t, 0) for t in tokens]
        return ids
'''
EVERY_OCCURRENCE_TRAINER = '''
class BPETokenizer(BPETokenizer):
    def train(self, corpus, vocab_size=None):
        if vocab_size is not None:
            self.target_vocab_size = check_vocab_size(vocab_size)
        words = [word for text in corpus for word in text.split()]
        tokens = [self._get_word_tokens(word) for word in words]
        self.vocab = [UNK, EOW] + sorted({ch for word in words for ch in word})
        self.merges = []
        while len(self.vocab) < self.target_vocab_size:
            counts = Counter()
            for word in tokens:
                for pair in zip(word, word[1:]):
                    counts[pair] += 1
            if not counts:
                break
            best = min(counts, key=lambda pair: (-counts[pair], pair))
            tokens = [merge_pair(word, best) for word in tokens]
            self.merges.append(best)
            if best[0] + best[1] not in self.vocab:
                self.vocab.append(best[0] + best[1])
        self._build_mappings()
'''
# name -> (override appended to the reference, the timing tests meant to catch it)
VARIANTS: dict[str, tuple[str, re.Pattern | None]] = {
    "reference": ("", None),
    "quadratic CharTokenizer.encode": (QUADRATIC_CHAR_ENCODE, re.compile(r"part2::.*encode")),
    "quadratic CharTokenizer.decode": (QUADRATIC_CHAR_DECODE, re.compile(r"part2::.*decode")),
    "quadratic BPETokenizer.encode": (QUADRATIC_BPE_ENCODE, re.compile(r"part3::.*encode")),
    "trainer over every occurrence": (EVERY_OCCURRENCE_TRAINER, re.compile(r"duplicat")),
}


def submission(override: str) -> str:
    """The flattened reference with ``override`` appended (later definitions win)."""
    from ..sandbox.reference import reference_without

    return f"{reference_without(0)[0]}\n\n# --- timing variant ---\n{override.strip()}\n"


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


def measure(runs: int, load: int, timeout: float) -> tuple[dict, dict, dict, float]:
    """Outcomes ``{variant: {test: Counter}}``, ratios of failures, grade seconds, wall."""
    from ..suite.run import grade_file

    outcomes: dict = defaultdict(lambda: defaultdict(Counter))
    ratios: dict = defaultdict(lambda: defaultdict(list))
    seconds: dict = defaultdict(list)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="timing-") as tmp, cpu_load(load):
        paths = {}
        for i, (name, (override, _)) in enumerate(VARIANTS.items()):
            paths[name] = Path(tmp) / f"variant{i}.py"
            paths[name].write_text(submission(override), encoding="utf-8")
        for run in range(1, runs + 1):
            for name, path in paths.items():
                result = grade_file(path, f"timing-{run}", timeout=timeout)
                seconds[name].append(result["seconds"])
                if result["status"] != "graded":
                    outcomes[name]["<grading error>"]["failed"] += 1
                for test in result["tests"]:
                    if is_timing_test(test["id"]):
                        outcomes[name][test["id"]][test["status"]] += 1
                        found = RATIO.search(test["output"])
                        if test["status"] == "failed" and found:
                            value = math.inf if found.group(1) else float(found.group(2))
                            ratios[name][test["id"]].append(value)
            print(f"run {run}/{runs} done after {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return outcomes, ratios, seconds, time.monotonic() - started


def _spread(values: list[float]) -> str:
    """``min / median / max`` of the ratios a failing test reported."""
    if not values:
        return ""
    v = ["stopped" if x == math.inf else f"{x:.1f}" for x in sorted(values)]
    return f"{v[0]} / {v[len(v) // 2]} / {v[-1]}"


def report(outcomes: dict, ratios: dict, seconds: dict, wall: float, runs: int,
           load: int, versions: tuple[str, str]) -> str:
    """TIMING.md: per timing test, false failures on the reference and catches of variants."""
    tests = sorted({t for per in outcomes.values() for t in per if t != "<grading error>"})
    lines = [
        "# Timing tests under load",
        "",
        "Generated by `make timing-stability` (`python -m autograder.validity.timing_stability`);",
        f"do not edit. {runs} gradings of each variant, round-robin, with {load} busy-loop",
        f"processes on the machine's CPUs the whole time; wall time {wall / 60:.1f} min.",
        f"Suite measured: `{versions[0]}`"
        + ("." if same_suite(*versions) else
           f" at the start, `{versions[1]}` at the end (THE SUITE CHANGED DURING THE RUN)."),
        "Targets: 0 false failures on the reference, every run of a slow variant caught by",
        "the timing test meant for it.",
        "",
        "Ratios are those the failing runs reported (min / median / max; *stopped*: the slow",
        "run was cut off); a passing run reports none. Thresholds are the suite's own",
        "(`autograder/suite/test_part2.py`, `test_part3.py`).",
        "",
        "| Timing test | False failures (reference) | Ratios | Variant it must catch | Caught "
        "| Ratios | Verdict |",
        "|---|---:|---|---|---:|---|---|",
    ]
    for test in tests:
        false = outcomes["reference"][test]["failed"]
        ref_n = sum(outcomes["reference"][test].values())
        targets = [n for n, (_, p) in VARIANTS.items() if p is not None and p.search(test)]
        for name in targets or ["(none)"]:
            got = outcomes[name][test] if targets else Counter()
            caught, n = got["failed"], sum(got.values())
            ok = false == 0 and (not targets or caught == n == runs)
            lines.append(f"| `{test}` | {false} / {ref_n} | {_spread(ratios['reference'][test])} "
                         f"| {name} | {caught} / {n} | {_spread(ratios[name][test])} | "
                         f"{'ok' if ok else 'MISSES TARGET'} |")
    lines += ["", "All timing-test failures per variant (failed / graded):", "",
              "| Variant | " + " | ".join(f"`{t}`" for t in tests) + " | Grade time (s, median) |",
              "|---|" + "---:|" * (len(tests) + 1)]
    for name in VARIANTS:
        cells = [f"{outcomes[name][t]['failed']}/{sum(outcomes[name][t].values())}"
                 for t in tests]
        times = sorted(seconds[name])
        median = times[len(times) // 2] if times else 0.0
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {median:.1f} |")
    errors = {n: outcomes[n]["<grading error>"]["failed"] for n in VARIANTS}
    if any(errors.values()):
        lines += ["", f"Gradings that ended in an error: {errors}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="gradings of each variant")
    parser.add_argument("--load", type=int, default=2, help="busy-loop processes")
    parser.add_argument("--timeout", type=float, default=600.0, help="per grading, seconds")
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    before = suite_version()
    outcomes, ratios, seconds, wall = measure(args.runs, args.load, args.timeout)
    versions = (before, suite_version())
    text = report(outcomes, ratios, seconds, wall, args.runs, args.load, versions)
    args.report.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
