#!/usr/bin/env python3
"""The layering check: every #include in the C++ sources respects the folders' dependency rule,
the way LLVM guards its library layering. Each folder's CMakeLists.txt states its rule; this
script makes the rule executable, so that a forbidden include fails CI instead of slowly
eroding the structure.

    check-layering.py REPO          check; exit 1 naming every forbidden include
    check-layering.py --self-test   plants forbidden includes in a scratch tree and checks that
                                    each one is caught (and that a clean tree passes)

An include names another folder when it is "llcheck/<lib>/..." (a library's public headers) or
when, quoted, it resolves to a file of that folder (relative to the including file, or through
a folder's include or source directory). Third-party headers are confined too: z3++.h to
prover/, CLI11 to cli/, rapidcheck to fuzz/ (and bench/, which times the laws), pybind11 to
python/, GoogleTest to the tests folders, Google Benchmark to bench/, CUDA and HIP to
gpu_oracle/.

core/ is four libraries, each a layer of its own: core/algebra (the C++ standard library only),
core/encodings (algebra), core/formats (algebra, encodings), core/analysis (all three); a folder
allowed core may use all four, and core/tests tests all four. An `llcheck/core/...` include names
the library whose include directory holds that header.

tests/support/ holds the brute-force references that tests, the fuzz laws and benchmarks share
(the reference evaluator, the bank simulator, the ldmatrix emulator, the test layout
generator): it may include core only, and core's library never includes it (core's tests do).

Known exceptions are listed in EXCEPTIONS with their reason; an exception that no longer occurs
fails the check too, so that fixing one removes it from the list.
"""
import os
import re
import sys
import tempfile

# The libraries of core/, lowest first: each may include only those before it.
CORE_LAYERS = ["core/algebra", "core/encodings", "core/formats", "core/analysis"]
# Folder -> the folders its sources may include (its own always). Front ends are on top. "core"
# stands for all four core libraries (expanded below); the folder core/ itself holds their tests.
ALLOWED = {
    "core": set(CORE_LAYERS),
    "prover": {"core"},
    "gpu_oracle": {"core"},
    "reports": {"core", "prover"},
    "fuzz": {"core", "prover"},
    "verdict": {"core", "prover"},
    "cli": {"core", "prover", "verdict", "gpu_oracle", "reports", "fuzz"},
    "python": {"core", "prover", "verdict"},
    "bench": {"core", "prover", "fuzz", "tests/support"},
    "tests/support": {"core"},
}
# The fuzz laws check the algebra against tests/support's brute-force references.
ALLOWED["fuzz"].add("tests/support")
for _i, _layer in enumerate(CORE_LAYERS):
    ALLOWED[_layer] = set(CORE_LAYERS[:_i])
for _folder, _allowed in ALLOWED.items():
    if "core" in _allowed:
        _allowed |= set(CORE_LAYERS)
# Libraries that may include no third-party header, only the C++ standard library (<vector>, ...).
STD_ONLY = {"core/algebra", "core/encodings"}
# Libraries that live inside another folder (checked as their own layer): path -> name.
NESTED = {"prover/verdict": "verdict", "tests/support": "tests/support",
          **{layer: layer for layer in CORE_LAYERS}}
# A folder's tests may also use the shared test support (tests/support) and core's test helpers.
TEST_SUPPORT = {"core", "tests/support"}
# Where a quoted include can resolve, per folder (besides the including file's directory).
SEARCH = {
    "core": ["core/tests"],
    **{layer: [layer + "/include", layer + "/src"] for layer in CORE_LAYERS},
    "prover": ["prover/include", "prover/src", "prover/tests"],
    "verdict": ["prover/verdict/include", "prover/verdict/src"],
    "gpu_oracle": ["gpu_oracle/include", "gpu_oracle/src", "gpu_oracle/tests"],
    "reports": ["reports/include", "reports/src", "reports/tests"],
    "fuzz": ["fuzz", "fuzz/tests"],
    "cli": ["cli"],
    "python": ["python/src"],
    "bench": ["bench"],
    "tests/support": ["tests/support"],
}
PUBLIC = {"llcheck/core/": "core", "llcheck/prover/": "prover", "llcheck/gpu_oracle/": "gpu_oracle",
          "llcheck/reports/": "reports", "llcheck/verdict/": "verdict"}
