"""LLCHECK_REPORT_DIR=DIR python program.py: one report of every Triton kernel the program
compiles, written into DIR at exit (llcheck.triton). llcheck_report_dir.pth imports this module
when Python starts, and only when the variable is set."""
from .triton import _watch_from_environment

#: The watch the variable started (None where it could not: the reason is on stderr).
WATCH = _watch_from_environment()
