"""Build one assignment's ``autograder-<name>.zip`` for Gradescope (``make gradescope A=NAME``).

Gradescope wants ``setup.sh`` and ``run_autograder`` at the top of the zip; the
rest is what the grader needs at run time: the engine (the ``autograder`` package
with ``gradescope/requirements.txt``, its dependencies), this assignment's hidden
folder and its reference ``solutions/<name>/``, and ``autograder/gradescope/ASSIGNMENT``,
which names it. No other assignment, nothing for students, no repository tests, no
sample submissions.
"""

import argparse
import zipfile
from pathlib import Path

from ..assignment import HIDDEN, REPO, SOLUTIONS, Assignment, known, load

HERE = Path(__file__).resolve().parent
EXECUTABLE = 0o755 << 16
REGULAR = 0o644 << 16
NAME_FILE = "autograder/gradescope/ASSIGNMENT"


def _files(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]


def members(assignment: Assignment) -> list[tuple[Path | str, str]]:
    """(file on disk or its text, name in the zip) for everything the bundle holds."""
    files: list[tuple[Path | str, str]] = [
        (HERE / "setup.sh", "setup.sh"), (HERE / "run_autograder", "run_autograder"),
        (assignment.name + "\n", NAME_FILE)]
    others = [HIDDEN / name for name in known() if name != assignment.name]
    engine = [p for p in _files(REPO / "autograder")
              if not any(p.is_relative_to(o) for o in others)]
    for path in [*engine, SOLUTIONS / "__init__.py", *_files(assignment.reference)]:
        files.append((path, str(path.relative_to(REPO))))
    return files


def build(out: Path, assignment: Assignment) -> Path:
    """Write the zip with fixed timestamps, so the same tree gives the same bytes."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for source, name in members(assignment):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = EXECUTABLE if name in ("setup.sh", "run_autograder") else REGULAR
            info.compress_type = zipfile.ZIP_DEFLATED
            data = source.encode() if isinstance(source, str) else source.read_bytes()
            archive.writestr(info, data)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Build a Gradescope autograder zip.")
    parser.add_argument("--assignment", required=True, choices=known())
    parser.add_argument("--out", type=Path, help="default: autograder-<assignment>.zip")
    args = parser.parse_args(argv)
    out = build(args.out or REPO / f"autograder-{args.assignment}.zip", load(args.assignment))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB): upload it as the autograder of "
          f"{args.assignment}")


if __name__ == "__main__":
    main()
