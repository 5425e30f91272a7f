"""Regrades as auditable events: what changed between two gradings, for whom, and why.

- ``folder``: read a report folder that ``grade`` wrote (grades.csv and every
  ``<student>/results.json``), refusing anything else;
- ``compare``: the differences between two such folders, per student and per test, with
  the reason each student's result changed (from the results' provenance);
- ``write``: ``regrade.csv``, ``regrade.md`` and the summary lines;
- ``history``: ``grade --out DIR`` keeps the previous reports in ``DIR/history/`` and
  tells each student's page what changed since their previous grade;
- ``command``: ``python -m autograder diff OLD NEW``.

It reads only the report files, never the cache or the submissions, so it compares
gradings made on other machines or by older graders too.
"""
