"""Write an assignment's catalogue submissions as files, for the engine's tools.

``make timing-stability`` grades the correct ones beside the reference, and the wrong ones
only a timing test catches (``Entry.timed``), each alone; ``make call-costs`` grades those
that score full marks, which its tool checks. The engine never imports the catalogue, so
it reads them as plain submissions::

    .venv/bin/python -m tests.catalogue.write_correct NAME DIR               # correct
    .venv/bin/python -m tests.catalogue.write_correct NAME DIR --full-marks  # no convention lost
    .venv/bin/python -m tests.catalogue.write_correct NAME DIR --timed       # timed wrong

A correct alternative that loses its convention test (``Correct.loses``) is the reference
with that one function written the other way, so the reference's costs stand for the rest.
"""

import sys
from pathlib import Path

from autograder.assignment import load

from .catalogue import catalogues, submission_source
from .grading import correct_job


def main(name: str, folder: str, which: str = "--correct") -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    catalogue = catalogues()[name]
    if which == "--timed":  # named by the entry: the tool reads the part from ``pN_``
        for entry in catalogue.entries:
            if entry.timed:
                path = out / f"{entry.name}.py"
                path.write_text(submission_source(load(name), entry.code), encoding="utf-8")
                print(path)
        return
    for correct in catalogue.correct:
        if correct.name == "reference":  # the tool grades the reference itself
            continue
        if which == "--full-marks" and correct.loses:
            continue
        job = correct_job(catalogue, correct)
        (out / f"{correct.name}{job.suffix}").write_text(job.source, encoding="utf-8")
        print(out / f"{correct.name}{job.suffix}")


if __name__ == "__main__":
    main(*sys.argv[1:])
