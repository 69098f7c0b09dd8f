#!/usr/bin/env bash
# Writes the larger fuzz seed corpora that are not committed, from data
# every checkout has: ../shared (zoo records, zoo graph-only models) and
# Debian's libonnx-testdata (one-node models and their .pb tensors).
#
#   bash scripts/fuzz_seeds.sh [OUT_DIR]      (default build/fuzz-seeds)
#
# Writes OUT_DIR/<target>/ for records, onnx, tensor_pb and image, and
# OUT_DIR/onnx_zoo/ with the zoo's graph-only models: those import with
# random weights of tens to hundreds of MB each, a tenth of a second to
# seconds per input, so they are replayed (CI) but not mutated. Files over
# 64 KiB are left out: libFuzzer mutates small inputs far faster, and a
# large model adds nodes, not new kinds of structure. Fails if a source is
# missing rather than fuzzing a thinner corpus without saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/fuzz-seeds}"
shared="$(cd .. && pwd)/shared"
testdata=/usr/share/libonnx-testdata/data
for source in "$shared/zoo/records" "$shared/zoo" "$testdata/node"; do
  [ -d "$source" ] || { echo "fuzz_seeds: $source is missing" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out"/{records,onnx,onnx_zoo,tensor_pb,image}

cp "$shared"/zoo/records/*.json "$shared"/zoo/challenging/*.json "$out/records/"
cp "$shared"/zoo/*.onnx "$out/onnx_zoo/"
# One file per backend case, named after the case: node/test_abs -> test_abs.onnx.
for model in "$testdata"/*/*/model.onnx; do
  case_dir="$(dirname "$model")"
  [ "$(stat -c %s "$model")" -le 65536 ] && cp "$model" "$out/onnx/$(basename "$case_dir").onnx"
  input="$case_dir/test_data_set_0/input_0.pb"
  if [ -f "$input" ] && [ "$(stat -c %s "$input")" -le 65536 ]; then
    cp "$input" "$out/tensor_pb/$(basename "$case_dir").pb"
  fi
done
# Images: the PNGs in the tree (docs), behind the image target's shape byte.
for png in docs/*.png; do
  [ -f "$png" ] && [ "$(stat -c %s "$png")" -le 65536 ] && { printf '\x2a'; cat "$png"; } > "$out/image/$(basename "$png")"
done
for target in records onnx onnx_zoo tensor_pb image; do
  echo "fuzz_seeds: $target: $(ls "$out/$target" | wc -l) seeds in $out/$target"
done
