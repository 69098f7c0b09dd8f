#!/usr/bin/env bash
# Packs what bench/gpu_report.sh --bundle needs on a GPU machine that lacks
# the build's dependencies (no compiler, ONNX, protobuf or GLFW there):
# stripped glpool and kernel_tests with their shared libraries, real-weight
# models with ONNX Runtime's outputs (two shared models, PP-OCR's cases),
# the zoo graphs, ONNX's node test cases, and libglvnd's EGL/GLES packages
# for a machine whose image has no libEGL. About 40 MB.
#   bash bench/gpu/bundle.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:?usage: bash bench/gpu/bundle.sh DIR}"
PPOCR=build/tests/conformance/ppocr_cases
if [ ! -d "$PPOCR/rec" ]; then
  echo "bundle: $PPOCR is missing: run the test suite once (its ppocr_cases step makes it)" >&2
  exit 1
fi
cmake --build build --target glpool kernel_tests >/dev/null
rm -rf "$OUT" && mkdir -p "$OUT"
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/lib-fallback"
strip -o "$STAGE/bin/glpool" build/samples/glpool
strip -o "$STAGE/bin/kernel_tests" build/tests/kernels/kernel_tests
# Every library the two programs load but the C library's own; the C++
# runtime goes aside, used only where the GPU machine's is too old.
for lib in $(ldd "$STAGE/bin/glpool" "$STAGE/bin/kernel_tests" | awk '/=> \//{print $3}' | sort -u); do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) ;;
    libstdc++.so.*|libgcc_s.so.*) cp -L "$lib" "$STAGE/lib-fallback/" ;;
    *) cp -L "$lib" "$STAGE/lib/" ;;
  esac
done
tar -cJf "$OUT/programs.tar.xz" -C "$STAGE" bin lib lib-fallback
tar -cJf "$OUT/node.tar.xz" -C /usr/share/libonnx-testdata/data node
mkdir -p "$OUT/shared/models" "$OUT/shared/zoo" "$OUT/ppocr"
for model in squeezenet1_1 u2netp; do
  mkdir -p "$OUT/shared/models/$model"
  cp -r ../shared/models/$model/model.onnx ../shared/models/$model/test_data_set_0 "$OUT/shared/models/$model/"
done
cp ../shared/zoo/*.onnx "$OUT/shared/zoo/"
for case in det rec cls; do
  mkdir -p "$OUT/ppocr/$case"
  cp -rL "$PPOCR/$case/model.onnx" "$PPOCR/$case/test_data_set_0" "$OUT/ppocr/$case/"
done
mkdir -p "$OUT/debs"
(cd "$OUT/debs" && apt-get download libegl1 libglvnd0 libgles2 libopengl0 >/dev/null 2>&1) ||
  echo "bundle: apt-get download of libglvnd's packages failed; the GPU machine must have libEGL" >&2
du -sh "$OUT"
