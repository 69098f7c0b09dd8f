#!/usr/bin/env bash
# The main job on a fresh Debian machine: install what is missing, build, then
# show the GL context and plan a real network's memory with every strategy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/samples/glpool info
./build/samples/glpool plan --records ../shared/zoo/records/mobilenet_v2.json --strategy all