THIRD_PARTY = [  # (header prefix, folders allowed to include it)
    ("z3++.h", {"prover"}), ("z3.h", {"prover"}),
    ("CLI/", {"cli"}),
    ("rapidcheck", {"fuzz", "bench"}),
    ("pybind11/", {"python"}),
    ("gtest/", {"tests"}), ("gmock/", {"tests"}),
    ("benchmark/", {"bench"}),
    ("cuda", {"gpu_oracle"}), ("hip/", {"gpu_oracle"}),
]
EXCEPTIONS = {
    # (file, include): reason, for an include the rule forbids but the design keeps.
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
SOURCES = (".h", ".hpp", ".cpp", ".cu")


def folder_of(rel):
    for path, name in NESTED.items():
        if rel.startswith(path + "/"):
            return name
    top = rel.split("/", 1)[0]
    return top if top in ALLOWED else None


def public_library(repo, header):
    """The library an `llcheck/<lib>/...` include names, or None; for core, the core library
    whose include directory holds the header ("core" when none does)."""
    lib = next((lib for p, lib in PUBLIC.items() if header.startswith(p)), None)
    if lib == "core":
        lib = next((layer for layer in CORE_LAYERS
                    if os.path.isfile(os.path.join(repo, layer, "include", header))), "core")
    return lib


def resolve(repo, rel_file, header):
    """The folder a quoted include resolves to, or None (a system or third-party header)."""
    here = os.path.dirname(os.path.join(repo, rel_file))
    candidates = [os.path.normpath(os.path.join(here, header))]
    for folder, dirs in SEARCH.items():
        candidates += [os.path.join(repo, d, header) for d in dirs]
    for path in candidates:
        if os.path.isfile(path):
            return folder_of(os.path.relpath(path, repo).replace(os.sep, "/"))
    return None


def violations(repo):
    found, seen_exceptions = [], set()
    # Each library's folder once: a nested one inside another's (prover/verdict) is walked
    # with it, and folder_of tells its files apart.
    paths = {name: path for path, name in NESTED.items()}
    roots = [paths.get(f, f) for f in ALLOWED]
    roots = [r for r in roots if not any(r.startswith(o + "/") for o in roots if o != r)]
    for top in roots:
        for root, _dirs, files in os.walk(os.path.join(repo, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                rel = os.path.relpath(os.path.join(root, name), repo).replace(os.sep, "/")
                folder = folder_of(rel)
                in_tests = "/tests/" in "/" + rel
                with open(os.path.join(repo, rel), errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    quote, header = m.groups()
                    line = text.count("\n", 0, m.start()) + 1
                    target = public_library(repo, header)
                    if target is None and quote == '"':
                        target = resolve(repo, rel, header)
                    problem = None
                    if target is not None and target != folder:
                        allowed = ALLOWED[folder] | (TEST_SUPPORT if in_tests else set())
                        if target not in allowed:
                            problem = f"{folder}/ may not include {target}/"
                    if (folder in STD_ONLY and quote == "<" and ("/" in header or "." in header)):
                        problem = f"{folder}/ may include only the C++ standard library"
                    for prefix, where in THIRD_PARTY:
                        if header.startswith(prefix):
                            ok = folder in where or ("tests" in where and in_tests)
                            if not ok:
                                problem = f"{header} is confined to {', '.join(sorted(where))}"
                    if problem is None:
                        continue
                    if (rel, header) in EXCEPTIONS:
                        seen_exceptions.add((rel, header))
                        continue
                    close = '"' if quote == '"' else ">"
                    found.append(f"{rel}:{line}: #include {quote}{header}{close}: {problem}")
    for key, reason in EXCEPTIONS.items():
        if key not in seen_exceptions and os.path.exists(os.path.join(repo, key[0])):
            found.append(f"{key[0]}: the listed exception '#include {key[1]}' ({reason}) no "
                         "longer occurs: remove it from EXCEPTIONS in scripts/check-layering.py")
    return found


def self_test():
    """A scratch tree with one allowed and several forbidden includes."""
    planted = {
        "core/analysis/src/A.cpp": '#include "llcheck/prover/Prover.h"\n',
        "core/formats/src/B.cpp": "#include <z3++.h>\n",
        "prover/src/C.cpp": '#include "llcheck/reports/Report.h"\n',
        "reports/src/D.cpp": '#include "../../cli/Batch.h"\n',
        "gpu_oracle/src/E.cpp": "#include <gtest/gtest.h>\n",
        "prover/src/F.cpp": '#include "llcheck/verdict/Conversion.h"\n',
        "python/src/G.cpp": '#include "../../cli/Batch.h"\n',
        "core/analysis/src/H.cpp": '#include "BankSimulator.h"\n',
        "tests/support/I.h": '#include "llcheck/prover/Prover.h"\n',
        "reports/src/J.cpp": '#include "BankSimulator.h"\n',
        # The layers of core: algebra including a formats header, encodings an analysis one,
        # formats an analysis one (through a quoted relative path), algebra a third-party header.
        "core/algebra/src/K.cpp": '#include "llcheck/core/Formats.h"\n',
        "core/encodings/include/llcheck/core/L.h": '#include "llcheck/core/conversion/Plan.h"\n',
        "core/formats/src/M.cpp": '#include "../../analysis/include/llcheck/core/conversion/Plan.h"\n',
        "core/algebra/src/N.cpp": "#include <nlohmann/json.hpp>\n",
    }
    clean = {
        "core/algebra/include/llcheck/core/X.h": "#include <vector>\n",
        "core/encodings/src/E.cpp": '#include "llcheck/core/X.h"\n',
        "core/formats/include/llcheck/core/Formats.h": '#include "llcheck/core/X.h"\n',
        "core/formats/src/F.cpp": '#include "llcheck/core/Formats.h"\n#include <nlohmann/json.hpp>\n',
        "core/analysis/include/llcheck/core/conversion/Plan.h": '#include "llcheck/core/Formats.h"\n',
        "core/analysis/src/P.cpp": '#include "llcheck/core/conversion/Plan.h"\n#include "Local.h"\n',
        "core/analysis/src/Local.h": "\n",
        "core/tests/plan_test.cpp": '#include "llcheck/core/conversion/Plan.h"\n',
        "prover/src/P.cpp": '#include "llcheck/core/X.h"\n#include <z3++.h>\n',
        "prover/tests/T.cpp": '#include "TestLayouts.h"\n#include <gtest/gtest.h>\n',
        "tests/support/TestLayouts.h": '#include "llcheck/core/X.h"\n#include <gtest/gtest.h>\n',
        "tests/support/BankSimulator.h": "\n",
        "core/tests/bank_test.cpp": '#include "BankSimulator.h"\n',
        "fuzz/laws/Reference.h": '#include "BankSimulator.h"\n',
        "cli/Batch.h": "\n",
        "prover/verdict/src/V.cpp": '#include "llcheck/prover/P.h"\n#include "llcheck/core/X.h"\n',
        "python/src/M.cpp": '#include "llcheck/verdict/Conversion.h"\n',
    }
    with tempfile.TemporaryDirectory() as repo:
        for files in (clean, planted):
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
                with open(os.path.join(repo, rel), "w") as f:
                    f.write(text)
            got = violations(repo)
            if files is clean:
                assert got == [], f"a clean tree was refused: {got}"
        caught = {v.split(":", 1)[0] for v in got}
        missed = set(planted) - caught
        assert not missed, f"forbidden includes not caught: {sorted(missed)}"
        assert len(got) == len(planted), got
    print(f"check-layering self-test: {len(planted)} forbidden includes caught, a clean tree passes")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    found = violations(sys.argv[1])
    for v in found:
        print(f"layering: {v}")
    if found:
        print(f"layering: {len(found)} forbidden includes (rule: scripts/check-layering.py)")
        return 1
    print(f"layering: every include respects the rule ({len(ALLOWED)} folders, "
          f"{len(EXCEPTIONS)} listed exceptions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
