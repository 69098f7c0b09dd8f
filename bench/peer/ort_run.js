// Runs one ONNX model with ONNX Runtime (onnxruntime-node) on the CPU and
// prints one JSON line with the time of each run, for the peer bench.
//
//   node ort_run.js MODEL.onnx INPUTS.json RUNS
//
// INPUTS.json: [{"name", "shape": [..], "file": raw little-endian float32}].
// 2 intra-op threads (the machine glpool's llvmpipe shares), all graph
// optimisations, sequential execution. The first run (session warm-up) is
// reported separately from the timed ones.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [modelPath, inputsPath, runsText] = process.argv.slice(2);
  if (!modelPath || !inputsPath || !runsText) {
    throw new Error('usage: node ort_run.js MODEL.onnx INPUTS.json RUNS');
  }
  const runs = parseInt(runsText, 10);
  const feeds = {};
  for (const input of JSON.parse(fs.readFileSync(inputsPath, 'utf8'))) {
    const bytes = fs.readFileSync(input.file);
    const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    feeds[input.name] = new ort.Tensor('float32', Float32Array.from(values), input.shape);
  }
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: 2,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  let start = process.hrtime.bigint();
  await session.run(feeds);
  const firstMs = Number(process.hrtime.bigint() - start) / 1e6;
  const ms = [];
  for (let i = 0; i < runs; ++i) {
    start = process.hrtime.bigint();
    await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  process.stdout.write(JSON.stringify({first_ms: firstMs, ms}) + '\n');
}

main().catch((error) => {
  process.stderr.write(`ort_run.js: ${error.message}\n`);
  process.exit(1);
});
