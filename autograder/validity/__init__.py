"""Evidence that the hidden suite grades what it claims to grade.

Each tool takes ``--assignment NAME`` and writes its report into the assignment's
folder (``autograder/hidden/NAME/``), beside the assignment's own material it reads.

- ``mutation``: one-change mutants of the reference, graded as student submissions;
  writes ``MUTATION.md`` (``make mutation A=NAME``); survivors reviewed in ``survivors.py``.
- ``timing_stability``: the timing tests, repeated under CPU load, on the reference
  and on the slow variants of ``timing_variants.py``; writes ``TIMING.md``
  (``make timing-stability A=NAME``).
- ``common``: which tests are timing tests; which suite version a report measured.
"""
