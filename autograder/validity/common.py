"""What the validity tools share: which suite was measured, and when and on what machine
(which tests are timing tests is ``suite/timers.py``'s)."""

import datetime
import hashlib
import os
import platform
import subprocess

from ..assignment import REPO, Assignment


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO, text=True, capture_output=True).stdout
    except OSError:
        return ""


def suite_version(a: Assignment) -> str:
    """``HEAD`` and a fingerprint of the measured code (committed files + uncommitted diff):
    what decides the assignment's scores (``Assignment.decisive_paths``), reports aside.

    Two reports with the same fingerprint measured the same suite, whatever else was
    committed in between.
    """
    measured = [str(p.relative_to(REPO)) for p in a.decisive_paths() if p.is_relative_to(REPO)]
    # The reports themselves (MUTATION.md, TIMING.md) live in the hidden folder and decide
    # nothing: writing one must not make the suite it measured look changed.
    def decisive(lines: str) -> list[str]:
        return [line for line in lines.splitlines() if not line.endswith(".md")]

    trees = "\n".join(decisive(_git("ls-tree", "-r", "HEAD", "--", *measured)))
    changed = decisive(_git("diff", "HEAD", "--name-only", "--", *measured))
    diff = (_git("diff", "HEAD", "--", *changed) if changed else "") + "\n".join(
        decisive(_git("ls-files", "--others", "--exclude-standard", "--", *measured)))
    fingerprint = hashlib.sha1((trees + diff).encode()).hexdigest()[:10]
    head = _git("rev-parse", "--short", "HEAD").strip() or "unknown"
    dirty = " + uncommitted changes" if diff.strip() else ""
    return f"{head}{dirty}, suite fingerprint {fingerprint}"


def measured_on() -> str:
    """Today's date and this machine, as a report states them: measured figures mean
    little without the day and the machine (``2026-12-01, Linux, 2 CPUs (Intel Xeon ...),
    Python 3.11.7``)."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), "")
    except OSError:
        pass
    cpus = f"{os.cpu_count()} CPUs" + (f" ({model})" if model else "")
    return (f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d}, {platform.system()}, "
            f"{cpus}, Python {platform.python_version()}")


def same_suite(before: str, after: str) -> bool:
    """True when two ``suite_version`` strings have the same fingerprint."""
    return before.rsplit(" ", 1)[-1] == after.rsplit(" ", 1)[-1]
