"""Checks on how the repository's tests are marked, made while pytest collects them."""

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked ``alone`` (it needs the machine to itself) must be marked ``slow`` too:
    ``make test`` leaves out only ``slow``, and would run it beside other tests."""
    lone = [item.nodeid for item in items
            if item.get_closest_marker("alone") and not item.get_closest_marker("slow")]
    if lone:
        raise pytest.UsageError(f"marked alone but not slow: {', '.join(lone[:5])}")
