#!/usr/bin/env bash
# The memory table for each MediaPipe .tflite network: glpool's pool per
# object kind (shared buffers, one arena, 2D textures) and strategy beside
# naive and the lower bound, fp32, fused graph (what `glpool run` runs).
# Writes bench/reports/tflite_memory.md. Usage:
#   bash bench/tflite_memory_report.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build}"
mediapipe="${GLPOOL_CACHE:-$HOME/.cache/glpool}/npm/node_modules/@mediapipe"
out=bench/reports/tflite_memory.md
models=(face_detection/face_detection_short_range face_detection/face_detection_full_range
        selfie_segmentation/selfie_segmentation selfie_segmentation/selfie_segmentation_landscape
        pose/pose_landmark_lite pose/pose_landmark_full pose/pose_landmark_heavy)
{
  echo "# MediaPipe .tflite networks: pool memory per object kind and strategy"
  echo
  echo "Made by \`bash bench/tflite_memory_report.sh\` ($(date -u +%Y-%m-%d)). Each table is"
  echo "\`glpool plan MODEL.tflite\` (buffers and arena) and \`glpool plan MODEL.tflite --objects textures\`,"
  echo "the fused graph only; every plan is checked by the verifier (the verified column)."
  for model in "${models[@]}"; do
    file="$mediapipe/$model.tflite"
    [ -f "$file" ] || { echo "missing $file: run scripts/fetch-models.sh" >&2; exit 1; }
    echo
    echo "## $(basename "$model")"
    echo
    echo '```'
    "$build/samples/glpool" plan "$file" | awk '/^== fused/{on=1; next} on'
    "$build/samples/glpool" plan "$file" --objects textures | awk '/^== fused/{on=1} on'
    echo '```'
  done
} > "$out"
echo "wrote $out"
