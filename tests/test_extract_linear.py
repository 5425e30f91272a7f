"""Extraction reads each statement of a cell from that statement's own lines.

A ``.py`` submission is one cell of hundreds of statements; when each statement's text
was cut from the whole cell, the work grew with statements x cell size (0.7 s of CPU for
the production reference as one file, every grading). Counted in characters handed to
``ast.get_source_segment``, not in seconds.
"""

import ast

from autograder.extract import extract


def test_each_statement_is_cut_from_its_own_lines(tmp_path, monkeypatch):
    lines = [f"NAME_{i} = {'x' * 80!r}  # a long line of its own\n" for i in range(300)]
    lines.insert(150, "@staticmethod\n")  # decorated: cut from its first decorator
    lines.insert(151, "def decorated(): return 1\n")
    source = "".join(lines)
    path = tmp_path / "many.py"
    path.write_text(source, encoding="utf-8")
    handed: list[int] = []
    segment = ast.get_source_segment

    def counting(text, node, **kwargs):
        handed.append(len(text))
        return segment(text, node, **kwargs)

    monkeypatch.setattr(ast, "get_source_segment", counting)
    code = extract(path)
    assert len(handed) == 301
    # What extraction returns (each statement's text after its blank lines), and each line
    # of the file once more (comments, line ends); before, each call got the whole file.
    bound = sum(len(s.source) for s in code.statements) + len(source)
    assert sum(handed) <= bound, f"{sum(handed)} characters read, {bound} expected at most"
    by_name = {name: s.source for s in code.statements for name in s.names}
    assert by_name["decorated"] == "\n" * 150 + "@staticmethod\ndef decorated(): return 1"
    assert by_name["NAME_299"] == "\n" * 301 + lines[301].split("  #")[0]
