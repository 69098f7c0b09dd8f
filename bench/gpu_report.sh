#!/usr/bin/env bash
# GPU bench: glpool on a real GPU through EGL's device platform (NVIDIA's
# headless path) -> bench/reports/gpu_<device>.md: correctness on the
# driver, ms per model pooled and naive, conv throughput against the fp32
# peak, PyTorch/cuDNN on the same shapes where torch is importable.
#   bash bench/gpu_report.sh [gpu_report.py options]        (this checkout's build)
#   bash bench/gpu_report.sh --bundle DIR [options]         (a machine without the build's
#        dependencies: DIR is what `bash bench/gpu/bundle.sh DIR` made on a build machine)
# No test depends on a GPU; this is a bench, run where one is lent.
set -euo pipefail
cd "$(dirname "$0")/.."
# NVIDIA container images keep the EGL vendor file beside the driver, where
# libglvnd does not look by default.
NV_EGL=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$NV_EGL" ] && ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1; then
  export __EGL_VENDOR_LIBRARY_FILENAMES="$NV_EGL"
fi
if [ "${1:-}" = "--bundle" ]; then
  BUNDLE="$(cd "$2" && pwd)"
  shift 2
  UNPACKED="${TMPDIR:-/tmp}/glpool_gpu_bundle"
  rm -rf "$UNPACKED" && mkdir -p "$UNPACKED"
  tar -xJf "$BUNDLE/programs.tar.xz" -C "$UNPACKED"
  tar -xJf "$BUNDLE/node.tar.xz" -C "$UNPACKED"
  export LD_LIBRARY_PATH="$UNPACKED/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # The build machine's C++ runtime, only where this one's is missing or older.
  if ldd "$UNPACKED/bin/glpool" | grep -q 'not found'; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$UNPACKED/lib-fallback"
  fi
  ARGS=(--glpool "$UNPACKED/bin/glpool" --kernel-tests "$UNPACKED/bin/kernel_tests" --shared "$BUNDLE/shared"
        --ppocr "$BUNDLE/ppocr" --node-cases "$UNPACKED/node" --command-line "bash bench/gpu_report.sh --bundle DIR")
else
  if [ ! -f build/build.ninja ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  fi
  cmake --build build --target glpool kernel_tests >/dev/null
  ARGS=(--glpool build/samples/glpool --kernel-tests build/tests/kernels/kernel_tests
        --ppocr build/tests/conformance/ppocr_cases --node-cases /usr/share/libonnx-testdata/data/node)
fi
# The conv cases are written with numpy and onnx: the first python3 that has them.
PYTHON=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import numpy, onnx' 2>/dev/null; then
    PYTHON="$(command -v "$candidate")"
    break
  fi
done
if [ -z "$PYTHON" ]; then
  echo "gpu_report: no python3 with numpy and onnx (Debian: python3-numpy python3-onnx)" >&2
  exit 1
fi
if "$PYTHON" -c 'import torch, torchvision; assert torch.cuda.is_available()' 2>/dev/null; then
  ARGS+=(--python "$PYTHON")
else
  echo "gpu_report: no torch with CUDA and torchvision in $PYTHON: the PyTorch columns stay empty" >&2
fi
exec "$PYTHON" bench/gpu/gpu_report.py "${ARGS[@]}" "$@"
