#!/usr/bin/env bash
# `pip install .` with no Debian library (issue 33): the repository's tracked files (a fresh
# clone's, with the working tree's uncommitted changes to them) installed into a fresh virtualenv
# by pip, with build isolation, while the build is told to ignore every library the system has:
# LLCHECK_BUNDLED_DEPS (third_party/'s nlohmann-json, CLI11 and RapidCheck; the z3-solver wheel's
# Z3), CMake's search prefixes /, /usr and /usr/local ignored, find_package of those libraries
# and of pkg-config disabled, pkg-config's search path emptied. Then it proves they were ignored:
#   - no object file read a header of a system package (ninja's record of every header each
#     compile read), and the ones that need them read third_party/'s and the z3-solver wheel's;
#   - the command line and the module link the z3-solver wheel's libz3, no system libz3, no
#     system RapidCheck;
#   - installed, ldd resolves libz3 to the virtualenv's z3 package and nothing else outside the
#     C and C++ runtimes;
# and that what pip installed works: `llcheck --help`, `llcheck verify` of a corpus layout (and of
# an illegal one, which must fail), and `import llcheck` from outside the source tree.
#
# Usage: scripts/check-pip-noapt.sh [WORK_DIR]   (default build-pip-noapt; emptied first)
# JOBS (default nproc) compile jobs; OPTIMIZE (e.g. -O0, as .ci/run passes) compiles with those
# flags instead of Release's -O3 -DNDEBUG. Needs the network for PyPI (scikit-build-core,
# pybind11 and z3-solver for the build, z3-solver for the virtualenv). On 2 cores (Debian 12,
# GCC 12) the install took 261 s in Release, 173 s at -O0; the checks take about a second.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${1:-build-pip-noapt}
rm -rf "$work"
mkdir -p "$work/src"
work=$(cd "$work" && pwd)
fail() {
  echo "check-pip-noapt: FAILED: $*" >&2
  exit 1
}

# The tracked files, as a fresh clone has them (uncommitted edits to them included; untracked
# files are not, as they would not be in a clone).
rev=$(git stash create 2>/dev/null || true)
git archive --format=tar "${rev:-HEAD}" | tar -x -C "$work/src"

python3 -m venv "$work/venv"
py=$work/venv/bin/python
start=$SECONDS
ignored='/;/usr;/usr/local'
defines=(LLCHECK_BUNDLED_DEPS=ON "CMAKE_IGNORE_PREFIX_PATH=$ignored" LLCHECK_CCACHE=OFF)
for pkg in PkgConfig nlohmann_json CLI11 rapidcheck Z3 fmt GTest benchmark; do
  defines+=("CMAKE_DISABLE_FIND_PACKAGE_$pkg=ON")
done
# Ninja always (from PyPI where the system has none): its log of each compile's headers is the
# proof below.
settings=(-C "build-dir=$work/build" -C build.verbose=true -C ninja.make-fallback=false)
if [[ -n "${OPTIMIZE:-}" ]]; then
  # Not Release's -O3 -DNDEBUG: what the check proves does not depend on it, and -O1 compiles in
  # about half the time.
  settings+=(-C cmake.build-type=Debug -C "cmake.define.CMAKE_CXX_FLAGS_DEBUG=$OPTIMIZE")
fi
for d in "${defines[@]}"; do settings+=(-C "cmake.define.$d"); done
PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-$(nproc)} \
  "$py" -m pip install -v --disable-pip-version-check "${settings[@]}" "$work/src" \
  >"$work/pip.log" 2>&1 || { tail -50 "$work/pip.log"; fail "pip install (log: $work/pip.log)"; }
echo "check-pip-noapt: pip install took $((SECONDS - start)) s"

# 1. Every header every compile read (ninja's deps log): none of a system package's.
ninja=$(command -v ninja || true)
if [[ -z "$ninja" ]]; then
  "$py" -m pip install -q --disable-pip-version-check ninja
  ninja=$work/venv/bin/ninja
fi
"$ninja" -C "$work/build" -t deps >"$work/deps.txt"
system_headers='^ *(/usr(/local)?/include/(nlohmann|CLI|rapidcheck|z3|gtest|gmock|benchmark|fmt)|/usr(/local)?/include/z3)'
if grep -E "$system_headers" "$work/deps.txt" | sort -u | head -5 | grep .; then
  fail "the compiles above read a system package's headers"
fi
grep -q "$work/src/third_party/nlohmann_json/include/nlohmann/json.hpp" "$work/deps.txt" ||
  fail "no compile read third_party's nlohmann/json.hpp"
