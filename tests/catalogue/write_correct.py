"""Write an assignment's correct catalogue submissions as files, for the engine's tools.

``make call-costs`` grades them with the reference (``autograder/validity/call_costs.py``);
the engine never imports the catalogue, so it reads them as plain submissions::

    .venv/bin/python -m tests.catalogue.write_correct NAME DIR
"""

import sys
from pathlib import Path

from .catalogue import catalogues
from .grading import correct_job


def main(name: str, folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    catalogue = catalogues()[name]
    for correct in catalogue.correct:
        if correct.name == "reference":  # the tool grades the reference itself
            continue
        job = correct_job(catalogue, correct)
        (out / f"{correct.name}{job.suffix}").write_text(job.source, encoding="utf-8")
        print(out / f"{correct.name}{job.suffix}")


if __name__ == "__main__":
    main(*sys.argv[1:])
