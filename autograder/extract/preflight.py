"""Preflight: see your notebook the way the hidden grader will see it, before you submit.

Run it in a terminal next to your notebook (save the notebook first), for example::

    python preflight.py NAME.ipynb   (NAME: the notebook you hand in)

or run the notebook's last cell. It starts with its verdict and ends with a summary line;
in between it shows

1. statements the grader drops although kept code reads what they set: graded, that code
   fails with ``NameError``; and cells that are not valid Python;
2. imports graded code cannot make (it may import the standard library, numpy and regex);
3. the notebook's visible tests (its ``# Test:`` cells) run on the kept code alone, in a
   fresh Python process, as the grader runs your code: nothing else from your kernel;
4. what the grader keeps, one line per cell (imports, ``def``, ``class``, UPPER_CASE
   constants, names set to a literal value, and ``try``/``if`` blocks that only import,
   define, pass or raise; demos, prints and plots are not graded).

It holds no hidden tests and no reference solution: the hidden grader checks the same
behaviours more thoroughly, part by part, so passing here is necessary, not sufficient.
Exit status: 0 when nothing needs attention, 1 otherwise, 2 when the notebook cannot be read.
The notebook reader and the extraction rules are the grader's own code, copied in when the
course builds this file.
"""

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from .notebook import read_cells
from .rules import KEEP_RULE, is_test_cell, split_chunks, strip_ipython

# Seconds the visible tests may take in the fresh process.
TEST_TIMEOUT = 300
# Output lines are wrapped at spaces to this width: JupyterLab breaks longer ones mid-word.
WIDTH = 88


