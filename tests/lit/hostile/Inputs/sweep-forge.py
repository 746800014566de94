"""Forges a sweep result or checkpoint (sweep-totals.test): sweep-forge.py IN OUT KEY=JSON...
sets each KEY to the JSON value (e.g. verify_failures=9223372036854775808) and writes OUT."""
import json
import sys

j = json.load(open(sys.argv[1]))
for arg in sys.argv[3:]:
    key, value = arg.split("=", 1)
    j[key] = json.loads(value)
with open(sys.argv[2], "w") as out:
    json.dump(j, out)
