"""Write the small NormalizationTest subset these tests use, from Unicode's full file.

Run once by a maintainer, never by the tests (they read only the subset):

    python tests/data/make_normalization_subset.py PATH/NormalizationTest-14.0.0.txt

Keeps Unicode's header (the copyright and terms-of-use notice, and the format), every line
of Part 0 (specific cases) and Part 3 (PRI #29), and a deterministic sample of Part 1
(every 8th character) and Part 2 (every 4th canonical-order case), with the trailing
comment of each test line dropped: about a tenth of the 2.6 MB file.
"""

import sys
from pathlib import Path

OUT = Path(__file__).with_name("NormalizationTest-14.0.0-subset.txt")
EVERY = {"@Part0": 1, "@Part1": 8, "@Part2": 4, "@Part3": 1}


def subset(lines: list[str]) -> list[str]:
    """The header, each ``@Part`` line, and every n-th test line of each part (n in EVERY)."""
    kept, part, seen = [], None, 0
    for line in lines:
        if line.startswith("@Part"):
            part, seen = line.split()[0], 0
            kept.append(line)
        elif line.startswith("#") or not line.strip():
            if part is None:  # the header; comments between parts are dropped
                kept.append(line)
        else:
            if seen % EVERY[part] == 0:
                kept.append(line.split("#", 1)[0].rstrip())
            seen += 1
    return kept


def main(source: str) -> None:
    lines = Path(source).read_text(encoding="utf-8").splitlines()
    note = [
        "#",
        "# SUBSET for the production_tokenizers tests (tests/data/make_normalization_subset.py):",
        "# all of Part 0 and Part 3, every 8th line of Part 1, every 4th line of Part 2;",
        "# trailing comments removed. The full file is in Unicode's UCD 14.0.0.",
    ]
    body = subset(lines)
    first_part = next(i for i, line in enumerate(body) if line.startswith("@Part"))
    OUT.write_text("\n".join(body[:first_part] + note + body[first_part:]) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
