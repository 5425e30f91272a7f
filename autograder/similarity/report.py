"""The similarity report: ``similarity.csv``, ``similarity.html`` with a side-by-side page
per pair (``similarity-pairs/``), and the top 10 as text.

Every label is made safe for its file (HTML-escaped; a CSV cell a spreadsheet would run as a
formula starts with ``'``). A report already in the folder is moved into
``previous-N/`` first, never overwritten. Pages are written for the ``MAX_VIEWS`` highest
pairs; the CSV lists every pair above the floor.
"""

import csv
import html
import io
from pathlib import Path

from copydetect.utils import highlight_overlap

from ..assignment import Assignment
from ..safe import safe_text
from .fingerprint import shared_slices
from .score import LONG, Pair, Side

MAX_VIEWS = 200
VIEWS = "similarity-pairs"
OUTPUTS = ("similarity.csv", "similarity.html", VIEWS)
FORMULA_STARTS = ("=", "+", "-", "@", "\t")
MEANING = (
    "Similarity is the share of two submissions' code fingerprints they have in common "
    "(0 = nothing shared, 1 = all of it), computed on the code the grader keeps, part by "
    "part, with names, strings and comments erased and the released stub's code removed. "
    "A pair's score is the higher of its overall similarity and that of its most similar "
    f"long part. Parts marked <em>short</em> (under {LONG} fingerprints, a few lines) have "
    "one natural solution and look alike in any class; they never lead the ranking. A high "
    "score says that two submissions share code, not why (the same tutorial, a study group, "
    "a TA's hint, or a copy): read the pair side by side before concluding anything."
)


def part_label(part: int, assignment: Assignment) -> str:
    return f"Part {part}: {assignment.parts[part]}" if part in assignment.parts else "Other code"


def parts_text(pair: Pair) -> str:
    """``all=0.91; 3=0.97; 1=0.98 (short)``: overall, then each part (0 = other code)."""
    cells = [f"all={pair.overall:.2f}"]
    cells += [f"{part}={score:.2f}{' (short)' * (part in pair.short)}"
              for part, score in sorted(pair.parts.items(), key=lambda kv: -kv[1])]
    return "; ".join(cells)


