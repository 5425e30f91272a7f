"""The course's assignments, one folder each: ``spec.py`` and the hidden tests.

Nothing here is imported by the engine's modules: the engine is told which folder to
grade with (``autograder.assignment.load``). Student code never reads this folder.
"""
