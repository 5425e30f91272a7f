"""A two-part toy assignment: the engine's own fixture (``tests/test_engine.py``).

It has what every assignment has, in miniature: ``spec.py``, a reference package
(``reference/``, kept here instead of ``solutions/``) and hidden tests per part. Part 2
uses Part 1's function, so grading Part 2 exercises the stand-ins.
"""
