#!/usr/bin/env bash
# Every MediaPipe .tflite network (scripts/fetch-models.sh) on the GPU in
# every object kind (textures, buffers, arena) and precision (fp32, fp16):
# naive against Arm NN's output or, where Arm NN 20.08 cannot run the
# network, glpool's CPU reference (1e-3 x max |ref| in fp32, 3e-2 in
# fp16), and every strategy bit-identical to naive. The conformance test
# with GLPOOL_EVERY_TFLITE_MODEL=1. Writes bench/reports/tflite_models_gpu.md.
#   bash bench/tflite_models_gpu.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
binary="$build/tests/conformance/conformance_tests"
[ -x "$binary" ] || { echo "missing $binary: build first (bash scripts/build.sh)" >&2; exit 1; }
out=bench/reports/tflite_models_gpu.md
xml=$(mktemp --suffix=.xml)
trap 'rm -f "$xml"' EXIT
started=$(date -u +%Y-%m-%dT%H:%MZ)
status=0
GLPOOL_EVERY_TFLITE_MODEL=1 "$binary" --gtest_filter='EveryMediaPipeModel/*' --gtest_output="xml:$xml" \
  > /dev/null 2>&1 || status=$?
python3 bench/gtest_report.py "$xml" "MediaPipe networks on the GPU, every object kind and precision" \
  "bash bench/tflite_models_gpu.sh" "$status" \
  "Started $started on $(nproc) cores (llvmpipe), shared with other work. Per network, object kind and precision:" \
  "naive's outputs against the reference (\`reference\`: Arm NN's outputs where scripts/tflite-oracle.py could make" \
  "them, else glpool's CPU reference), \`max_error_K\` per output K, tolerance 1e-3 x max |ref| (fp32) or 3e-2 x" \
  "(fp16); then every strategy's outputs bit for bit against naive's." > "$out"
cat "$out"
exit "$status"