def notebook_cells(path: Path) -> list[tuple[int, str, bool]]:
    """``(cell number, source without IPython lines, is a test cell)`` of each code cell,
    read as the grader reads them (outputs skipped, the grader's size limits)."""
    with path.open("rb") as file:
        cells = read_cells(file, path.name)
    out = []
    for number, cell in enumerate(cells, start=1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        out.append((number, strip_ipython(source), is_test_cell(cell)))
    return out


# Runs in the fresh process: the kept statements, then each visible test cell in turn.
RUNNER = """
import json, sys, traceback
payload = json.load(open(sys.argv[1], encoding="utf-8"))

def where(exc):
    # " (cell 9, line 12)": the innermost line of the notebook in the traceback.
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith("<cell "):
            return " (%s, line %s)" % (frame.filename[1:-1].split(",")[0], frame.lineno)
    return ""

namespace = {"__name__": "submission"}
for st in payload["kept"]:
    try:
        exec(compile(st["source"], "<" + st["origin"] + ">", "exec"), namespace)
    except BaseException as exc:
        print(json.dumps({"load": st["origin"], "error": type(exc).__name__ + ": " + str(exc)
                          + where(exc)}))
for number, source in payload["tests"]:
    try:
        exec(compile(source, "<cell %d>" % number, "exec"), namespace)
        print(json.dumps({"test": number, "ok": True}))
    except BaseException as exc:
        print(json.dumps({"test": number, "ok": False,
                          "error": type(exc).__name__ + ": " + str(exc)[:300] + where(exc)}))
"""


def run_visible_tests(kept: list[dict], cells: list[tuple[int, str, bool]],
                      here: Path) -> list[dict]:
    """Run the visible tests on the kept code alone, in a fresh isolated process whose
    working folder is the notebook's (the tests read the files bundled beside it)."""
    tests = [(number, source) for number, source, is_test in cells if is_test]
    with tempfile.TemporaryDirectory() as folder:
        payload, runner = Path(folder, "payload.json"), Path(folder, "runner.py")
        payload.write_text(json.dumps({"kept": kept, "tests": tests}), encoding="utf-8")
        runner.write_text(RUNNER, encoding="utf-8")
        try:
            done = subprocess.run([sys.executable, "-I", str(runner), str(payload)], cwd=here,
                                  capture_output=True, text=True, timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            return [{"crash": f"the visible tests took more than {TEST_TIMEOUT} s"}]
    events = []
    for line in done.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue  # what the student's code printed
    if done.returncode != 0:
        events.append({"crash": f"the process stopped (exit status {done.returncode})"})
    return events


def test_title(source: str) -> str:
    first = source.strip().splitlines()[0] if source.strip() else ""
    return first.removeprefix("# Test:").strip() or "a visible test"


def wrap(text: str, indent: str = "  ") -> str:
    """``text`` as lines of at most ``WIDTH`` characters, broken only at spaces; a line
    that continues the one above starts with six spaces."""
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=" " * 6,
                         break_long_words=False, break_on_hyphens=False)


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary(tests: int, failed: int, notes: list[tuple[str, str]], loads: int) -> str:
    """One line: what needs attention, counted, or that nothing does."""
    kinds = [kind for kind, _ in notes]
    found = [f"{failed} of {tests} visible tests fail" if failed
             else f"all {tests} visible tests pass"]
    if kinds.count("dropped"):
        found.append(plural(kinds.count("dropped"), "dropped statement is",
                            "dropped statements are") + " used by graded code")
    if kinds.count("import"):
        found.append(plural(kinds.count("import"), "import", "imports") + " graded code "
                     "cannot make")
    if kinds.count("skipped"):
        found.append(plural(kinds.count("skipped"), "piece", "pieces") + " of code skipped "
                     "(not valid Python)")
    if loads:
        found.append(plural(loads, "kept statement fails", "kept statements fail") + " to load")
    return "; ".join(found)


def kept_by_cell(kept: list[dict]) -> list[str]:
    """The kept names folded to one line per cell."""
    cells: dict[str, list[str]] = {}
    for st in kept:
        cell = st["origin"].split(",")[0]
        cells.setdefault(cell, []).append(", ".join(st["names"]) or "(a block)")
    return [wrap(f"{cell}: {', '.join(names)}") for cell, names in cells.items()]


def report(name: str, kept: list[dict], notes: list[tuple[str, str]], events: list[dict],
           titles: dict[int, str]) -> tuple[str, bool]:
    """The text a student reads, and whether anything needs attention."""
    tests = [e for e in events if "test" in e]
    crashes = [e["crash"] for e in events if "crash" in e]
    loads = [e for e in events if "load" in e]
    failed = sum(not e["ok"] for e in tests) + len(crashes)
    line = summary(len(titles), failed, notes, len(loads))
    attention = bool(notes or loads or failed)
    if not attention:
        line += "; nothing needs attention"
    verdict = f"NEEDS ATTENTION: {line}." if attention else f"ready to submit: {line}."
    listed = [wrap(note) for kind, note in notes if kind != "import"]
    out = [wrap(f"Preflight of {name}: {verdict}", ""), "",
           "Dropped statements that kept code reads:", "\n".join(listed) or "  none", "",
           "Imports graded code cannot make:",
           "\n".join(wrap(note) for kind, note in notes if kind == "import") or "  none", "",
           "Loading the kept code alone, in a fresh process:",
           "\n".join(wrap(f"{e['load']}: {e['error']}") for e in loads) or "  ok", "",
           "Visible tests on the kept code alone:"]
    for event in tests:
        title = f"cell {event['test']}: {titles.get(event['test'], '')}"
        out.append(wrap(f"pass  {title}" if event["ok"] else f"FAIL  {title}: {event['error']}",
                        "  "))
    out += [wrap(crash) for crash in crashes]
    out += ["", wrap(f"Kept by the grader ({KEEP_RULE}), one line per cell:", ""),
            *kept_by_cell(kept), "",
            "The hidden grader checks the same behaviours more thoroughly, part by part.",
            wrap(f"Summary: {line}.", "")]
    return "\n".join(out), attention


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python preflight.py NOTEBOOK.ipynb")
        return 2
    path = Path(argv[0])
    try:
        cells = notebook_cells(path)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"{path}: cannot be read as a notebook ({exc}); save it and try again")
        return 2
    statements, notes = split_chunks([(source, f"cell {number}")
                                      for number, source, is_test in cells if not is_test])
    kept = [{"source": source, "origin": origin, "names": names}
            for source, origin, names in statements]
    events = run_visible_tests(kept, cells, path.resolve().parent)
    titles = {number: test_title(source) for number, source, is_test in cells if is_test}
    text, attention = report(path.name, kept, notes, events, titles)
    print(text)
    return 1 if attention else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
