# lit configuration for llcheck's command-line tests.
import os
import lit.formats

config.name = "llcheck"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.llcheck_bin), "..", "tests", "lit-out")
config.excludes = ["Inputs"]

config.substitutions.append(("%llcheck", config.llcheck_bin))
config.substitutions.append(("%corpus", os.path.join(config.source_root, "corpus", "layouts")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(
    ("%expect-exit", config.python + " " + os.path.join(config.test_source_root, "expect_exit.py")))
config.substitutions.append(("%python", config.python))
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
# expect_exit.py --max-rss-mb is skipped in the sanitizer build (AddressSanitizer inflates memory).
# The feature "sanitized" lets a test that is only a memory bound on a big input skip that build.
if getattr(config, "llcheck_sanitized", False):
    config.environment["LLCHECK_SANITIZED"] = "1"
    config.available_features.add("sanitized")

# `llcheck oracle` runs only where an NVIDIA GPU and the CUDA runner are: the feature "gpu".
import shutil
import subprocess
config.oracle_runner = os.path.join(os.path.dirname(config.llcheck_bin), "..", "gpu_oracle",
                                    "llcheck_oracle_runner")
config.substitutions.append(("%oracle-runner", config.oracle_runner))
config.substitutions.append(("%oracle-cases", os.path.join(config.source_root, "corpus", "oracle")))
if shutil.which("nvidia-smi") and os.path.exists(config.oracle_runner):
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0:
        config.available_features.add("gpu")

# A cuobjdump for report-cubin.test: the CUDA toolkit's, or the one Triton bundles (the
# virtualenvs `make test` sets up).
import glob
cuobjdump = shutil.which("cuobjdump") or next(iter(sorted(glob.glob(os.path.join(
    config.source_root, ".venv*", "lib", "python*", "site-packages", "triton", "backends",
    "nvidia", "bin", "cuobjdump")))), None)
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))
