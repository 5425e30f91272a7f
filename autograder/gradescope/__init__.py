"""Step 6, scaling out: the same grader packaged as a Gradescope autograder.

``bundle.py`` builds ``autograder.zip`` (``make gradescope``); Gradescope runs
``setup.sh`` once and ``run_autograder`` per submission, which calls ``run.py``.
"""
