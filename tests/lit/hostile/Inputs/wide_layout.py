"""A Layout JSON with N register bits onto 64 output bits (each basis a distinct power of two in
dim0 or dim1): large enough that enumerating it needs gigabytes."""
import json
import sys

n = int(sys.argv[1])
bases = [[1 << i, 0] if i < 32 else [0, 1 << (i - 32)] for i in range(n)]
print(json.dumps({"ins": [{"name": "register", "size": 1 << n, "bases": bases}],
                  "outs": [{"name": "dim0", "size": 1 << 32}, {"name": "dim1", "size": 1 << 32}]}))
