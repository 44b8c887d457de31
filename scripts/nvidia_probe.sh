#!/bin/bash
# The NVIDIA fragment probe (docs/porting.md): generate the three CUDA programs, build them (sm_80
# and sm_89 as PTX only, so that the driver compiles them for the GPU at hand; sm_90a as
# machine code: wgmma needs it), run them and write tests/data/nvidia/hardware_sm*.json.gz
# (raw words; tests/layouts/test_nvidia.py reads them). Needs nvcc and an sm_90 GPU (H100/H200).
#   scripts/nvidia_probe.sh [OUTDIR]        (default: a temporary folder)
# The records in tests/data keep a subset of the wgmma N values (tests/data/README.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$(mktemp -d)}"
python3 "$here/nvidia_probe.py" --out "$out"
nvcc -O1 -gencode arch=compute_80,code=compute_80 "$out/probe_sm80.cu" -o "$out/p80"
nvcc -O1 -gencode arch=compute_89,code=compute_89 "$out/probe_sm89.cu" -o "$out/p89"
nvcc -O1 -gencode arch=compute_90a,code=sm_90a "$out/probe_sm90.cu" -o "$out/p90"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in 80 89 90; do
  "$out/p$t" | gzip -9 > "$out/nvidia_sm$t.json.gz"
done
echo "records in $out/nvidia_sm*.json.gz"
