"""Similarity of submissions, part by part: ``python -m autograder similarity``.

The data path: ``documents`` (the code the grader keeps, one text per part; a large file
is first shortened by ``shorten``, a child process under extraction's limits) ->
``fingerprint`` (copydetect's tokens and winnowing) -> ``score`` (what similarity means,
which parts are short, the ranking) -> ``report`` (CSV, HTML, top 10); ``sides`` reads a
class in parallel, ``command`` is the CLI. Nothing here runs student code or judges it.
"""
