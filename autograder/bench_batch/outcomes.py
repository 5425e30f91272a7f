"""What the reports say about each generated submission (``grades.csv``, ``results.json``)."""

import contextlib
import csv
import json
from dataclasses import dataclass
from pathlib import Path

from .make import Generated


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
    """One ``Outcome`` per submission, in order (``missing`` when no report names it)."""
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