grep -q "$work/src/third_party/CLI11/include/CLI/CLI.hpp" "$work/deps.txt" || fail "no compile read third_party's CLI/CLI.hpp"
grep -q "$work/src/third_party/rapidcheck/include/rapidcheck.h" "$work/deps.txt" || fail "no compile read third_party's rapidcheck.h"
grep -Eq 'site-packages/z3/include/z3\+\+\.h' "$work/deps.txt" || fail "no compile read the z3-solver wheel's z3++.h"
reading() { awk -v h="$1" '/^[^ ].*: #deps/ {o = $1} $0 ~ h {n[o] = 1} END {print length(n)}' "$work/deps.txt"; }
echo "check-pip-noapt: of $(grep -c ': #deps' "$work/deps.txt") compiles, none read a system package's header;" \
  "$(reading "$work/src/third_party/") read third_party/'s, $(reading 'site-packages/z3/include/') the z3-solver wheel's"

# 2. The link lines of the command line and of the module: the z3-solver wheel's libz3.
for target in llcheck _core; do
  # The rule of a target's link is named <LANG>_<KIND>_LINKER__<target>_<config>.
  line=$(awk -v t="_LINKER__${target}_(Release|Debug|RelWithDebInfo|MinSizeRel) " \
    '/^build / {keep = ($0 " ") ~ t} keep && /^ *LINK_LIBRARIES =/' "$work/build/build.ninja")
  [[ -n "$line" ]] || fail "no link line for $target in $work/build/build.ninja"
  grep -Eq 'site-packages/z3/lib/libz3\.so' <<<"$line" || fail "$target does not link the z3-solver wheel's libz3: $line"
  if grep -Eo '(-lz3|-lrapidcheck|-lfmt|/usr/lib[^ ]*|/lib/x86_64[^ ]*)' <<<"$line" | grep .; then
    fail "$target links a system library: $line"
  fi
  echo "check-pip-noapt: $target links $(grep -Eo '[^ ]*(libz3|rapidcheck)[^ ]*' <<<"$line" | grep -v rpath | sort -u | xargs)"
done

# 3. What pip installed, as the loader resolves it.
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
libz3=$(realpath "$(ls "$site"/z3/lib/libz3.so.* | head -1)")
for f in "$site"/llcheck/bin/llcheck "$site"/llcheck/_core*.so; do
  echo "check-pip-noapt: ldd ${f#"$work"/}"
  ldd "$f" >"$work/ldd.txt"
  sed 's/^/  /' "$work/ldd.txt"
  found=$(awk '/libz3/ {print $3}' "$work/ldd.txt")
  [[ -n "$found" && "$(realpath "$found")" == "$libz3" ]] ||
    fail "${f#"$work"/}: libz3 is ${found:-not found}, not the virtualenv's z3-solver's, $libz3"
  if grep -v -E 'linux-vdso|ld-linux|lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|libz3\.so' "$work/ldd.txt" | grep .; then
    fail "${f#"$work"/} needs a library beyond the C and C++ runtimes and z3-solver's libz3"
  fi
done

# 4. The installed command and module, from outside the source tree.
cd "$work"
layout=$(ls "$repo"/corpus/layouts/*.json | head -1)
illegal=$(ls "$repo"/corpus/illegal/*.json | head -1)
"$work/venv/bin/llcheck" --help >/dev/null || fail "llcheck --help"
"$work/venv/bin/llcheck" verify "$layout" || fail "llcheck verify ${layout#"$repo"/}"
status=0
"$work/venv/bin/llcheck" verify "$illegal" >/dev/null || status=$?
[[ $status -eq 1 ]] || fail "llcheck verify ${illegal#"$repo"/} exited $status, not 1"
# The module's verify, with Z3's proofs, is the installed command line's.
"$py" - "$work/venv/bin/llcheck" <<'EOF' || fail "import llcheck"
import json, subprocess, sys
import llcheck
assert llcheck.__file__.startswith(sys.prefix), llcheck.__file__
spec = ("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], "
        "order = [1, 0]}>")
def without_times(j):
    if isinstance(j, dict):
        return {k: without_times(v) for k, v in j.items() if k != "ms"}
    return [without_times(v) for v in j] if isinstance(j, list) else j
got = llcheck.verify(spec, shape=[64, 16])
assert got["properties"]["invertible"]["proof"]["result"] == "proven", got
cli = json.loads(subprocess.run([sys.argv[1], "verify", spec, "--shape", "64x16", "--format", "json"],
                                check=True, capture_output=True, text=True).stdout)
cli.pop("source", None)
assert without_times(got) == without_times(cli), (got, cli)
print(f"check-pip-noapt: import llcheck ({llcheck.__file__}): verify proven by Z3, as the command line's")
EOF
du -sh "$site/llcheck" | sed 's/^/check-pip-noapt: installed package /'
echo "check-pip-noapt: ok (pip install from a clean build folder: $((SECONDS - start)) s with the checks)"
