#!/usr/bin/env bash
# The package test: installs llcheck into a prefix inside the build tree, builds the consumer
# project (tests/package/consumer) against it with find_package(llcheck), and checks that the
# consumer and the installed tool print the same layout for the same SPEC.
# Usage: run.sh BUILD_DIR SOURCE_DIR CXX_COMPILER
set -euo pipefail
build=$1 src=$2 cxx=$3
work=$build/tests/package
prefix=$work/prefix
rm -rf "$prefix" "$work/consumer"
step() { # step NAME LOG COMMAND...: runs COMMAND, and on failure shows its log
  local name=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1 || { echo "package: $name failed:"; cat "$log"; exit 1; }
}
step "cmake --install" "$work.install.log" cmake --install "$build" --prefix "$prefix"
for f in bin/llcheck include/llcheck/core/LinearLayout.h lib/cmake/llcheck/llcheckConfig.cmake; do
  [[ -e $prefix/$f ]] || { echo "package: $prefix/$f was not installed"; exit 1; }
done
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
step "configuring the consumer" "$work.configure.log" \
  cmake -S "$src/tests/package/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" -DCMAKE_PREFIX_PATH="$prefix"
step "building the consumer" "$work.build.log" cmake --build "$work/consumer"
status=0
for spec in \
  '#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>' \
  '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'; do
  if ! diff <("$prefix/bin/llcheck" layout "$spec" --shape 64x64) \
            <("$work/consumer/consumer" "$spec" 64x64); then
    echo "package: the consumer and the installed llcheck disagree on $spec"
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "package: installed to $prefix; the consumer built with find_package(llcheck) and agrees with bin/llcheck"
exit $status
