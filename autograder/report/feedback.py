"""``<student_id>/feedback.html``: what a student reads about their grade.

One self-contained page (inline CSS, no scripts, no external resources): the
total, then each part with its score and every test's name, result and
message, plus the warnings from loading the code (cells skipped, statements that
raised). Everything that comes from a submission or a test is untrusted and goes
through ``html.escape``; a Content-Security-Policy forbids scripts as a second
line of defence. Tests marked ``hidden`` are counted but not listed. A result graded
again after an earlier grade (``results.Regraded``) says so near the top: when, and one
line per test whose result changed since (hidden tests by name too: which test moved a
grade is what a student asks about).

The grader writes the autograded page; the nbgrader hand-off writes the same page with
what was graded by hand (``HandGraded``: the reflection's grade and comment, or "not graded
yet") and the total over everything from the gradebook (``Overall``), so a student gets one
page, not an autograder page and an nbgrader page that each tell half. The page speaks of
work "graded by hand" only for an assignment that has some (``Assignment.reflection``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ..assignment import Assignment
from ..results import Regraded, SubmissionResult, TestResult
from .format import points

CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1f2328; background: #f6f8fa; margin: 0; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
header { display: flex; justify-content: space-between; align-items: center; gap: 1rem;
         background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1rem 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 0; display: flex; justify-content: space-between; }
.meta { color: #57606a; margin: 0; overflow-wrap: anywhere; }
.total { font-size: 2.2rem; font-weight: 700; white-space: nowrap; }
.total small { font-size: 1rem; color: #57606a; font-weight: 400; }
.box { border-radius: 8px; padding: .75rem 1.25rem; margin: 1rem 0; border: 1px solid; }
.error { background: #ffebe9; border-color: #ff8182; }
.warn { background: #fff8c5; border-color: #d4a72c; }
.regraded { background: #ddf4ff; border-color: #54aeff; }
.box ul { margin: .25rem 0; padding-left: 1.25rem; }
.box li { overflow-wrap: anywhere; }
section { background: #fff; border: 1px solid #d0d7de; border-radius: 8px;
          padding: 1rem 1.5rem; margin: 1rem 0; }
.bar { height: 6px; background: #eaeef2; border-radius: 3px; margin: .5rem 0 .75rem; }
.bar div { height: 6px; border-radius: 3px; background: #1a7f37; }
.bar.low div { background: #cf222e; } .bar.mid div { background: #bf8700; }
table { border-collapse: collapse; width: 100%; }
td { padding: .3rem .4rem; vertical-align: top; border-top: 1px solid #eaeef2; }
td.mark { width: 1.5rem; font-weight: 700; text-align: center; }
td.pts { width: 5rem; text-align: right; white-space: nowrap; color: #57606a; }
tr.passed td.mark { color: #1a7f37; } tr.failed td.mark { color: #cf222e; }
tr.msg td { border-top: none; padding-top: 0; }
pre { margin: 0; padding: .5rem .75rem; background: #f6f8fa; border-radius: 6px;
      white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; }
.note { color: #57606a; font-size: .9rem; margin: .5rem 0 0; }
footer { color: #57606a; font-size: .85rem; text-align: center; margin-top: 1.5rem; }
"""


@dataclass(frozen=True)
class HandGraded:
    """A score a person gives (the reflection) or changed; ``score`` None: not graded yet."""

    title: str
    score: float | None
    max_score: float
    comment: str = ""


@dataclass(frozen=True)
class Overall:
    """The total over everything, from the gradebook: ``score`` before the late penalty."""

    score: float
    max_score: float
    pending: bool  # some part still awaits a person's grade
    late_penalty: float = 0.0


def _hand_section(item: HandGraded) -> str:
    shown = "not graded yet" if item.score is None else points(item.score)
    html = [f"<section><h2><span>{escape(item.title)}</span>"
            f"<span>{shown} / {points(item.max_score)}</span></h2>"]
    if item.score is not None:
        html.append(_bar(item.score, item.max_score))
    html.append('<p class="note">Graded by the course staff.</p>' if item.score is not None
                else '<p class="note">The course staff have not graded this yet.</p>')
    if item.comment.strip():
        html.append(f"<pre>{escape(item.comment)}</pre>")
    html.append("</section>")
    return "\n".join(html)


def _bar(score: float, top: float) -> str:
    fraction = score / top if top else 0.0
    level = "low" if fraction < 0.5 else "mid" if fraction < 0.999 else ""
    return f'<div class="bar {level}"><div style="width:{100 * fraction:.1f}%"></div></div>'


def _test_rows(test: TestResult) -> str:
    passed = test["status"] == "passed"
    mark = "✓" if passed else "✗"
    label = "passed" if passed else "failed"
    row = (
        f'<tr class="{label}"><td class="mark" title="{label}">{mark}</td>'
        f"<td>{escape(test['name'])}</td>"
        f'<td class="pts">{points(test["score"])} / {points(test["max_score"])}</td></tr>'
    )
    if test["output"].strip() and not (passed and test["output"].strip().lower() == "passed"):
        message = escape(test["output"])
        row += f'<tr class="msg"><td></td><td colspan="2"><pre>{message}</pre></td></tr>'
    return row


