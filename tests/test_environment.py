"""environment.yml (conda) and pyproject.toml (pip) install the same packages, and both
pin what Gradescope's bundle pins to the same versions (so a fresh clone tests what
Gradescope runs, whatever PyPI released since)."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGES = {"python", "pip"}  # conda-only entries: the interpreter and its installer


def normalise(requirement: str) -> str:
    """``'Pytest_Timeout >=2 ; extra'`` -> ``'pytest-timeout'`` (PEP 503 names)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def pyproject_packages() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {normalise(r) for r in requirements}


def environment_packages() -> set[str]:
    """The entries of the ``dependencies:`` list, including a nested ``- pip:`` list."""
    names, inside = set(), False
    for raw in (ROOT / "environment.yml").read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not raw.startswith((" ", "-")):
            inside = line.strip() == "dependencies:"
            continue
        item = line.strip()
        if inside and item.startswith("- ") and item != "- pip:":
            names.add(normalise(item[2:]))
    return names - NOT_PACKAGES


def test_normalise():
    assert normalise("Pytest_Timeout>=2") == "pytest-timeout"
    assert normalise("nbgrader==0.9.6") == "nbgrader"
    assert normalise("jupyterlab>=4") == "jupyterlab"
    assert normalise("zope.interface ; python_version<'4'") == "zope-interface"


def test_environment_and_pyproject_list_the_same_packages():
    conda, pip = environment_packages(), pyproject_packages()
    assert "nbgrader" in pip and "ruff" in pip  # runtime and dev extras are both read
    assert conda == pip, f"only in environment.yml: {conda - pip}; only in pyproject: {pip - conda}"


def pip_pins(requirements: list[str]) -> dict[str, str]:
    """``{name: version}`` of the requirements pinned with ``==``."""
    found = {}
    for line in requirements:
        if line.strip() and not line.lstrip().startswith("#"):
            req = Requirement(line)
            found |= {normalise(req.name): s.version for s in req.specifier if s.operator == "=="}
    return found


def conda_pins() -> dict[str, str]:
    """``{name: version}`` of environment.yml's entries pinned with conda's ``=`` (or pip's
    ``==`` in its ``- pip:`` list)."""
    found = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        pinned = re.fullmatch(r"\s*- ([A-Za-z0-9._-]+)==?([^=<>!~\s]+)\s*", line.split("#", 1)[0])
        if pinned:
            found[normalise(pinned.group(1))] = pinned.group(2)
    return found


def test_pyproject_and_environment_pin_what_gradescope_pins():
    gradescope = pip_pins((ROOT / "autograder/gradescope/requirements.txt").read_text()
                          .splitlines())
    assert {"hypothesis", "pytest", "numpy", "regex"} <= set(gradescope)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert pip_pins(project["dependencies"]).items() >= gradescope.items()
    assert conda_pins().items() >= gradescope.items()


def test_each_notebooks_requirements_pin_what_the_grader_runs():
    """Every assignment declares its notebook's requirements beside its source notebook
    (``student_bundle``), and what it shares with the grader (numpy, regex) is pinned to
    the grader's version: student code behaves in the notebook as it is graded."""
    gradescope = pip_pins((ROOT / "autograder/gradescope/requirements.txt").read_text()
                          .splitlines())
    declared = {p.parent.name: p for p in (ROOT / "source").glob("*/requirements.txt")}
    assert sorted(declared) == sorted(p.parent.name for p in
                                      (ROOT / "autograder/hidden").glob("*/spec.py"))
    for path in declared.values():
        lines = path.read_text().splitlines()
        names = {normalise(line) for line in lines if line.strip() and not line.startswith("#")}
        shared = {n: v for n, v in gradescope.items() if n in names}
        assert "numpy" in shared, f"{path}: numpy (matplotlib's too) must be pinned"
        assert pip_pins(lines).items() >= shared.items(), f"{path}: pin {shared}"


def test_pyproject_and_environment_pin_the_same_versions():
    """A package pinned in one is pinned to the same version in the other (copydetect's
    fingerprints, babel's CLDR data: a new release changes what the course computes)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pip = pip_pins(project["dependencies"] + sum(project["optional-dependencies"].values(), []))
    assert "copydetect" in pip
    conda = {name: v for name, v in conda_pins().items() if name not in NOT_PACKAGES}
    assert conda == pip
