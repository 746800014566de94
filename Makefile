# The front door. Every target does its own set-up (apt packages, configure), so a fresh
# Debian 12 machine needs nothing but `make run` or `make test`.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all setup configure build install run test test-sanitize bench fuzz fuzz-parsers fuzz-laws nightly nightly-laws nightly-parsers format format-check clean hip-check hwprobes-check

all: build

setup:
	@bash scripts/setup.sh

# Optimized, without debug information by default: -g is a third of the compile time, and
# `make run`'s first answer on 2 cores must come within 5 minutes (README). For a debugger:
# `make build OPT_FLAGS='-O2 -g -DNDEBUG'` (a tree configured before keeps its flags: set
# CMAKE_ARGS or remove $(BUILD)).
OPT_FLAGS ?= -O2 -DNDEBUG
$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$(OPT_FLAGS)" -DLLCHECK_WERROR=ON $(CMAKE_ARGS)

configure: setup $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The tool, the core library, its headers and the CMake package (find_package(llcheck), target
# llcheck::core) under PREFIX: docs/install.md.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The main job on the built-in corpus: verify every layout, one summary table each for the
# legal layouts (all must pass) and the deliberately illegal ones (all must be caught).
# It builds only the llcheck tool (what it runs), not the tests and benchmarks `make test` needs.
run: configure
	cmake --build $(BUILD) -j $(JOBS) --target llcheck
	$(BUILD)/cli/llcheck verify corpus/layouts/*.json
	@echo
	@for f in corpus/illegal/*.json; do \
	  $(BUILD)/cli/llcheck verify $$f >/dev/null 2>&1; rc=$$?; \
	  if [ $$rc -ne 1 ]; then echo "error: $$f should fail verification (exit 1), got exit $$rc"; exit 1; fi; \
	done
	@$(BUILD)/cli/llcheck verify corpus/illegal/*.json || [ $$? -eq 1 ]
	@echo "every layout in corpus/illegal/ was caught, as it must be"

# The C++ tests and lit (ctest), then llcheck against Triton itself on the conformance grid
# (pytest, in the virtualenvs that scripts/setup-python.sh keeps): once with Triton 3.9 (.venv,
# also the Python module's), once with Triton 3.6 (VENV_36, `llcheck batch --triton 3.6`;
# docs/triton-versions.md); then the Python module's tests (python/tests), and its Triton hook
# and llcheck.report again with Triton 3.6.
VENV ?= .venv
VENV_36 ?= .venv-triton-3.6
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@LLCHECK_VENV=$(VENV) bash scripts/setup-python.sh
	@LLCHECK_VENV=$(VENV_36) LLCHECK_REQUIREMENTS=tests/triton/requirements-3.6.txt bash scripts/setup-python.sh
	# The Python module, built once as a wheel (in VENV, which has the build requirements) and
	# installed into both virtualenvs, so that its Triton hook is tested with 3.6 too.
	rm -rf $(BUILD)/python-wheel/dist
	$(VENV)/bin/python -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
	  --config-settings=cmake.define.LLCHECK_LIBRARIES_FROM=$(abspath $(BUILD)) \
	  --config-settings=build-dir=$(abspath $(BUILD))/python-wheel/{wheel_tag} \
	  --wheel-dir $(BUILD)/python-wheel/dist .
	for venv in $(VENV) $(VENV_36); do \
	  $$venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --force-reinstall \
	    $(BUILD)/python-wheel/dist/llcheck-*.whl || exit 1; \
	done
	LLCHECK=$(BUILD)/cli/llcheck $(VENV)/bin/python -m pytest tests/triton gpu_oracle/triton_convert gpu_oracle/triton_coalescing gpu_oracle/wavefront_rule gpu_oracle/ldgsts_rule gpu_oracle/reduce_scratch gpu_oracle/real_kernels -q -p no:cacheprovider
	LLCHECK=$(BUILD)/cli/llcheck $(VENV_36)/bin/python -m pytest tests/triton/test_conformance.py tests/triton/test_sweep_against.py tests/triton/test_axis_info.py tests/triton/test_scratch_ops.py tests/triton/test_tma.py tests/triton/test_report_fix.py -q -p no:cacheprovider
	# Its own run: python/tests/conftest.py and tests/triton/conftest.py would both be the module
	# "conftest" in one pytest process, and tests/triton imports its conftest by that name.
	LLCHECK=$(BUILD)/cli/llcheck $(VENV)/bin/python -m pytest python/tests -q -p no:cacheprovider
	LLCHECK=$(BUILD)/cli/llcheck $(VENV_36)/bin/python -m pytest python/tests/test_triton.py -q -p no:cacheprovider

$(SAN_BUILD)/build.ninja: | setup
	cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLLCHECK_WERROR=ON \
	  -DCMAKE_CXX_COMPILER=clang++ -DLLCHECK_SANITIZE=ON -DLLCHECK_BUILD_BENCH=OFF \
	  "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g" $(CMAKE_ARGS)

test-sanitize: setup $(SAN_BUILD)/build.ninja
	cmake --build $(SAN_BUILD) -j $(JOBS)
	ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS)

# Benchmarks build in their own Release tree, so a test build with the suite off is no obstacle.
BENCH_BUILD ?= build-bench
bench: setup
	cmake -S . -B $(BENCH_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLCHECK_BUILD_BENCH=ON -DLLCHECK_BUILD_TESTS=OFF $(CMAKE_ARGS)
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target llcheck_bench
	$(BENCH_BUILD)/bench/llcheck_bench --benchmark_min_time=0.05 $(BENCH_ARGS)

# libFuzzer on every parser, FUZZ_SECONDS each, seeded with the corpus and the bad-input
# catalog: the six layout and module readers, and the readers of files from outside (sweep
# results and checkpoints, hwlayout results, cuobjdump's SASS). A crash, a sanitizer report or a broken round trip fails the target. With FUZZ_RUNS,
# each target must execute that many inputs (within FUZZ_SECONDS), split over FUZZ_PROCESSES
# processes: `make fuzz FUZZ_RUNS=10000000 FUZZ_PROCESSES=3 FUZZ_SECONDS=3600`. FUZZ_TARGETS
# (environment, default all nine) picks targets; FUZZ_CORPUS=DIR (environment) keeps each
# target's corpus in DIR/<target> for the next run to go on from.
FUZZ_RUNS ?= 0
FUZZ_PROCESSES ?= 1
$(FUZZ_BUILD)/build.ninja: | setup
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DLLCHECK_SANITIZE=ON -DLLCHECK_FUZZ=ON -DLLCHECK_BUILD_TESTS=OFF -DLLCHECK_BUILD_BENCH=OFF $(CMAKE_ARGS)

# Only the fuzz targets (and the libraries they link) are built. FUZZ_BUILD may name a
# tree configured without them, e.g. the sanitizer tree (`make fuzz FUZZ_BUILD=build-sanitize`,
# as .ci/run does, so CI compiles the sources with clang and the sanitizers once): they are
# switched on there first.
FUZZ_EXECUTABLES = fuzz_layout_json fuzz_triton_text fuzz_attribute fuzz_shape fuzz_ttgir fuzz_cute \
  fuzz_sweep_result fuzz_hwlayout_results fuzz_sass
fuzz: setup $(FUZZ_BUILD)/build.ninja
	cmake -S . -B $(FUZZ_BUILD) -DLLCHECK_FUZZ=ON > /dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_EXECUTABLES)
	bash scripts/run-fuzzers.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_RUNS) $(FUZZ_PROCESSES)

# The GPU oracle's kernel source must build for AMD too: compile it with Debian's hipcc (ROCm
# 5.2's clang-15) for the targets that ROCm supports, compile-only (no AMD GPU here).
HIP_ARCHS ?= gfx90a gfx940
hip-check:
	@command -v hipcc >/dev/null || bash scripts/setup.sh --hip
	hipcc -std=c++17 $(addprefix --offload-arch=,$(HIP_ARCHS)) -Wall -Werror -x hip \
	  -c gpu_oracle/runner/oracle_runner.cu -o $(BUILD)/oracle_runner_hip.o
	@echo "hip-check: gpu_oracle/runner/oracle_runner.cu compiles for $(HIP_ARCHS)"

# The instruction probes of `llcheck hwlayout` (gpu_oracle/instructions/probes.cu) compile for
# Hopper (sm_90a, for wgmma) wherever nvcc is: compile-only, no GPU needed. On the GPU machine
# `bash gpu_oracle/instructions/run.sh OUTDIR` builds and runs them.
hwprobes-check:
	@mkdir -p $(BUILD)
	nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I gpu_oracle/include \
	  -c gpu_oracle/instructions/probes.cu -o $(BUILD)/hwprobes.o
	@echo "hwprobes-check: gpu_oracle/instructions/probes.cu compiles for sm_90a"

fuzz-parsers: fuzz

# The law suite (fuzz/laws), time-boxed; failing cases are shrunk and saved in corpus/regressions/.
FUZZ_LAWS_SECONDS ?= 60
fuzz-laws: build
	$(BUILD)/cli/llcheck fuzz --time $(FUZZ_LAWS_SECONDS) $(FUZZ_LAWS_ARGS)

# The nightly run (.github/workflows/nightly.yml runs the two halves as separate jobs): the laws
# for NIGHTLY_SECONDS with a JUnit report (NIGHTLY_ARGS takes --shard I/N and --seed N), then
# every parser fuzz target (FUZZ_TARGETS picks) for NIGHTLY_PARSER_SECONDS each, going on from
# the corpus kept in NIGHTLY_CORPUS and leaving any crashing input in NIGHTLY_ARTIFACTS.
NIGHTLY_SECONDS ?= 3600
NIGHTLY_PARSER_SECONDS ?= 600
NIGHTLY_CORPUS ?= $(FUZZ_BUILD)/corpus
NIGHTLY_ARTIFACTS ?= $(FUZZ_BUILD)/artifacts
nightly: nightly-laws nightly-parsers

nightly-laws: build
	$(BUILD)/cli/llcheck fuzz --time $(NIGHTLY_SECONDS) --junit $(BUILD)/fuzz-junit.xml $(NIGHTLY_ARGS)

nightly-parsers:
	FUZZ_CORPUS=$(NIGHTLY_CORPUS) FUZZ_ARTIFACTS=$(NIGHTLY_ARTIFACTS) $(MAKE) fuzz \
	  FUZZ_SECONDS=$(NIGHTLY_PARSER_SECONDS)

# llcheck's own sources: not the vendored ones of third_party/, kept as their projects wrote them.
FORMAT_FILES = $$(git ls-files '*.h' '*.cpp' ':!:third_party/')
format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
