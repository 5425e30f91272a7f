"""The class summary: ``summary.md`` for the course staff, and the lines the CLI prints.

Both say how many students were graded, which failed to grade and why, who submitted
nothing (``missing``: listed apart, never as something to check by hand), the mean per
part, and where the reports are; ``summary.md`` adds the tests the class missed most and
links to the plots, and, for an assignment with a written reflection graded by hand
(``Assignment.reflection``), the ``.py`` submissions whose reflection the TA must find.
"""

from ..handoff.reflection import MISSING
from ..safe import RENAMED
from .format import md, one_line, percent, points
from .stats import ClassStats

PLOTS = {
    "score_histogram.png": "Total scores",
    "part_means.png": "Mean score per part",
    "test_pass_rates.png": "Pass rate per test",
}


def _counts(stats: ClassStats) -> str:
    n = len(stats.results)
    text = f"{n} student{'s' * (n != 1)}: {len(stats.graded)} graded"
    if stats.failed:
        text += f", {len(stats.failed)} failed to grade"
    return text + f", {len(stats.missing)} missing" if stats.missing else text


def isolation_line(stats: ClassStats) -> str:
    """Which sandbox level(s) the class's code ran at; the basic level is flagged."""
    levels = sorted({str(r.get("isolation", "unknown")) for r in stats.results})
    line = f"Isolation: {', '.join(md(level) for level in levels) or 'none'}."
    if "basic" in levels:
        line += (" **Graded at the basic level: student code ran as the grader's user** "
                 "(it could read other submissions and the grader's files).")
    return line


def summary_markdown(stats: ClassStats, wall_seconds: float, jobs: int) -> str:
    """The text of ``summary.md``."""
    assignment = stats.assignment
    lines = [
        f"# {md(assignment.title)} (`{assignment.name}`): class summary",
        "",
        f"{_counts(stats)}. Graded in {wall_seconds:.1f} s with {jobs} parallel "
        f"job{'s' * (jobs != 1)} ({stats.mean_seconds():.1f} s per submission on average).",
        "",
        isolation_line(stats),
        "",
        "## Scores",
        "",
        "Means are over the graded submissions; failures to grade and students who "
        "submitted nothing are listed below (their scores are empty in `grades.csv`).",
        "",
        "| Part | | Mean | Points | Mean % |",
        "|---|---|---:|---:|---:|",
    ]
    means = stats.part_means()
    for p, title in assignment.parts.items():
        worth = assignment.points[p]
        lines.append(
            f"| {p} | {md(title)} | {means[p]:.1f} | {worth} | {percent(means[p], worth)} |"
        )
    total = stats.total_mean()
    lines.append(
        f"| **Total** | | **{total:.1f}** | **{points(stats.max_total)}** | "
        f"**{percent(total, stats.max_total)}** |"
    )
    if stats.totals:
        lines += [
            "",
            f"Median total {points(stats.total_median())}, lowest {points(min(stats.totals))}, "
            f"highest {points(max(stats.totals))}; "
            f"{sum(t >= stats.max_total - 1e-9 for t in stats.totals)} full marks.",
        ]
    lines += ["", f"![{PLOTS['score_histogram.png']}](score_histogram.png)", ""]
    lines += [f"![{PLOTS['part_means.png']}](part_means.png)", ""]

    lines += ["## Tests the class missed most", ""]
    missed = stats.most_missed()
    if missed:
        lines += ["| Part | Test | Passed |", "|---:|---|---:|"]
        lines += [
            f"| {t.part} | {md(t.name)} | {t.passed} / {t.taken} ({percent(t.passed, t.taken)}) |"
            for t in missed
        ]
    else:
        nothing = "No graded submission failed a test." if stats.tests else "No tests ran."
        lines.append(nothing)
    lines += ["", f"![{PLOTS['test_pass_rates.png']}](test_pass_rates.png)", ""]

    lines += ["## Failed to grade", ""]
    if stats.failed:
        lines += [
            "These submissions could not be graded; check them by hand.",
            "",
            "| Student | File | Reason |",
            "|---|---|---|",
        ]
        lines += [
            f"| {md(r['student_id'])} | {md(r['source'])} | {md(r['error'] or 'unknown')} |"
            for r in stats.failed
        ]
    else:
        lines.append("None: every submission was graded.")
    lines += _missing(stats)
    if assignment.reflection:
        lines += _reflections(stats)
    lines += _renamed(stats)
    lines += [
        "",
        "## Files",
        "",
        "- `grades.csv`: one row per student (part scores, total, status, error) for the LMS.",
        "- `<student_id>/feedback.html`: the page to send each student.",
        "- `<student_id>/results.json`: the same results in Gradescope's format.",
        "",
    ]
    return "\n".join(lines)


