"""nbgrader configuration for the tokenization course.

The course directory is the repository root: instructors edit ``source/tokenization/``
and ``make release`` writes the student version to ``assignments/tokenization/``.
"""

import os

c = get_config()  # noqa: F821 (injected by nbgrader's config loader)

c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "tokenization-course"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "assignments"

# What a student sees in place of each "### BEGIN SOLUTION ... ### END SOLUTION" region
# (indented like the region) and in place of a written answer.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
c.ClearSolutions.begin_solution_delimeter = "BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "END SOLUTION"
c.ClearSolutions.enforce_metadata = True
