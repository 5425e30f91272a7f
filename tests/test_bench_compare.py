"""``make bench-compare``: the two checkouts take turns, and the verdict reads each round's
pair as this checkout over the baseline (the gradings are replaced by given figures; the
tool's gradings are the ones ``make bench`` already runs)."""

from pathlib import Path

from autograder import bench_compare


def test_turns_alternate_and_the_ratio_is_this_over_the_baseline(monkeypatch, capsys, tmp_path):
    calls = []
    wall = {bench_compare.ROOT: 1.2, tmp_path.resolve(): 1.0}  # this checkout 20 % slower

    def fake(checkout: Path, assignment: str, copies: int) -> dict:
        calls.append(checkout)
        return {"wall": wall[checkout], "cpu": wall[checkout], "loop": [0.3, 0.3]}

    monkeypatch.setattr(bench_compare, "grade_with", fake)
    assert bench_compare.main(["--assignment", "toy", "--against", str(tmp_path),
                               "--rounds", "3"]) == 0
    this, base = bench_compare.ROOT, tmp_path.resolve()
    assert calls == [base, this, this, base, base, this]
    out = capsys.readouterr().out
    assert "per round: 1.20, 1.20, 1.20" in out
    assert "mean 1.200 (+20.0 %); bound 1.10: OVER" in out
