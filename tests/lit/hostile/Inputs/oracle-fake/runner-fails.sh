#!/bin/sh
# A CUDA runner that fails at once (after reading nothing).
echo "oracle runner: no GPU" >&2
exit 1
