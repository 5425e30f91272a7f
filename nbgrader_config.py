"""nbgrader configuration for the tokenization course.

The course directory is the repository root: instructors edit ``source/<assignment>/``
and ``make release`` writes the student version to ``assignments/<assignment>/`` for
every assignment (``make release A=NAME`` for one).
"""

import os

c = get_config()  # noqa: F821 (injected by nbgrader's config loader)

c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "tokenization-course"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "assignments"
# Instructor tools beside a source notebook stay out of the release (make_parallel.py
# regenerates parallel.json with babel, make_data.py builds an assignment's data from the
# repository before `make release` copies it; students get the data).
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback",
                            "make_parallel.py", "make_data.py"]

# What a student sees in place of each "### BEGIN SOLUTION ... ### END SOLUTION" region
# (indented like the region) and in place of a written answer.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
c.ClearSolutions.begin_solution_delimeter = "BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "END SOLUTION"
c.ClearSolutions.enforce_metadata = True

# `nbgrader zip_collect tokenization`: files downloaded from an LMS go in
# downloaded/tokenization/archive/ (zips are unpacked), named as Canvas's "Download
# Submissions" names them: <name>_<user id>_<submission id>_<file>, with "LATE_" after the
# name for a late one (e.g. smithjane_LATE_1234_5678_tokenization.ipynb). <name> becomes the
# student id. For another LMS, change this pattern; it must name student_id and file_id.
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[^/_]+)_(?:LATE_)?\d+_\d+_(?P<file_id>[^/]+)$"  # on the whole path
)
c.FileNameCollectorPlugin.valid_ext = [".ipynb", ".py"]

# A class on one server shares an exchange folder (see docs/instructors.md): set
# c.Exchange.root here and in the students' Jupyter configuration, e.g. /srv/nbgrader/exchange.
