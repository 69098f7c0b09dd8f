#!/usr/bin/env bash
# Writes the .tflite seeds of the tflite fuzz target (corpus/tflite/) from
# the JSON descriptions in tflite_seeds/, with flatc and the reader's own
# schema. Run from anywhere; the outputs are committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
schema="$here/../../gpu_backend/import/tflite/tflite_schema.fbs"
mkdir -p "$here/corpus/tflite"
for json in "$here"/tflite_seeds/*.json; do
  flatc -b -o "$here/corpus/tflite" "$schema" "$json"
  name="$(basename "$json" .json)"
  mv "$here/corpus/tflite/$name.bin" "$here/corpus/tflite/$name.tflite" 2>/dev/null || true
done
ls -l "$here/corpus/tflite"
