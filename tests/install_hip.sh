#!/usr/bin/env bash
# Install what the HIP compile checks and the probe's build test drive: Debian's clang-22,
# llvm-22 (llvm-mc-22), lld-22 (clang links amdgcn code objects with it) and
# libamdhip64-dev (HIP's headers and runtime, ROCm 5.2 on Debian 12: old headers, which
# tests/external/test_hip_headers.py checks the emitted code compiles beside). Without a GPU the
# probe program then builds and runs, and says that no GPU is present
# (tests/formats/test_probe.py). Under CI=true the checks fail instead of skipping when these
# are missing, so CI runs this first.
#
#     bash tests/install_hip.sh            # apt; sudo when not root
set -euo pipefail
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
want=()
command -v clang-22 >/dev/null || want+=(clang-22)
command -v llvm-mc-22 >/dev/null || want+=(llvm-22)
command -v ld.lld-22 >/dev/null || want+=(lld-22)
[[ -e /usr/include/hip/hip_runtime.h ]] || want+=(libamdhip64-dev)
[[ -e /usr/lib/llvm-22/bin/clang-offload-bundler ]] || want+=(clang-tools-22)  # (HIP links through it)
if [[ ${#want[@]} -gt 0 ]]; then
    if ! command -v apt-get >/dev/null; then
        echo "install ${want[*]} with your package manager" >&2
        exit 1
    fi
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${want[@]}"
fi
clang-22 --version | head -1
