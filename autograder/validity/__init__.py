"""Evidence that the hidden suite grades what it claims to grade.

- ``mutation``: one-change mutants of the reference, graded as student submissions;
  writes ``MUTATION.md`` (``make mutation``).
- ``timing_stability``: the timing tests, repeated under CPU load, on the reference
  and on deliberately quadratic variants; writes ``TIMING.md`` (``make timing-stability``).
- ``common``: which tests are timing tests; which suite version a report measured.
"""
