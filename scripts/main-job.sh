#!/usr/bin/env bash
# The main job on a fresh Debian machine: install what is missing, build the
# glpool command line, show the GL context, then run the demo: a network
# built in code, on the GPU, with every object kind and strategy, ending with
# the memory table and the path of the pool overlay PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build --target glpool -j "$(nproc)"
./build/samples/glpool info
./build/samples/glpool demo --overlay-png build/glpool_demo_overlay.png
