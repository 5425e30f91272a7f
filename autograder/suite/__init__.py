"""The hidden test suite and its runner (``run.grade_file``).

The test modules (``test_part1.py`` ... ``test_part6.py``) run inside a pytest
process of their own (the *scoring process*), started by ``run.py`` with the
``plugin`` loaded. They never import or execute student code: every call goes
through a sandboxed worker (``autograder.sandbox``).
"""
