"""GPU machine: Triton 3.6's tutorial matmul (gpu_oracle/real_kernels/tutorial_matmul.py), one
configuration of the real-kernels corpus whose LDGSTS took fewer wavefronts than the source-aware
rule gives (fp16, 128 x 32 x 32 tiles, 4 warps, 4 stages: 4.25 an instruction at 512 x 512 x
1024, the rule 7.66), launched on shapes that vary only how many programs run and which of them
share a global line: M x N of 128 x 32 (one program), 512 x 32 (4, none sharing B's lines),
128 x 512 (16 sharing A's rows; B's 64-byte row halves read by neighbours), 512 x 512 (64), all at
K = 1024; and 512 x 512 at K = 64 and 256. Each output checked against float64. LAUNCH names one
(the ncu run profiles one process per shape)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "real_kernels"))
from tutorial_matmul import matmul  # noqa: E402

SHAPES = {"m128n32k1024": (128, 32, 1024), "m512n32k1024": (512, 32, 1024),
          "m128n512k1024": (128, 512, 1024), "m512n512k1024": (512, 512, 1024),
          "m512n512k64": (512, 512, 64), "m512n512k256": (512, 512, 256)}

out = os.environ.get("OUT", "/tmp/out")
name = os.environ["LAUNCH"]
M, N, K = SHAPES[name]
torch.manual_seed(M + N + K)
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = matmul(a, b, torch.float16, 128, 32, 32, 4, 4)
torch.cuda.synchronize()
ref = a.double() @ b.double()
err = ((c.double() - ref).norm() / ref.norm()).item()
print(json.dumps({"launch": name, "M": M, "N": N, "K": K, "rel_err": err,
                  "ok": err < 1e-2 and not torch.isnan(c).any().item(),
                  "a_ptr_mod_128": a.data_ptr() % 128, "b_ptr_mod_128": b.data_ptr() % 128}))
