"""The generated class: what an assignment provides, and how submissions are made from it.

An assignment provides ``bench_submissions.py`` in its folder, plain data:

- ``BUGS``: ``Bug``s, one plausible wrong answer each (an exact piece of the flattened
  reference and what replaces it, and the part that should lose points);
- ``HOSTILE``: ``Hostile`` edits, each ``"hanging"`` (an endless loop or a long sleep, in
  a graded call or at load) or ``"crashing"`` (``os._exit``, a memory hog, a
  segmentation fault), with a ``marker``: text only the hostile code holds;
- optional ``CORRECT_SAMPLE`` / ``STUB_SAMPLE``: the student folders of
  ``samples/submitted/`` whose file (notebook, else ``.py``) a correct or a stub
  submission copies. Without them, correct submissions are all the flattened reference
  as scripts, and a stub is the reference with every function body raising
  ``NotImplementedError`` and the plain constants gone (what a release notebook holds).

From it: correct submissions are the sample with a comment and a notes cell added (half
of them) or the flattened reference with cosmetic changes only (a header comment, ``# %%``
cells, extra blank lines); wrong ones the reference with one ``Bug``; stubs the stub
sample with a notes cell; hostile ones the reference with one ``Hostile`` edit. Each
generated submission keeps ``basis``, the text it was made from, so a test can check that
correct ones differ from it only cosmetically and hostile ones by their hostile code.
"""

import ast
import json
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from autograder.assignment import REPO, Assignment

SAMPLES = REPO / "samples" / "submitted"
# Share of each category in a generated class, in the order students are numbered.
MIX = {"correct": 0.50, "wrong": 0.25, "stub": 0.10, "hanging": 0.08, "crashing": 0.07}
HOSTILE = ("hanging", "crashing")


class Bug(NamedTuple):
    """One wrong answer: ``old`` (exactly once in the flattened reference) becomes ``new``."""

    variant: str
    part: int
    what: str
    old: str
    new: str


class Hostile(NamedTuple):
    """One hostile edit of the reference; ``marker`` is text only the hostile code holds."""

    variant: str
    category: str  # "hanging" or "crashing"
    what: str
    old: str
    new: str
    marker: str


@dataclass(frozen=True)
class Generated:
    """One generated submission: who, what kind, the file's name and text, and its basis."""

    student: str
    category: str
    variant: str
    what: str
    filename: str
    text: str
    basis: str  # the text it was made from (the reference or a sample's file)
    marker: str = ""  # hostile submissions: text only the hostile code contains


def material(assignment: Assignment) -> ModuleType:
    """The assignment's ``bench_submissions.py`` (its bugs and hostile edits), checked."""
    module = assignment.module("bench_submissions")
    if module is None:
        raise SystemExit(f"bench_batch: {assignment.name} has no bench_submissions.py in "
                         f"{assignment.folder}")
    bugs, hostile = list(module.BUGS), list(module.HOSTILE)
    if not bugs or {h.category for h in hostile} != set(HOSTILE):
        raise SystemExit(f"bench_batch: {assignment.name}'s bench_submissions.py needs BUGS "
                         f"and HOSTILE edits of both kinds ({', '.join(HOSTILE)})")
    return module


def allocate(count: int) -> dict[str, int]:
    """Submissions per category for a class of ``count`` (largest remainders, sums to count)."""
    exact = {cat: share * count for cat, share in MIX.items()}
    counts = {cat: int(value) for cat, value in exact.items()}
    by_remainder = sorted(MIX, key=lambda cat: (-(exact[cat] - counts[cat]), list(MIX).index(cat)))
    for cat in by_remainder[: count - sum(counts.values())]:
        counts[cat] += 1
    return counts


def reference_source(assignment: Assignment) -> str:
    """The assignment's whole reference as one file."""
    from autograder.sandbox.reference import reference_without

    return reference_without(assignment, 0)[0] + "\n"


