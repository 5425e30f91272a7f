"""Build ``autograder.zip`` for Gradescope (``make gradescope``).

Gradescope wants ``setup.sh`` and ``run_autograder`` at the top of the zip; the
rest is what the grader needs at run time: the ``autograder`` package (with the
hidden suite and ``gradescope/requirements.txt``, its dependencies) and the
reference ``solutions``. Nothing for students, no repository tests, no sample
submissions.
"""

import argparse
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PACKAGES = ("autograder", "solutions")
EXECUTABLE = 0o755 << 16
REGULAR = 0o644 << 16


def members() -> list[tuple[Path, str]]:
    """(file on disk, name in the zip) for everything the bundle holds."""
    files = [(HERE / "setup.sh", "setup.sh"), (HERE / "run_autograder", "run_autograder")]
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append((path, str(path.relative_to(REPO))))
    return files


def build(out: Path) -> Path:
    """Write the zip with fixed timestamps, so the same tree gives the same bytes."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, name in members():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = EXECUTABLE if name in ("setup.sh", "run_autograder") else REGULAR
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Build the Gradescope autograder zip.")
    parser.add_argument("--out", type=Path, default=REPO / "autograder.zip")
    out = build(parser.parse_args(argv).out)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB): upload it as the autograder")


if __name__ == "__main__":
    main()
