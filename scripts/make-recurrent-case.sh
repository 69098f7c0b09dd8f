#!/bin/bash
# Writes tests/data/recurrent_lstm_gru/: a small model with an LSTM
# (bidirectional, B, initial_h/c, peepholes) and a GRU (reverse,
# linear_before_reset) between GPU ops, one input, and ONNX Runtime's outputs
# as an ONNX backend-test case folder (model.onnx, test_data_set_0/*.pb).
# Needs /usr/bin/python3 with onnx and numpy, and onnxruntime-node from
# scripts/fetch-models.sh. Run from the repository root.
set -euo pipefail
out=tests/data/recurrent_lstm_gru
modules="${GLPOOL_NPM_CACHE:-$HOME/.cache/glpool/npm}/node_modules"
if [ ! -d "$modules/onnxruntime-node" ]; then
  echo "onnxruntime-node is missing from $modules: run bash scripts/fetch-models.sh" >&2
  exit 1
fi
rm -rf "$out" && mkdir -p "$out/test_data_set_0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$out" "$tmp" <<'PY'
import json, sys
import numpy as np
import onnx
from onnx import helper as h, numpy_helper, TensorProto as T
out, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(13)
seq, batch, inp, hid = 6, 2, 5, 8
def init(name, shape, scale=0.4):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)
inits = [
    init("lstm_w", [2, 4 * hid, inp]), init("lstm_r", [2, 4 * hid, hid]), init("lstm_b", [2, 8 * hid]),
    init("lstm_h0", [2, batch, hid]), init("lstm_c0", [2, batch, hid]), init("lstm_p", [2, 3 * hid]),
    init("gru_w", [1, 3 * hid, 2 * hid]), init("gru_r", [1, 3 * hid, hid]), init("gru_b", [1, 6 * hid]),
    numpy_helper.from_array(np.array([seq, batch, 2 * hid], dtype=np.int64), "merge_shape"),
]
nodes = [
    h.make_node("Relu", ["x"], ["x_relu"], name="relu_in"),
    h.make_node("LSTM", ["x_relu", "lstm_w", "lstm_r", "lstm_b", "", "lstm_h0", "lstm_c0", "lstm_p"],
                ["lstm_y", "lstm_h", "lstm_c"], name="lstm", hidden_size=hid, direction="bidirectional"),
    # [seq, 2, batch, hid] -> [seq, batch, 2, hid] -> [seq, batch, 2 * hid]
    h.make_node("Transpose", ["lstm_y"], ["lstm_t"], name="to_seq_batch", perm=[0, 2, 1, 3]),
    h.make_node("Reshape", ["lstm_t", "merge_shape"], ["gru_x"], name="merge_directions"),
    h.make_node("GRU", ["gru_x", "gru_w", "gru_r", "gru_b"], ["gru_y", "gru_h"], name="gru", hidden_size=hid,
                direction="reverse", linear_before_reset=1),
    h.make_node("Sigmoid", ["gru_y"], ["y"], name="sigmoid_out"),
    h.make_node("Add", ["lstm_h", "lstm_c"], ["state_sum"], name="state_sum"),
]
graph = h.make_graph(nodes, "recurrent_lstm_gru", [h.make_tensor_value_info("x", T.FLOAT, [seq, batch, inp])],
                     [h.make_tensor_value_info("y", T.FLOAT, [seq, 1, batch, hid]),
                      h.make_tensor_value_info("gru_h", T.FLOAT, [1, batch, hid]),
                      h.make_tensor_value_info("state_sum", T.FLOAT, [2, batch, hid])], inits)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 14)], producer_name="glpool make-recurrent-case.sh")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, out + "/model.onnx")
x = (rng.standard_normal([seq, batch, inp])).astype(np.float32)
with open(out + "/test_data_set_0/input_0.pb", "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
json.dump({"x": {"dims": list(x.shape), "data": x.ravel().tolist()}}, open(tmp + "/inputs.json", "w"))
PY
NODE_PATH="$modules" node - "$out/model.onnx" "$tmp/inputs.json" "$tmp/outputs.json" <<'JS'
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, inputsFile, outputsFile] = process.argv.slice(2);
  const inputs = JSON.parse(fs.readFileSync(inputsFile));
  const feeds = {};
  for (const [name, t] of Object.entries(inputs)) feeds[name] = new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
  const session = await ort.InferenceSession.create(model);
  const results = await session.run(feeds);
  const out = session.outputNames.map((name) => ({name, dims: results[name].dims, data: Array.from(results[name].data)}));
  fs.writeFileSync(outputsFile, JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
JS
/usr/bin/python3 - "$out" "$tmp" <<'PY'
import json, sys
import numpy as np
from onnx import numpy_helper
out, tmp = sys.argv[1], sys.argv[2]
for i, t in enumerate(json.load(open(tmp + "/outputs.json"))):
    array = np.array(t["data"], dtype=np.float32).reshape(t["dims"])
    with open(f"{out}/test_data_set_0/output_{i}.pb", "wb") as f:
        f.write(numpy_helper.from_array(array, t["name"]).SerializeToString())
PY
echo "wrote $out (ONNX Runtime $(NODE_PATH="$modules" node -e "console.log(require('onnxruntime-node/package.json').version)"))"
