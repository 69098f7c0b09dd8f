#!/usr/bin/env bash
# Peer bench: glpool against ONNX Runtime on the same CPU, the same models,
# weights and inputs -> bench/reports/vs_onnxruntime.md. Builds what it needs.
#   bash bench/vs_onnxruntime.sh [--only mobilenet_v2,ppocr] [--objects textures|buffers|arena] [--rounds N] [--runs N] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
NPM="$HOME/.cache/glpool/npm/node_modules"
if [ ! -d "$NPM/onnxruntime-node" ]; then
  echo "vs_onnxruntime: $NPM/onnxruntime-node is missing: fetch it with 'bash scripts/fetch-models.sh'" >&2
  exit 1
fi
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build --target glpool glpool_fill_random_weights >/dev/null
WORK="${TMPDIR:-/tmp}/glpool_vs_onnxruntime"
mkdir -p "$WORK"
NODE_PATH="$NPM" exec /usr/bin/python3 bench/peer/vs_onnxruntime.py \
  --glpool build/samples/glpool --fill-tool build/bench/glpool_fill_random_weights \
  --work "$WORK" --out bench/reports/vs_onnxruntime.md "$@"
