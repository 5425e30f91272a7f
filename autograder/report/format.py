"""Formatting shared by the reports: points, percentages, and untrusted text.

Student IDs, file names and messages can hold anything a student typed (an
exception message, a folder name), so every report passes them through one of
the escapes here before they reach Markdown or a terminal.
"""

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~>-])")


def points(value: float) -> str:
    """A score as a short number: ``12.5``, ``15``, ``3.33``."""
    return f"{round(float(value), 2):g}"


def percent(part: float, whole: float) -> str:
    """``part / whole`` as a whole percentage; ``-`` when ``whole`` is 0."""
    return f"{100 * part / whole:.0f}%" if whole else "-"


def one_line(text: str, limit: int = 200) -> str:
    """Collapse whitespace and control characters; cut to ``limit`` characters."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def md(text: str, limit: int = 200) -> str:
    """Untrusted text as inert Markdown on one line: no HTML, links or table breaks."""
    flat = one_line(text, limit)
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", flat)
