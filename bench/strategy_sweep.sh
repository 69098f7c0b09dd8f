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
python3 - "$xml" "$started" "$status" > "$out" <<'EOF'
import sys
import xml.etree.ElementTree as ET
xml_path, started, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
print("# Every strategy on every shared model (GPU, llvmpipe)")
print()
print(f"Made by `bash bench/strategy_sweep.sh` (started {started}): the conformance test")
print("`SharedModels/ModelsGpuTest.*` with `GLPOOL_SWEEP_EVERY_STRATEGY=1`. Per model, object kind and")
print("precision: naive's output against ONNX Runtime's (max abs error), then every strategy's")
print("plan; each distinct plan is run and its output compared bit for bit with naive's, and")
print("strategies that gave a plan already run are listed with it.")
print()
print("| variant | result | time (s) | max error vs ORT | strategies sharing a plan |")
print("|---|---|---:|---:|---|")
for case in ET.parse(xml_path).getroot().iter("testcase"):
    name = case.get("name").split("/")[-1].split(" ")[0]
    failed = case.find("failure") is not None
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    shared = ", ".join(f"{k}: {v.replace('same plan as ', '= ')}" for k, v in props.items() if v.startswith("same plan"))
    print(f"| {name} | {'FAILED' if failed else 'passed'} | {float(case.get('time')):.1f} | "
          f"{props.get('max_error', '')} | {shared} |")
print()
print("Every variant passed." if status == 0 else f"The test binary exited with {status}: see the FAILED rows.")
EOF
cat "$out"
exit "$status"
