#!/usr/bin/env bash
# Every pool strategy on every shared model, on the GPU (llvmpipe here):
# the conformance test run with GLPOOL_SWEEP_EVERY_STRATEGY=1, so u2netp —
# which the test suite runs with naive and auto only, to keep it short —
# also runs with every strategy of every object kind, in fp32 and fp16.
# Each distinct plan's output must be bit-identical to naive's. Writes
# bench/reports/strategy_sweep.md. Usage:
#   bash bench/strategy_sweep.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
binary="$build/tests/conformance/conformance_tests"
[ -x "$binary" ] || { echo "missing $binary: build first (bash scripts/build.sh)" >&2; exit 1; }
out=bench/reports/strategy_sweep.md
xml=$(mktemp --suffix=.xml)
trap 'rm -f "$xml"' EXIT
started=$(date -u +%Y-%m-%dT%H:%MZ)
status=0
GLPOOL_SWEEP_EVERY_STRATEGY=1 "$binary" --gtest_filter='SharedModels/ModelsGpuTest.*' \
  --gtest_output="xml:$xml" > /dev/null 2>&1 || status=$?
python3 bench/gtest_report.py "$xml" "Every strategy on every shared model (GPU, llvmpipe)" \
  "bash bench/strategy_sweep.sh" "$status" \
  "Started $started: the conformance test \`SharedModels/ModelsGpuTest.*\` with GLPOOL_SWEEP_EVERY_STRATEGY=1." \
  "Per model, object kind and precision: naive's output against ONNX Runtime's (\`max_error\`), then every" \
  "strategy's plan; each distinct plan is run and its output compared bit for bit with naive's; a strategy" \
  "column says which strategy's identical plan it shared." > "$out"
cat "$out"
exit "$status"
