"""Reviewed survivors of the mutation run, keyed by ``Mutant.key``.

``EQUIVALENT``: the mutant behaves like the reference on everything the spec grades;
the reason says why in one line. ``NEEDS_TEST``: a real bug the hidden suite misses;
the text describes the hidden test that would catch it (to be added by the suite's
owner). A survivor in neither table is listed as *unreviewed* in ``MUTATION.md``.
"""

EQUIVALENT: dict[str, str] = {}

NEEDS_TEST: dict[str, str] = {}
