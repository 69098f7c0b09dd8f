#!/usr/bin/env bash
# Every MediaPipe .tflite network (scripts/fetch-models.sh) on the GPU in
# every object kind (textures, buffers, arena) and precision (fp32, fp16):
# naive against Arm NN's output or, where Arm NN 20.08 cannot run the
# network, glpool's CPU reference (1e-3 x max |ref| in fp32, 3e-2 in
# fp16), and every strategy bit-identical to naive. The conformance test
# with GLPOOL_EVERY_TFLITE_MODEL=1, one network at a time, smallest first;
# the report is rewritten after each, so a long run shows what it has done.
# Writes bench/reports/tflite_models_gpu.md.
#   bash bench/tflite_models_gpu.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
binary="$build/tests/conformance/conformance_tests"
[ -x "$binary" ] || { echo "missing $binary: build first (bash scripts/build.sh)" >&2; exit 1; }
out=bench/reports/tflite_models_gpu.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date -u +%Y-%m-%dT%H:%MZ)
models=(face_detection_short_range selfie_segmentation selfie_segmentation_landscape face_detection_full_range
        pose_landmark_lite pose_landmark_full pose_landmark_heavy)
status=0
xmls=()
done_count=0
for model in "${models[@]}"; do
  xml="$work/$model.xml"
  GLPOOL_EVERY_TFLITE_MODEL=1 "$binary" --gtest_filter="EveryMediaPipeModel/*/${model}_textures_*:EveryMediaPipeModel/*/${model}_buffers_*:EveryMediaPipeModel/*/${model}_arena_*" --gtest_output="xml:$xml" \
    > "$work/$model.log" 2>&1 || status=$?
  xmls+=("$xml")
  done_count=$((done_count + 1))
  list=$(IFS=,; echo "${xmls[*]}")
  python3 bench/gtest_report.py "$list" "MediaPipe networks on the GPU, every object kind and precision" \
    "bash bench/tflite_models_gpu.sh" "$status" \
    "Started $started on $(nproc) cores (llvmpipe), shared with other work; $done_count of ${#models[@]} networks done." \
    "Per network, object kind and precision: naive's outputs against the reference (\`reference\`: Arm NN's" \
    "outputs where scripts/tflite-oracle.py could make them, else glpool's CPU reference), \`max_error_K\` per" \
    "output K, tolerance 1e-3 x max |ref| (fp32) or 3e-2 x (fp16); then every strategy's outputs bit for bit" \
    "against naive's." > "$out"
  echo "tflite_models_gpu: $model done ($done_count of ${#models[@]})" >&2
done
cat "$out"
exit "$status"
