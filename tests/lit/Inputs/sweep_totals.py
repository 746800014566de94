#!/usr/bin/env python3
"""Prints what a `llcheck sweep --format json` result says about the sweep, one "key value" a
line, leaving out what differs between runs of the same sweep (the time, the shard, how many
shard results were merged), so that two results of the same sweep compare with diff.

usage: sweep_totals.py RESULT.json
"""
import json
import sys

VARYING = {"seconds", "shard", "merged_shards"}

with open(sys.argv[1]) as f:
    result = json.load(f)
for key in sorted(result):
    if key not in VARYING:
        print(key, json.dumps(result[key], sort_keys=True))
