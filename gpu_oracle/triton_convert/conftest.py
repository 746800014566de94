"""Prints the measured comparison's summary after the tests (pytest's own summary follows).
The folder is a package (__init__.py) so that this conftest does not collide with
tests/triton's when both run in one pytest."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compare  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    if compare.SUMMARY:
        terminalreporter.section("llcheck's optimal plans vs Triton's conversions measured on a GPU")
        for line in compare.SUMMARY:
            terminalreporter.write_line(line)
