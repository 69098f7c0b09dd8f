// Runs one ONNX model with ONNX Runtime (onnxruntime-node, CPU, graph
// optimisations off) on given inputs and writes its outputs: the oracle
// behind the test cases glpool's scripts make.
//
//   node ort_outputs.js REQUEST.json
//
// REQUEST.json: {"model": PATH, "out_dir": DIR,
//                "inputs": [{"name", "dtype", "shape": [..], "file"}]}
// Input files hold raw little-endian values. For each model output the
// script writes DIR/<index>.bin and prints one JSON line:
// [{"name", "dtype", "shape", "file"}] in the model's output order.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const kArrays = {
  float32: Float32Array,
  float16: Uint16Array,
  float64: Float64Array,
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  bool: Uint8Array,
};

function readTensor(input) {
  const Array = kArrays[input.dtype];
  if (!Array) throw new Error(`input '${input.name}': dtype ${input.dtype} is not supported`);
  const bytes = fs.readFileSync(input.file);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new ort.Tensor(input.dtype, new Array(copy.buffer), input.shape);
}

async function main() {
  const requestPath = process.argv[2];
  if (!requestPath) throw new Error('usage: node ort_outputs.js REQUEST.json');
  const request = JSON.parse(fs.readFileSync(requestPath, 'utf8'));
  const feeds = {};
  for (const input of request.inputs) feeds[input.name] = readTensor(input);
  const session = await ort.InferenceSession.create(request.model, {
    graphOptimizationLevel: 'disabled',
    intraOpNumThreads: 1,
  });
  const results = await session.run(feeds);
  const written = [];
  session.outputNames.forEach((name, index) => {
    const tensor = results[name];
    const file = path.join(request.out_dir, `${index}.bin`);
    const data = tensor.data;
    fs.writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    written.push({name, dtype: tensor.type, shape: Array.from(tensor.dims), file});
  });
  process.stdout.write(JSON.stringify(written) + '\n');
}

main().catch((error) => {
  process.stderr.write(`ort_outputs.js: ${error.message}\n`);
  process.exit(1);
});
