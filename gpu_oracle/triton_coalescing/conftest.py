"""Prints the comparison's summary after the tests (pytest's own summary follows). The folder
is a package (__init__.py): this conftest and its compare module are imported as
triton_coalescing.*, apart from gpu_oracle/triton_convert's conftest and compare when both
run in one pytest."""
from . import compare


def pytest_terminal_summary(terminalreporter):
    if compare.SUMMARY:
        terminalreporter.section("llcheck coalescing vs Triton's own global loads and stores")
        for line in compare.SUMMARY:
            terminalreporter.write_line(line)