def _missing(stats: ClassStats) -> list[str]:
    """The students who submitted nothing for this assignment: no score, nothing to check."""
    lines = ["", "## Missing", ""]
    if not stats.missing:
        return [*lines, "None: every student submitted something."]
    return [*lines,
            f"These students submitted nothing for `{md(stats.assignment.name)}`: no score "
            "(empty in `grades.csv`, status `missing`), no feedback page.", "",
            *(f"- {md(r['student_id'])}: {md((r['error'] or '').split(': ', 1)[-1])}"
              for r in stats.missing)]


def _reflections(stats: ClassStats) -> list[str]:
    """The ``.py`` submissions whose written reflection the TA has to find by hand."""
    lines = ["", "## Written reflections to find by hand", ""]
    found = [r for r in stats.results if any(w.startswith(MISSING) for w in r["warnings"])]
    if not found:
        return [*lines, "None: every submission's reflection is where the TA will find it."]
    return [*lines,
            "These `.py` submissions have no `REFLECTION` string and no reflection cell: its "
            "points are not in `grades.csv`; read each file and grade it by hand (the "
            "nbgrader hand-off flags them in formgrader).", "",
            *(f"- {md(r['student_id'])}: `{md(r['source'])}`" for r in found)]


def _timing(stats: ClassStats, out_dir: str, wall_seconds: float, jobs: int,
            cached: int) -> str:
    """How long the batch took, saying which results came from the cache."""
    took = f"Took {wall_seconds:.1f} s with {jobs} job{'s' * (jobs != 1)}"
    if not cached:
        return f"{took} ({stats.mean_seconds():.1f} s per graded submission)."
    fresh = len(stats.results) - len(stats.missing) - cached
    return (f"{took}: {cached} result{'s' * (cached != 1)} reused from {out_dir}/.cache "
            f"(same file, same grader; --force grades again), {fresh} graded now. "
            f"Grading took {stats.mean_seconds():.1f} s per submission when it ran.")


def _renamed(stats: ClassStats) -> list[str]:
    """A section on IDs changed to stay distinct (empty when none was)."""
    notes = [w for r in stats.results for w in r["warnings"] if w.startswith(RENAMED)]
    if not notes:
        return []
    return ["", "## Renamed student IDs", "",
            "Two folders gave the same student ID once made safe for the reports; "
            "check these rows before importing `grades.csv`:", "",
            *(f"- {md(note[len(RENAMED):], 300)}" for note in notes)]


def console_summary(
    stats: ClassStats, out_dir: str, wall_seconds: float, jobs: int, cached: int = 0
) -> list[str]:
    """The lines the CLI prints at the end of a batch; ``cached``: results from the cache."""
    lines = [f"{_counts(stats)}. {_timing(stats, out_dir, wall_seconds, jobs, cached)}"]
    if stats.failed:
        lines.append("Failed to grade:")
        lines += [
            f"  {one_line(r['student_id'], 40)}: {one_line(r['error'] or 'unknown', 120)}"
            for r in stats.failed
        ]
    if stats.missing:
        who = ", ".join(one_line(r["student_id"], 40) for r in stats.missing)
        lines.append(f"Missing (nothing submitted for {stats.assignment.name}): "
                     f"{one_line(who, 300)}")
    renamed = len(_renamed(stats)[6:])
    if renamed:
        lines.append(f"{renamed} student ID{'s' * (renamed != 1)} renamed to stay distinct "
                     "(listed in summary.md)")
    if stats.graded:
        lines.append("Mean per part (graded submissions):")
        parts, worth = stats.assignment.parts, stats.assignment.points
        width = max(len(t) for t in parts.values())
        means = stats.part_means()
        for p, title in parts.items():
            lines.append(f"  Part {p}  {title:<{width}}  {means[p]:5.1f} / {worth[p]}")
        lines.append(
            f"  {'Total':<{width + 7}}  {stats.total_mean():5.1f} / {points(stats.max_total)}"
        )
    lines.append(
        f"Reports in {out_dir}/: grades.csv, summary.md, plots (*.png), "
        "<student_id>/feedback.html and results.json"
    )
    return lines
