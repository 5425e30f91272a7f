"""Tests of the tokens-to-vectors reference (``solutions/tokens_to_vectors/``), Parts 1-3.

Each function is checked against a formulation written independently of it (a Python loop with
``math.sin``, complex multiplication for RoPE, ALiBi's published slopes, GPT-2's parameters
written out by shape) and against the spec's worked examples and properties.
``measure_tolerance.py`` measures how far correct float32 computations are from the float64
reference, which is what the grader's tolerance is built on.
"""
