#!/usr/bin/env bash
# Installs what is missing, builds, runs the whole test suite, then checks
# the install (examples/embed both ways, a library-only build). Window
# tests need an X display: when none is set, a private Xvfb is started for
# the run and stopped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says how long it took, so a slow CI run shows where its time went.
start=$(date +%s)
step_start=$start
step_done() {
  local now
  now=$(date +%s)
  echo "test.sh: $1 took $((now - step_start)) s ($((now - start)) s in all)"
  step_start=$now
}
bash scripts/install-deps.sh
step_done "install-deps"
bash scripts/build.sh
step_done "build"

xvfb_pid=""
cleanup() { if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
if [ -z "${DISPLAY:-}" ]; then
  for display in $(seq 90 120); do
    if [ ! -e "/tmp/.X11-unix/X$display" ] && [ ! -e "/tmp/.X$display-lock" ]; then break; fi
  done
  Xvfb ":$display" -screen 0 1280x1024x24 -nolisten tcp > /tmp/glpool-xvfb.log 2>&1 &
  xvfb_pid=$!
  export DISPLAY=":$display"
  # A busy machine (CI's may be) can take seconds to start it: wait up to
  # 30 s for the socket and as long again for a reply.
  for _ in $(seq 300); do
    [ -e "/tmp/.X11-unix/X$display" ] && break
    sleep 0.1
  done
  [ -e "/tmp/.X11-unix/X$display" ] || { echo "Xvfb did not start:"; cat /tmp/glpool-xvfb.log; exit 1; }
  # The socket can exist before the server answers: a window test that ran
  # first once failed with "Failed to open display". Wait for a reply.
  for _ in $(seq 300); do
    xdpyinfo -display ":$display" > /dev/null 2>&1 && break
    sleep 0.1
  done
  xdpyinfo -display ":$display" > /dev/null 2>&1 || { echo "Xvfb :$display does not answer:"; cat /tmp/glpool-xvfb.log; exit 1; }
fi

ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
step_done "ctest"

# ASan/UBSan build of the GL-free tests and the fuzz targets, with 30 s of
# fuzzing per target (scripts/sanitize.sh). GLPOOL_SKIP_SANITIZE=1 leaves it
# out for a quick local run, and says so.
if [ "${GLPOOL_SKIP_SANITIZE:-0}" = 1 ]; then
  echo "test.sh: sanitizer and fuzz step SKIPPED (GLPOOL_SKIP_SANITIZE=1)"
else
  bash scripts/sanitize.sh
fi
step_done "sanitize and fuzz"

bash scripts/check-install.sh
step_done "check-install"