def _cell(text: str) -> str:
    text = safe_text(text, one_line=True)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(pairs: list[Pair]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student_a", "student_b_or_source", "similarity", "parts", "shared_names"])
    for p in pairs:
        names = " ".join(dict.fromkeys(p.shared_names))
        writer.writerow([_cell(p.a), _cell(p.b), f"{p.score:.3f}", parts_text(p), _cell(names)])
    return out.getvalue()


def top_lines(pairs: list[Pair], count: int = 10) -> list[str]:
    """The ``count`` most similar pairs, one line each, for the console."""
    if not pairs:
        return ["No pair is above the floor."]
    lines = [f"The {min(count, len(pairs))} most similar pairs (of {len(pairs)} above the "
             "floor; similar, which is not a verdict):"]
    for rank, p in enumerate(pairs[:count], 1):
        lines.append(f"{rank:>3}. {p.score:.2f}  {safe_text(p.a, 40, one_line=True)} ~ "
                     f"{safe_text(p.b, 40, one_line=True)}  [{parts_text(p)}]")
    return lines


_STYLE = """body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
.side{display:flex;gap:1em}.side>div{flex:1;min-width:0}
pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:.85em}
.hl{background:#ffd54f}.short{color:#888}"""


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{_STYLE}</style></head><body>{body}</body></html>\n")


def _highlighted(side: Side, part: int, slices) -> str:
    code = side.fingerprints[part].raw_code
    if slices.shape[1] == 0:
        return html.escape(code)
    marked, _ = highlight_overlap(code, slices, "<span class='hl'>", "</span>",
                                  escape_html=True)
    return marked


def pair_page(pair: Pair, x: Side, y: Side, assignment: Assignment) -> str:
    """Side by side, part by part, the shared regions highlighted (copydetect)."""
    a, b = html.escape(safe_text(pair.a)), html.escape(safe_text(pair.b))
    body = [f"<p><a href='../similarity.html'>all pairs</a></p><h1>{a} ~ {b}: "
            f"{pair.score:.2f}</h1><p>{html.escape(parts_text(pair))}</p><p>{MEANING}</p>"]
    for part in sorted(pair.parts, key=lambda p: (p == 0, p)):
        sx, sy = shared_slices(x.fingerprints[part], y.fingerprints[part])
        short = " <span class='short'>(short: alike in any class)</span>" * (
            part in pair.short)
        body.append(f"<h2>{html.escape(part_label(part, assignment))}: "
                    f"{pair.parts[part]:.2f}{short}</h2><div class='side'>"
                    f"<div><h3>{a}</h3><pre>{_highlighted(x, part, sx)}</pre></div>"
                    f"<div><h3>{b}</h3><pre>{_highlighted(y, part, sy)}</pre></div></div>")
    return _page(f"{pair.a} ~ {pair.b}", "".join(body))


def index_page(pairs: list[Pair], assignment: Assignment, floor: float, compared: int,
               problems: list[str]) -> str:
    rows = []
    for rank, p in enumerate(pairs, 1):
        link = (f"<a href='{VIEWS}/{rank:05d}.html'>side by side</a>" if rank <= MAX_VIEWS
                else "in the CSV")
        names = html.escape(" ".join(dict.fromkeys(p.shared_names)))
        rows.append(f"<tr><td>{rank}</td><td>{html.escape(safe_text(p.a))}</td>"
                    f"<td>{html.escape(safe_text(p.b))}</td><td>{p.score:.2f}</td>"
                    f"<td>{html.escape(parts_text(p))}</td><td>{names}</td><td>{link}</td></tr>")
    table = ("<table><tr><th>#</th><th>student</th><th>student or source</th><th>similarity"
             "</th><th>parts</th><th>shared names</th><th></th></tr>" + "".join(rows)
             + "</table>") if rows else "<p>No pair is above the floor.</p>"
    issues = "".join(f"<li>{html.escape(safe_text(p))}</li>" for p in problems)
    notes = f"<h2>Not compared, or in part</h2><ul>{issues}</ul>" if issues else ""
    return _page(f"Similarity: {assignment.title}",
                 f"<h1>Similarity: {html.escape(assignment.title)}</h1><p>{MEANING}</p>"
                 f"<p>{compared} submissions and sources compared; {len(pairs)} "
                 f"pair{'s' * (len(pairs) != 1)} at or above the floor of {floor:.2f}, "
                 f"most similar first.</p>{table}{notes}")


def keep_previous(out: Path) -> Path | None:
    """Move an earlier report in ``out`` into ``out/previous-N/``; its path, if any."""
    found = [out / name for name in OUTPUTS if (out / name).exists()]
    if not found:
        return None
    number = 1
    while (out / f"previous-{number}").exists():
        number += 1
    backup = out / f"previous-{number}"
    backup.mkdir()
    for path in found:
        path.rename(backup / path.name)
    return backup


def write_report(out: Path, pairs: list[Pair], sides: dict[str, Side],
                 assignment: Assignment, floor: float, problems: list[str]) -> None:
    """Write the CSV, the index page and the pair pages into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    keep_previous(out)
    (out / "similarity.csv").write_text(csv_text(pairs), encoding="utf-8")
    (out / VIEWS).mkdir()
    for rank, pair in enumerate(pairs[:MAX_VIEWS], 1):
        page = pair_page(pair, sides[pair.a], sides[pair.b], assignment)
        (out / VIEWS / f"{rank:05d}.html").write_text(page, encoding="utf-8")
    (out / "similarity.html").write_text(
        index_page(pairs, assignment, floor, len(sides), problems), encoding="utf-8")
