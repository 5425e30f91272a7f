"""Class-level numbers from a batch of results: means per part, pass rate per test.

Means are over the submissions that were graded; a failure to grade is a
missing score to chase, not a zero to average in, so it is counted apart, and so is a
student who submitted nothing (``missing``), who is neither.
"""

import statistics
from dataclasses import dataclass, field

from ..assignment import Assignment
from ..results import SubmissionResult


@dataclass
class TestStats:
    """How the class did on one test."""

    id: str
    name: str
    part: int
    passed: int = 0
    taken: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.taken if self.taken else 0.0


@dataclass
class ClassStats:
    """Everything the summary and the plots say about a batch."""

    results: list[SubmissionResult]
    assignment: Assignment
    graded: list[SubmissionResult] = field(init=False)
    failed: list[SubmissionResult] = field(init=False)
    missing: list[SubmissionResult] = field(init=False)
    tests: list[TestStats] = field(init=False)

    def __post_init__(self) -> None:
        self.graded = [r for r in self.results if r["status"] == "graded"]
        self.failed = [r for r in self.results if r["status"] not in ("graded", "missing")]
        self.missing = [r for r in self.results if r["status"] == "missing"]
        by_id: dict[str, TestStats] = {}
        for result in self.graded:
            for test in result["tests"]:
                stats = by_id.setdefault(
                    test["id"], TestStats(test["id"], test["name"], int(test["part"]))
                )
                stats.taken += 1
                stats.passed += test["status"] == "passed"
        # Part order, then the order the suite ran them in.
        order = {tid: i for i, tid in enumerate(by_id)}
        self.tests = sorted(by_id.values(), key=lambda t: (t.part, order[t.id]))

    @property
    def totals(self) -> list[float]:
        return [float(r["score"]) for r in self.graded]

    @property
    def max_total(self) -> float:
        return float(self.assignment.total)

    def part_mean(self, part: int) -> float:
        scores = [float(r["parts"][str(part)]["score"]) for r in self.graded]
        return statistics.fmean(scores) if scores else 0.0

    def part_means(self) -> dict[int, float]:
        return {p: self.part_mean(p) for p in self.assignment.parts}

    def total_mean(self) -> float:
        return statistics.fmean(self.totals) if self.totals else 0.0

    def total_median(self) -> float:
        return statistics.median(self.totals) if self.totals else 0.0

    def most_missed(self, limit: int = 10) -> list[TestStats]:
        """Tests at least one graded student failed, lowest pass rate first."""
        missed = [t for t in self.tests if t.passed < t.taken]
        return sorted(missed, key=lambda t: (t.rate, t.part))[:limit]

    def mean_seconds(self) -> float:
        seconds = [float(r["seconds"]) for r in self.graded]
        return statistics.fmean(seconds) if seconds else 0.0