def _when(stamp: str) -> str:
    """``2026-11-26T20:40:00Z`` as ``2026-11-26 20:40 UTC``."""
    if len(stamp) == 20 and stamp[10] == "T" and stamp.endswith("Z"):
        return f"{stamp[:10]} {stamp[11:16]} UTC"
    return stamp


def _regraded_box(regraded: Regraded) -> str:
    previous = regraded["previous_at"]
    since = f" (previous grade: {escape(_when(previous))})" if previous else ""
    head = f"<b>Regraded on {escape(_when(regraded['at']))}</b>{since}."
    if not regraded["tests"]:
        return f'<div class="box regraded">{head} No test changed since the previous grade.</div>'
    items = "".join(f"<li>{escape(line)}</li>" for line in regraded["tests"])
    return (f'<div class="box regraded">{head} Tests that changed since the previous grade:'
            f"<ul>{items}</ul></div>")


def _part_section(result: SubmissionResult, part: int, title: str) -> str:
    score = result["parts"][str(part)]
    tests = [t for t in result["tests"] if int(t["part"]) == part]
    shown = [t for t in tests if t["visibility"] != "hidden"]
    failed = sum(t["status"] != "passed" for t in shown)
    title = f"Part {part}: {title}"
    html = [
        f'<section id="part{part}"><h2><span>{escape(title)}</span>'
        f'<span>{points(score["score"])} / {points(score["max_score"])}</span></h2>',
        _bar(float(score["score"]), float(score["max_score"])),
    ]
    if result["status"] != "graded":
        html.append('<p class="note">Not graded: see the error above.</p>')
    elif shown:
        summary = f"{len(shown) - failed} of {len(shown)} tests passed"
        html.append(f'<p class="note">{summary}</p><table>')
        html += [_test_rows(t) for t in shown]
        html.append("</table>")
    if len(tests) > len(shown):
        html.append(f'<p class="note">{len(tests) - len(shown)} more tests are not shown.</p>')
    html.append("</section>")
    return "\n".join(html)


def feedback_html(result: SubmissionResult, assignment: Assignment,
                  hand_graded: Sequence[HandGraded] = (), overall: Overall | None = None) -> str:
    """The whole page for one result, with what was graded by hand if there is any."""
    sid, source = escape(result["student_id"]), escape(result["source"])
    score, top = points(result["score"]), points(result["max_score"])
    if overall is not None:
        score = points(overall.score - overall.late_penalty)
        top = points(overall.max_score)
    body = [
        "<header><div>",
        f"<h1>{escape(assignment.title)}: autograder feedback</h1>",
        f'<p class="meta">Student: <b>{sid}</b> · file: <code>{source}</code></p>',
        "</div>",
        f'<div class="total">{score} <small>/ {top}</small></div></header>',
    ]
    if result["status"] != "graded":
        body.append(
            '<div class="box error"><b>Your submission could not be graded.</b> '
            f"Reason: {escape(result['error'] or 'unknown')}. "
            "Every part scores 0 until this is fixed; please contact the course staff.</div>"
        )
    if result.get("regraded"):
        body.append(_regraded_box(result["regraded"]))
    if result["warnings"]:
        items = "".join(f"<li>{escape(w)}</li>" for w in result["warnings"])
        body.append(
            '<div class="box warn"><b>Warnings while loading your code</b> '
            "(code that was skipped or raised an error; it may cost points):"
            f"<ul>{items}</ul></div>"
        )
    if overall is not None:
        late = (f" A late penalty of {points(overall.late_penalty)} is taken off."
                if overall.late_penalty else "")
        done = ("Total over everything: autograded and graded by hand." if assignment.reflection
                else "Total over everything." if not hand_graded
                else "Total over everything, with the scores the course staff set.")
        what = ("Total so far: some of your work is still to be graded by the course staff."
                if overall.pending else done)
        body.append(f'<p class="note">{what}{late} The autograder gave '
                    f'{points(result["score"])} / {points(result["max_score"])}.</p>')
    body += [_part_section(result, p, title) for p, title in assignment.parts.items()]
    body += [_hand_section(item) for item in hand_graded]
    body.append(
        "<footer>Each part is graded on its own, so a bug in one part does not cost points "
        "in another: wherever the graded part uses another part (a base class, a helper "
        "function, a tokenizer it builds), the reference version stands in for the names the "
        "specification lists there, while your own constants, helpers and extra methods are "
        "kept. A part that passed every one of its tests runs as you wrote it in the parts "
        "graded after it.</footer>"
    )
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(assignment.title)} feedback: {sid}</title>\n<style>{CSS}</style>\n"
        "</head>\n<body><main>\n" + "\n".join(body) + "\n</main></body>\n</html>\n"
    )


def write_feedback(result: SubmissionResult, path: Path, assignment: Assignment,
                   hand_graded: Sequence[HandGraded] = (), overall: Overall | None = None) -> Path:
    """Write ``feedback.html`` (or the hand-off's page, with ``hand_graded`` and ``overall``)."""
    page = feedback_html(result, assignment, hand_graded, overall)
    Path(path).write_text(page, encoding="utf-8")
    return Path(path)
