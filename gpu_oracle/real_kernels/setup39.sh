#!/usr/bin/env bash
# Here (no GPU): the Python that compile39.py runs in, .venv-triton-3.9-torch by default.
# Triton 3.9 compiles; torch 2.11, Liger-Kernel 0.8.5 and FlagGems 5.0.2 are only imported, for
# the kernels' modules. torch's wheel asks for Triton 3.6 and CUDA's pip packages: it is
# installed without its dependencies, with the three CUDA libraries its import loads that the
# CUDA toolkit here does not have (the rest come from /usr/local/cuda, through ldconfig).
set -euo pipefail
venv=${1:-.venv-triton-3.9-torch}
python3 -m venv "$venv"
pip=("$venv/bin/pip" install -q --disable-pip-version-check)
"${pip[@]}" triton==3.9.0 numpy==2.4.6 filelock==4.3.1 typing-extensions==4.16.0 sympy==1.14.0 \
  networkx==3.6.1 jinja2==3.1.6 fsspec==2026.9.0 packaging==26.4 pyyaml==6.0.4
"${pip[@]}" --no-deps torch==2.11.0 nvidia-cufile==1.15.1.6 nvidia-cusparselt-cu13==0.10.0 \
  nvidia-nvshmem-cu13==3.4.5 liger-kernel==0.8.5 flag-gems==5.0.2 sqlalchemy==2.0.48 \
  greenlet==3.5.6
"$venv/bin/python" -c 'import torch, triton, liger_kernel.ops.rms_norm; print("torch", torch.__version__, "triton", triton.__version__)'