def stub_source(reference: str) -> str:
    """The reference as a release holds it: every function raises ``NotImplementedError``,
    the top-level constants set to a literal are gone."""
    tree = ast.parse(reference)

    class Stub(ast.NodeTransformer):
        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
            node.body = [ast.Raise(ast.Call(ast.Name("NotImplementedError"), [], []))]
            return node

    tree.body = [node for node in tree.body if not (
        isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant))]
    return ast.unparse(ast.fix_missing_locations(Stub().visit(tree))) + "\n"


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


def tagged_script(source: str, title: str, student: str, style: int) -> str:
    """Cosmetic variations of a .py submission: a header, ``# %%`` cells, blank lines."""
    header = f"# {title} assignment, submitted by {student}\n"
    if style == 1:
        return header + as_cells(source)
    if style == 2:
        spaced = source.replace("\n\ndef ", "\n\n\ndef ").replace("\n\nclass ", "\n\n\nclass ")
        return header + spaced + f"\n# end of {student}'s submission\n"
    return header + source


def sample_file(assignment: Assignment, student: str) -> Path:
    """The one notebook (else .py) in ``samples/submitted/<student>/<assignment>/``."""
    folder = SAMPLES / student / assignment.name
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


def generate(assignment: Assignment, count: int) -> list[Generated]:
    """``count`` distinct submissions in the ``MIX`` proportions (deterministic)."""
    module = material(assignment)
    reference = reference_source(assignment)
    script = f"{assignment.name}.py"
    correct_sample = getattr(module, "CORRECT_SAMPLE", None)
    stub_sample = getattr(module, "STUB_SAMPLE", None)
    stub = sample_file(assignment, stub_sample) if stub_sample else None
    stub_basis = stub.read_text(encoding="utf-8") if stub else stub_source(reference)
    hostile = {cat: [h for h in module.HOSTILE if h.category == cat] for cat in HOSTILE}
    # Categories interleaved as in a real class (the batch grades in student_id order).
    plan = [(cat, i) for cat, n in allocate(count).items() for i in range(n)]
    random.Random(0).shuffle(plan)
    subs: list[Generated] = []
    for number, (category, i) in enumerate(plan, 1):
        student = f"s{number:03d}_{category}"
        if category == "correct" and correct_sample and i % 2 == 0:
            path = sample_file(assignment, correct_sample)
            name, text = tagged_notebook(path, student, comment=i % 4 == 0)
            subs.append(Generated(student, category, "sample", f"the sample {path.name}", name,
                                  text, path.read_text(encoding="utf-8")))
        elif category == "correct":
            style = (i // 2) % 3
            subs.append(Generated(
                student, category, f"script_style{style}",
                "the flattened reference, cosmetic changes only", script,
                tagged_script(reference, assignment.title, student, style), reference,
            ))
        elif category == "wrong":
            bug = module.BUGS[i % len(module.BUGS)]
            text = edit(reference, bug.old, bug.new, bug.variant)
            subs.append(Generated(student, category, bug.variant, f"Part {bug.part}: {bug.what}",
                                  script, tagged_script(text, assignment.title, student, 0),
                                  reference))
        elif category == "stub" and stub is not None:
            name, text = tagged_notebook(stub, student, comment=False)
            subs.append(Generated(student, category, "release",
                                  "the stub sample, a notes cell added", name, text, stub_basis))
        elif category == "stub":
            subs.append(Generated(student, category, "stubbed_reference",
                                  "every function raises NotImplementedError", script,
                                  f"# {student}\n{stub_basis}", stub_basis))
        else:
            h = hostile[category][i % len(hostile[category])]
            text = edit(reference, h.old, h.new, h.variant)
            subs.append(Generated(student, category, h.variant, h.what, script,
                                  tagged_script(text, assignment.title, student, 0), reference,
                                  h.marker))
    if len({s.text for s in subs}) != len(subs):
        raise AssertionError("two generated submissions have the same bytes")
    return subs


def write_tree(assignment: Assignment, subs: list[Generated], root: Path) -> Path:
    """Write ``root/submitted/<student>/<assignment>/<file>``; returns the submitted/ folder."""
    tree = Path(root) / "submitted"
    for sub in subs:
        folder = tree / sub.student / assignment.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / sub.filename).write_text(sub.text, encoding="utf-8")
    return tree
