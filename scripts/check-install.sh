#!/usr/bin/env bash
# After the main build: installs glpool into a temporary prefix, builds and
# runs examples/embed against it twice (find_package, then pkg-config), and
# configures and builds the library alone with tests, samples and benches
# off (what a machine with only the library's dependencies can build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Objects of the library-only build are the main build's (same flags, paths
# relative to the repository, no build folder hashed, as scripts/build.sh
# compiles them): ccache reuses them.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
model="${GLPOOL_EMBED_MODEL:-$root/../shared/models/squeezenet1_1/model.onnx}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install build --prefix "$work/prefix" > "$work/install.log"
echo "check-install: installed into a temporary prefix ($(ls "$work/prefix/lib"/libglpool.so.* | head -1 | xargs basename))"

for mode in find_package pkg-config; do
  use_pc=OFF
  [ "$mode" = pkg-config ] && use_pc=ON
  PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" cmake -S examples/embed -B "$work/embed-$mode" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/prefix" -DEMBED_USE_PKG_CONFIG=$use_pc > "$work/embed-$mode.log"
  cmake --build "$work/embed-$mode" >> "$work/embed-$mode.log"
  echo -n "check-install: examples/embed via $mode: "
  "$work/embed-$mode/embed" "$model"
done

cmake -S . -B build-library-only -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGLPOOL_BUILD_TESTS=OFF -DGLPOOL_BUILD_SAMPLES=OFF -DGLPOOL_BUILD_BENCH=OFF > "$work/library-only.log"
cmake --build build-library-only -j "$(nproc)" >> "$work/library-only.log"
echo "check-install: library-only build (tests, samples, benches off): $(ls build-library-only/api/libglpool.so.*.*.* | xargs basename) built"
