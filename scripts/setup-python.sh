#!/usr/bin/env bash
# The Python environment of the Triton conformance tests: a virtualenv (default .venv, or
# $LLCHECK_VENV) with the pinned packages of tests/triton/requirements.txt (or
# $LLCHECK_REQUIREMENTS: `make test` also makes .venv-triton-3.6 from
# tests/triton/requirements-3.6.txt, one virtualenv per Triton version llcheck follows).
# Idempotent: once the requirements are installed it only compares a checksum.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${LLCHECK_VENV:-.venv}
requirements=${LLCHECK_REQUIREMENTS:-tests/triton/requirements.txt}

if [[ ! -x "$venv/bin/python" ]]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    # Debian's own python3 keeps venv in a separate package.
    rm -rf "$venv"
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
fi

stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [[ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]]; then
  echo "setup-python: installing $(grep -v '^#' "$requirements" | xargs) into $venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  echo "$want" >"$stamp"
fi
