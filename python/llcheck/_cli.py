"""The `llcheck` command that pip installs (pyproject.toml's [project.scripts]): the llcheck command
line the wheel carries as llcheck/bin/llcheck, run in this process's place (os.execv), so that
its output, exit status and signals are the command line's own.

The command line and the module find libz3 as the z3-solver wheel installs it, beside llcheck
(site-packages/z3/lib, through their RPATH); where Python finds the z3 package elsewhere, its lib
folder is handed over here (LD_LIBRARY_PATH, for the command line; preloaded, for the module).
"""

import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def executable():
    """The installed command line, llcheck/bin/llcheck, or None where there is none (a source
    tree's python/llcheck)."""
    path = os.path.join(_HERE, "bin", "llcheck")
    return path if os.access(path, os.X_OK) else None


def z3_library_dir():
    """The lib folder of the z3 package Python would import (z3-solver's libz3), found without
    importing it; None where there is none, or where it is the one beside llcheck (found through
    RPATH already)."""
    try:
        spec = importlib.util.find_spec("z3")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    lib = os.path.join(list(spec.submodule_search_locations)[0], "lib")
    beside = os.path.join(os.path.dirname(_HERE), "z3", "lib")
    if not os.path.isdir(lib) or (os.path.isdir(beside) and os.path.samefile(lib, beside)):
        return None
    return lib


def main():
    path = executable()
    if path is None:
        sys.stderr.write(f"llcheck: error: this installation has no command line "
                         f"({_HERE}/bin/llcheck): `pip install .` installs one\n")
        return 3
    env = dict(os.environ)
    # `llcheck sweep --against triton` runs this helper (cli/SweepCommand.cpp).
    helper = os.path.join(_HERE, "sweep", "triton_layouts.py")
    if not env.get("LLCHECK_TRITON_HELPER") and os.path.isfile(helper):
        env["LLCHECK_TRITON_HELPER"] = helper
    lib = z3_library_dir()
    if lib:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (lib, env.get("LD_LIBRARY_PATH")) if p)
    os.execve(path, [os.path.basename(sys.argv[0]) or "llcheck"] + sys.argv[1:], env)
