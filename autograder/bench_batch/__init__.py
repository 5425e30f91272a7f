"""``make bench-batch A=NAME``: a generated class graded by the real CLI, timed and measured.

    .venv/bin/python -m autograder.bench_batch --assignment NAME [--count 200] [--jobs 2]

The engine's part of the benchmark, for any assignment: generating the class
(``make.py``), watching the CLI grade it (``measure.py``), reading what the reports say
about each submission (``outcomes.py``) and printing the figures (``summary.py``). An
assignment provides only what its submissions look like, in ``bench_submissions.py`` of
its folder (``make.py`` says what that file holds).

A class is 50% correct, 25% wrong (one plausible bug each), 10% stubs, 15% hanging or
crashing (8% and 7%), interleaved in a fixed shuffled order, every file distinct bytes
(the grader caches results by content). Only our own generated code runs in this
process; hostile submissions are only written to disk.
"""
