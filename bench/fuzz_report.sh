#!/usr/bin/env bash
# Writes bench/reports/fuzz.md: every fuzz target run with libFuzzer (ASan +
# UBSan build) until it has executed RUNS inputs (default 1,000,000) or
# spent SECONDS (default 3600), two targets at a time, from fresh scratch
# corpora seeded as CI seeds them. The report gives per target the inputs
# run, the time, libFuzzer's coverage (cov: edges) and the crashes, hangs
# and out-of-memory inputs found (their files stay under
# BUILD/fuzz-work/<target>/).
#
#   bash bench/fuzz_report.sh [RUNS] [SECONDS]
#
# GLPOOL_FUZZ_BUILD names an existing clang build with GLPOOL_SANITIZE and
# GLPOOL_LIBFUZZER on (default: build-sanitize, configured as
# scripts/sanitize.sh configures it).
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD"
runs="${1:-1000000}"
seconds="${2:-3600}"
build="${GLPOOL_FUZZ_BUILD:-build-sanitize}"
targets=(records onnx tensor_pb image tflite)

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLPOOL_SANITIZE=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DGLPOOL_LIBFUZZER=ON > /dev/null
fi
cmake --build "$build" -j "$(nproc)" --target $(printf 'libfuzzer_%s ' "${targets[@]}")
bash scripts/fuzz_seeds.sh "$build/fuzz-seeds"

results="$build/fuzz-report"
rm -rf "$results"
mkdir -p "$results"
started=$(date -u +%Y-%m-%dT%H:%MZ)
# Two at a time: the slowest (onnx) beside the others in turn.
(bash scripts/fuzz_run.sh "$build" onnx "$seconds" "$runs" "$build/fuzz-seeds" > "$results/onnx.txt" 2>&1 || true) &
onnx_pid=$!
for target in records tensor_pb image tflite; do
  bash scripts/fuzz_run.sh "$build" "$target" "$seconds" "$runs" "$build/fuzz-seeds" > "$results/$target.txt" 2>&1 || true
done
wait "$onnx_pid"

field() { grep -oE "$2=[^ ]+" "$results/$1.txt" | head -n 1 | cut -d= -f2; }
{
  echo "# Fuzzing report"
  echo
  echo "Produced by \`bash bench/fuzz_report.sh $runs $seconds\` (started $started) on $(nproc) cores"
  echo "shared with other work; clang $(clang++ --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1),"
  echo "libFuzzer, AddressSanitizer + UndefinedBehaviorSanitizer (every report fatal)."
  echo "Each target starts from a fresh scratch corpus seeded with tests/fuzz/corpus, the"
  echo "regressions and scripts/fuzz_seeds.sh's seeds, and stops at $runs inputs or $seconds s."
  echo "Limits: -timeout=10 s per input; one allocation of at most 2 GiB; 2 GiB RSS (onnx: 4 GiB,"
  echo "its random weights are capped at 64 MiB each and constant folding at 2^22 elements)."
  echo
  echo "| target | inputs run | time (s) | coverage (cov: edges) | crashes + hangs + OOMs |"
  echo "|---|---:|---:|---:|---:|"
  for target in "${targets[@]}"; do
    if grep -q "^fuzz $target:" "$results/$target.txt"; then
      echo "| $target | $(field "$target" inputs) | $(field "$target" seconds) | $(field "$target" cov) | $(field "$target" crashes) |"
    else
      echo "| $target | (did not finish: see $results/$target.txt) | | | |"
    fi
  done
  echo
  echo "What each target runs (tests/fuzz/README.md):"
  echo "- records: usage records JSON -> every shared-objects, extents and offsets strategy -> verifier;"
  echo "- onnx: model bytes (structure-aware mutation) -> import -> graph passes -> compile -> records -> plans;"
  echo "- tensor_pb: serialized TensorProto -> ParseTensorProtoBytes;"
  echo "- image: image bytes -> DecodeImageInput (stb_image) -> resize (stretch, keep-aspect, crop; RGB or BGR);"
  echo "- tflite: .tflite bytes -> flatbuffers verifier and listing (glpool inspect) -> import -> graph passes."
  echo
  failures=0
  for target in "${targets[@]}"; do
    if grep -q "FAILED" "$results/$target.txt" || ! grep -q "^fuzz $target:" "$results/$target.txt"; then
      [ "$failures" = 0 ] && echo "Failures, with the last lines of their logs:"
      failures=$((failures + 1))
      echo; echo '```'; tail -n 30 "$results/$target.txt"; echo '```'
    fi
  done
  [ "$failures" = 0 ] && echo "No target failed."
} > bench/reports/fuzz.md
cat bench/reports/fuzz.md
