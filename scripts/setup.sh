#!/usr/bin/env bash
# Installs the Debian packages llcheck builds and tests with. Idempotent: when every
# package is present it only runs dpkg-query and returns in well under a second.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev pkg-config python3 python3-dev
  libz3-dev librapidcheck-dev libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev llvm-14-tools clang-format
)

# --hip: Debian's hipcc too (only `make hip-check` needs it).
# --chromium: Debian's chromium too (only the report.html rendering test needs it, and skips
# without it): ~120 MB to download and ~410 MB on disk; .ci/run asks for it, `make test` not.
for arg in "$@"; do
  case "$arg" in
  --hip) packages+=(hipcc) ;;
  --chromium) packages+=(chromium) ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
