"""The catalogue's one shared fixture: each assignment's catalogue graded once per session."""

import pytest

from .catalogue import catalogues
from .grading import correct_job, grade_all, plan_bundles, settings_from_env, write_report


@pytest.fixture(scope="session")
def catalogue_grades(tmp_path_factory):
    """``grades(assignment name)``: ``(job of each entry name, results by job key)``,
    graded in parallel the first time an assignment's catalogue is asked for."""
    solo, workers, report = settings_from_env()
    done: dict[str, tuple[dict, dict]] = {}

    def grades(name: str) -> tuple[dict, dict]:
        if name not in done:
            catalogue = catalogues()[name]
            jobs = plan_bundles(catalogue, solo=solo)
            jobs += [correct_job(catalogue, c) for c in catalogue.correct]
            results = grade_all(jobs, tmp_path_factory.mktemp(f"catalogue-{name}"), workers)
            if report:
                write_report(report.replace(".json", f"-{name}.json"), jobs, results)
            done[name] = {e.name: job for job in jobs for e in job.entries}, results
        return done[name]

    return grades
