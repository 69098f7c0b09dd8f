#!/usr/bin/env bash
# Configures and builds glpool into ./build (Release with debug info).
set -euo pipefail
cd "$(dirname "$0")/.."
# With ccache (scripts/install-deps.sh installs it), paths relative to the
# checkout and no build folder in the hash, so another build folder of the
# same flags (check-install.sh's library-only build) or another checkout
# reuses these objects.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j "$(nproc)"
