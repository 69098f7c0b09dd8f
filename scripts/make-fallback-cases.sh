#!/bin/bash
# Writes small ONNX backend-test case folders (model.onnx,
# test_data_set_0/*.pb) whose outputs come from ONNX Runtime, for ops that
# run through the CPU fallback on the GPU:
#   tests/data/recurrent_lstm_gru: an LSTM (bidirectional, B, initial_h/c,
#     peepholes) and a GRU (reverse, linear_before_reset) between GPU ops;
#   tests/data/quantized_ops: DynamicQuantizeLinear -> MatMulInteger,
#     QuantizeLinear/DequantizeLinear per axis, QLinearMatMul.
# Needs /usr/bin/python3 with onnx and numpy, and onnxruntime-node from
# scripts/fetch-models.sh. Run from the repository root.
set -euo pipefail
cases="tests/data/recurrent_lstm_gru tests/data/quantized_ops"
modules="${GLPOOL_NPM_CACHE:-$HOME/.cache/glpool/npm}/node_modules"
if [ ! -d "$modules/onnxruntime-node" ]; then
  echo "onnxruntime-node is missing from $modules: run bash scripts/fetch-models.sh" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for out in $cases; do rm -rf "$out" && mkdir -p "$out/test_data_set_0" "$tmp/$out"; done
/usr/bin/python3 - tests/data/recurrent_lstm_gru "$tmp/tests/data/recurrent_lstm_gru" <<'PY'
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
/usr/bin/python3 - tests/data/quantized_ops "$tmp/tests/data/quantized_ops" <<'PY'
import json, sys
import numpy as np
import onnx
from onnx import helper as h, numpy_helper, TensorProto as T
out, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(29)
M, K, N = 4, 6, 5
w = rng.integers(0, 256, [K, N], dtype=np.uint8)
inits = [
    numpy_helper.from_array(w, "w_q"),
    numpy_helper.from_array(np.array(131, dtype=np.uint8), "w_zero"),
    numpy_helper.from_array(np.array(0.02, dtype=np.float32), "w_scale"),
    numpy_helper.from_array(np.array([0.05, 0.1, 0.2, 0.03, 0.07, 0.5], dtype=np.float32), "col_scale"),
    numpy_helper.from_array(np.array([0, -3, 5, 1, -7, 2], dtype=np.int8), "col_zero"),
    numpy_helper.from_array(np.array(0.04, dtype=np.float32), "y_scale"),
    numpy_helper.from_array(np.array(120, dtype=np.uint8), "y_zero"),
]
nodes = [
    h.make_node("DynamicQuantizeLinear", ["x"], ["x_q", "x_scale", "x_zero"], name="dyn_quant"),
    h.make_node("MatMulInteger", ["x_q", "w_q", "x_zero", "w_zero"], ["acc"], name="matmul_int"),
    h.make_node("Cast", ["acc"], ["acc_f"], name="acc_to_float", to=T.FLOAT),
    h.make_node("Mul", ["x_scale", "w_scale"], ["acc_scale"], name="acc_scale"),
    h.make_node("Mul", ["acc_f", "acc_scale"], ["dense"], name="rescale"),
    h.make_node("QuantizeLinear", ["x", "col_scale", "col_zero"], ["x_cols"], name="quant_cols", axis=1),
    h.make_node("DequantizeLinear", ["x_cols", "col_scale", "col_zero"], ["x_round"], name="dequant_cols", axis=1),
    h.make_node("QLinearMatMul", ["x_q", "x_scale", "x_zero", "w_q", "w_scale", "w_zero", "y_scale", "y_zero"],
                ["y_q"], name="qlinear_matmul"),
    h.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zero"], ["qdense"], name="dequant_y"),
]
graph = h.make_graph(nodes, "quantized_ops", [h.make_tensor_value_info("x", T.FLOAT, [M, K])],
                     [h.make_tensor_value_info("dense", T.FLOAT, [M, N]),
                      h.make_tensor_value_info("x_round", T.FLOAT, [M, K]),
                      h.make_tensor_value_info("qdense", T.FLOAT, [M, N])], inits)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], producer_name="glpool make-fallback-cases.sh")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, out + "/model.onnx")
x = (rng.standard_normal([M, K]) * 2).astype(np.float32)
with open(out + "/test_data_set_0/input_0.pb", "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
json.dump({"x": {"dims": list(x.shape), "data": x.ravel().tolist()}}, open(tmp + "/inputs.json", "w"))
PY
for out in $cases; do
NODE_PATH="$modules" node - "$out/model.onnx" "$tmp/$out/inputs.json" "$tmp/$out/outputs.json" <<'JS'
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
/usr/bin/python3 - "$out" "$tmp/$out" <<'PY'
import json, sys
import numpy as np
from onnx import numpy_helper
out, tmp = sys.argv[1], sys.argv[2]
for i, t in enumerate(json.load(open(tmp + "/outputs.json"))):
    array = np.array(t["data"], dtype=np.float32).reshape(t["dims"])
    with open(f"{out}/test_data_set_0/output_{i}.pb", "wb") as f:
        f.write(numpy_helper.from_array(array, t["name"]).SerializeToString())
PY
done
echo "wrote $cases (ONNX Runtime $(NODE_PATH="$modules" node -e "console.log(require('onnxruntime-node/package.json').version)"))"
