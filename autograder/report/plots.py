"""Class plots as PNG files (matplotlib's Agg canvas: no display, no pyplot state).

- ``score_histogram.png``: the distribution of totals, with mean and median.
- ``test_pass_rates.png``: one bar per test, grouped and coloured by part.
- ``part_means.png``: mean score per part as a percentage of its points.

Only graded submissions are plotted; failures to grade and students who submitted
nothing are counted apart in the title. Each PNG keeps its title as metadata
(``Title``), for screen readers and the tests.
"""

import textwrap
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, PercentFormatter

from .stats import ClassStats

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
           "#ff9da7")


def color(part: int) -> str:
    """Part ``part``'s colour, the same in every plot."""
    return PALETTE[(part - 1) % len(PALETTE)]
DPI = 120


def _subtitle(stats: ClassStats) -> str:
    text = f"{len(stats.graded)} graded"
    if stats.failed:
        text += f"; {len(stats.failed)} failed to grade (not shown)"
    if stats.missing:
        text += f"; {len(stats.missing)} missing (nothing submitted)"
    return text


def _empty(ax: Axes) -> None:
    ax.text(0.5, 0.5, "no graded submissions", ha="center", va="center", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


def _save(fig: Figure, path: Path) -> Path:
    title = " ".join(fig.axes[0].get_title().split()) if fig.axes else ""
    # a Figure alone draws with Agg
    fig.savefig(path, dpi=DPI, bbox_inches="tight", metadata={"Title": title})
    return path


def score_histogram(stats: ClassStats, path: Path) -> Path:
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    top = stats.max_total
    ax.set_title(f"Total scores\n{_subtitle(stats)}", fontsize=11)
    if not stats.graded:
        _empty(ax)
        return _save(fig, path)
    width = top / 20
    bins = [i * width for i in range(21)]
    ax.hist(stats.totals, bins=bins, color="#4e79a7", edgecolor="white")
    mean, median = stats.total_mean(), stats.total_median()
    ax.axvline(mean, color="#e15759", linestyle="--", label=f"mean {mean:.1f}")
    ax.axvline(median, color="#333333", linestyle=":", label=f"median {median:.1f}")
    ax.set_xlim(0, top)
    ax.set_xlabel(f"Total score (out of {top:g})")
    ax.set_ylabel("Students")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.spines[["top", "right"]].set_visible(False)
    return _save(fig, path)


def _short(name: str, limit: int = 60) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def test_pass_rates(stats: ClassStats, path: Path) -> Path:
    tests = stats.tests
    height = max(3.0, 0.26 * len(tests) + 1.6)
    fig = Figure(figsize=(9, height))
    ax = fig.subplots()
    # The part legend sits between the title and the bars, so leave room for it.
    ax.set_title(f"Pass rate per test, by part\n{_subtitle(stats)}", fontsize=11,
                 pad=36 if tests else 6)
    if not tests:
        _empty(ax)
        return _save(fig, path)
    ys = list(range(len(tests)))
    rates = [t.rate for t in tests]
    ax.barh(ys, rates, color=[color(t.part) for t in tests], height=0.75)
    ax.set_yticks(ys, [_short(t.name) for t in tests], fontsize=8)
    for y, t in zip(ys, tests):
        ax.text(min(t.rate, 1.0) + 0.01, y, f"{t.passed}/{t.taken}", va="center", fontsize=7)
    for y, (a, b) in enumerate(zip(tests, tests[1:])):
        if a.part != b.part:
            ax.axhline(y + 0.5, color="#cccccc", linewidth=0.8)
    ax.set_ylim(len(tests) - 0.5, -0.5)  # first part at the top
    ax.set_xlim(0, 1.12)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel("Students who passed")
    ax.spines[["top", "right"]].set_visible(False)
    parts = stats.assignment.parts
    ax.legend(
        handles=[Patch(color=color(p), label=f"Part {p}: {parts.get(p, '')}")
                 for p in sorted({t.part for t in tests})],
        loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False, fontsize=8,
    )
    return _save(fig, path)


def part_means(stats: ClassStats, path: Path) -> Path:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.set_title(f"Mean score per part\n{_subtitle(stats)}", fontsize=11)
    if not stats.graded:
        _empty(ax)
        return _save(fig, path)
    means, points = stats.part_means(), stats.assignment.points
    xs = list(stats.assignment.parts)
    fractions = [means[p] / points[p] for p in xs]
    ax.bar(xs, fractions, color=[color(p) for p in xs], width=0.65)
    for p in xs:
        ax.text(p, means[p] / points[p] + 0.02, f"{means[p]:.1f} / {points[p]}",
                ha="center", fontsize=9)
    # Titles wrapped so that long ones do not run into their neighbours.
    ax.set_xticks(xs, [f"Part {p}\n" + "\n".join(textwrap.wrap(stats.assignment.parts[p], 16))
                       for p in xs], fontsize=8)
    ax.set_ylim(0, 1.12)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel("Mean, % of the part's points")
    ax.spines[["top", "right"]].set_visible(False)
    return _save(fig, path)


def write_plots(stats: ClassStats, out_dir: Path) -> list[Path]:
    """Write every plot into ``out_dir``; returns their paths."""
    out_dir = Path(out_dir)
    return [
        score_histogram(stats, out_dir / "score_histogram.png"),
        test_pass_rates(stats, out_dir / "test_pass_rates.png"),
        part_means(stats, out_dir / "part_means.png"),
    ]
