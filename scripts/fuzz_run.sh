#!/usr/bin/env bash
# Fuzzes one target for a while with fresh mutation and prints one summary
# line: engine, inputs run, seconds, coverage, crashes. Used by
# scripts/sanitize.sh (CI, 60 s each) and bench/fuzz_report.sh (long runs).
#
#   bash scripts/fuzz_run.sh BUILD_DIR TARGET SECONDS [RUNS] [SEEDS_DIR]
#
# Uses BUILD_DIR/tests/fuzz/libfuzzer_TARGET when it was built (coverage-
# guided; coverage is libFuzzer's "cov:" edge count), else the standalone
# driver fuzz_TARGET (random mutation, no coverage figure). Starts from the
# committed corpus, the regressions and SEEDS_DIR/TARGET (scripts/
# fuzz_seeds.sh); new inputs go to a scratch folder, so every run is
# fresh. Stops at SECONDS or RUNS inputs, whichever comes first. A crash,
# hang (-timeout=10 s) or out-of-memory (one allocation past 2 GiB, or an
# RSS past 2 GiB, 4 GiB for onnx)
# leaves its input in BUILD_DIR/fuzz-work/TARGET/ and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
build="$1" target="$2" seconds="$3" runs="${4:-0}" seeds="${5:-}"
work="$build/fuzz-work/$target"
rm -rf "$work"
mkdir -p "$work/new"
inputs=("tests/fuzz/corpus/$target")
[ -d "tests/fuzz/regressions/$target" ] && inputs+=("tests/fuzz/regressions/$target")
[ -n "$seeds" ] && [ -d "$seeds/$target" ] && inputs+=("$seeds/$target")

# Per target: inputs no larger than the seeds that matter, so mutation stays
# fast (records and models mutate into more structure, not longer files).
case "$target" in
  records) flags=(-max_len=4096 -dict=tests/fuzz/records.dict -rss_limit_mb=2048) ;;
  # The onnx target fills random weights up to 64 MiB each and folds
  # constants up to 2^22 elements, so one allocation past 2 GiB is a finding.
  onnx) flags=(-max_len=16384 -malloc_limit_mb=2048 -rss_limit_mb=4096) ;;
  *) flags=(-max_len=16384 -rss_limit_mb=2048) ;;
esac

libfuzzer="$build/tests/fuzz/libfuzzer_$target"
standalone="$build/tests/fuzz/fuzz_$target"
status=0
if [ -x "$libfuzzer" ]; then
  engine=libFuzzer
  start=$(date +%s)
  "$libfuzzer" "${flags[@]}" -seed="${GLPOOL_FUZZ_SEED:-0}" -max_total_time="$seconds" -runs="$([ "$runs" = 0 ] && echo -1 || echo "$runs")" \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$work/" \
    "$work/new" "${inputs[@]}" > "$work/log.txt" 2>&1 || status=$?
  done_runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$work/log.txt" | grep -oE '[0-9]+$' || echo 0)
  # Wall time, also for a run a finding stopped early.
  took=$(( $(date +%s) - start ))
  coverage=$(grep -oE 'cov: [0-9]+' "$work/log.txt" | tail -n 1 | grep -oE '[0-9]+' || echo "?")
else
  engine="standalone driver (no libFuzzer build)"
  start=$(date +%s)
  "$standalone" -max_total_time="$seconds" -runs="$runs" -timeout=10 -artifact_prefix="$work/" \
    "${inputs[@]}" > "$work/log.txt" 2>&1 || status=$?
  took=$(( $(date +%s) - start ))
  replayed=$(grep -oE 'replayed [0-9]+' "$work/log.txt" | grep -oE '[0-9]+' || echo 0)
  mutated=$(grep -oE '[0-9]+ mutated inputs' "$work/log.txt" | grep -oE '^[0-9]+' || echo 0)
  done_runs=$((replayed + mutated))
  coverage="n/a"
fi
crashes=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
echo "fuzz $target: engine=$engine inputs=$done_runs seconds=$took cov=$coverage crashes=$crashes exit=$status"
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  echo "fuzz $target FAILED; last lines of $work/log.txt:"
  tail -n 40 "$work/log.txt"
  exit 1
fi
