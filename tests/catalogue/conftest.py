"""The catalogue's one shared fixture: every catalogue submission graded once per session."""

import pytest

from .entries import ENTRIES
from .grading import CORRECT, correct_job, grade_all, plan_bundles, settings_from_env, write_report


@pytest.fixture(scope="session")
def catalogue_grades(tmp_path_factory):
    """``(job of each entry name, results by job key)``, graded in parallel on first use."""
    solo, workers, report = settings_from_env()
    jobs = plan_bundles(ENTRIES, solo=solo) + [correct_job(c) for c in CORRECT]
    results = grade_all(jobs, tmp_path_factory.mktemp("catalogue"), workers)
    if report:
        write_report(report, jobs, results)
    job_of = {entry.name: job for job in jobs for entry in job.entries}
    return job_of, results
