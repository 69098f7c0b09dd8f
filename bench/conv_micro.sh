#!/usr/bin/env bash
# Conv microbenchmark on this machine's GL driver: GFLOP/s for 1x1, 3x3,
# depthwise and strided shapes against the fp32 peak and ONNX Runtime
# -> bench/reports/conv_micro.md. Builds what it needs.
#   bash bench/conv_micro.sh [--runs N] [--objects textures|buffers|arena] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
NPM="$HOME/.cache/glpool/npm/node_modules"
if [ ! -d "$NPM/onnxruntime-node" ]; then
  echo "conv_micro: $NPM/onnxruntime-node is missing: fetch it with 'bash scripts/fetch-models.sh'" >&2
  exit 1
fi
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build --target glpool >/dev/null
WORK="${TMPDIR:-/tmp}/glpool_conv_micro"
mkdir -p "$WORK"
NODE_PATH="$NPM" exec /usr/bin/python3 bench/peer/conv_micro.py --glpool build/samples/glpool \
  --work "$WORK" --out bench/reports/conv_micro.md "$@"
