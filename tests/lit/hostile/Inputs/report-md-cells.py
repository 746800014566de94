#!/usr/bin/env python3
"""Prints, for each table row of a Markdown file, how many cells it has: a `|` preceded by an
even number of backslashes separates cells (an odd number escapes it), as CommonMark/GFM read it.

usage: report-md-cells.py FILE     prints e.g. "cells: 2 2 2 4 4 4"
"""
import sys

counts = []
for line in open(sys.argv[1], encoding="utf-8"):
    if not line.startswith("|"):
        continue
    bars, backslashes = 0, 0
    for c in line.rstrip("\n"):
        if c == "|" and backslashes % 2 == 0:
            bars += 1
        backslashes = backslashes + 1 if c == "\\" else 0
    counts.append(str(bars - 1))
print("cells:", " ".join(counts))
