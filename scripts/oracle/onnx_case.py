"""Writes ONNX backend-test case folders whose reference outputs come from
ONNX Runtime (scripts/oracle/ort_outputs.js, run with Node.js from the npm
cache that scripts/fetch-models.sh fills).

A case folder is what `glpool test-onnx` reads:
    DIR/model.onnx
    DIR/test_data_set_0/input_<i>.pb, output_<i>.pb   (serialized TensorProtos)
"""
import glob
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("GLPOOL_CACHE", os.path.expanduser("~/.cache/glpool"))
NODE_MODULES = os.path.join(CACHE, "npm", "node_modules")

_NUMPY_TO_ORT = {
    np.float32: "float32", np.float16: "float16", np.float64: "float64", np.int8: "int8",
    np.uint8: "uint8", np.int16: "int16", np.uint16: "uint16", np.int32: "int32",
    np.uint32: "uint32", np.int64: "int64", np.uint64: "uint64", np.bool_: "bool",
}
_ORT_TO_NUMPY = {v: k for k, v in _NUMPY_TO_ORT.items()}


def require_oracle():
    """Fails with how to fetch it when ONNX Runtime is not in the cache."""
    if not os.path.isdir(os.path.join(NODE_MODULES, "onnxruntime-node")):
        raise SystemExit(f"onnxruntime-node is missing from {NODE_MODULES}: "
                         "run `bash scripts/fetch-models.sh` (or scripts/install-deps.sh) first")
    if shutil.which("node") is None:
        raise SystemExit("node is not installed: run scripts/install-deps.sh (Debian's nodejs)")


def fresh_output_root(argv, usage):
    """The scripts' first argument, the folder they write cases into: made
    empty (an earlier run's cases go). Without it, exits with `usage`."""
    if len(argv) < 2:
        raise SystemExit(usage)
    out_root = argv[1]
    require_oracle()
    if os.path.isdir(out_root):
        shutil.rmtree(out_root)
    os.makedirs(out_root)
    return out_root


def data_set_inputs(model_dir, model):
    """[(name, array)] from MODEL_DIR/test_data_set_0/input_*.pb, named after
    `model`'s graph inputs that are not initializers, in order."""
    names = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    files = sorted(glob.glob(os.path.join(model_dir, "test_data_set_0", "input_*.pb")))
    return [(name, numpy_helper.to_array(onnx.load_tensor(f))) for name, f in zip(names, files)]


def run_onnxruntime(model_path, inputs):
    """Runs `model_path` on `inputs` ([(name, numpy array)]) with ONNX Runtime;
    returns [(name, numpy array)] in the model's output order."""
    require_oracle()
    with tempfile.TemporaryDirectory() as work:
        request = {"model": os.path.abspath(model_path), "out_dir": work, "inputs": []}
        for i, (name, array) in enumerate(inputs):
            file = os.path.join(work, f"input_{i}.raw")
            np.array(array, order="C").tofile(file)
            request["inputs"].append({"name": name, "dtype": _NUMPY_TO_ORT[array.dtype.type],
                                      "shape": list(array.shape), "file": file})
        request_path = os.path.join(work, "request.json")
        with open(request_path, "w") as f:
            json.dump(request, f)
        env = dict(os.environ, NODE_PATH=NODE_MODULES)
        done = subprocess.run(["node", os.path.join(HERE, "ort_outputs.js"), request_path],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"ONNX Runtime failed on {model_path}: {done.stderr.strip()}")
        outputs = []
        for out in json.loads(done.stdout):
            array = np.fromfile(out["file"], dtype=_ORT_TO_NUMPY[out["dtype"]]).reshape(out["shape"])
            outputs.append((out["name"], array))
        return outputs


def write_case(case_dir, model_bytes, inputs):
    """Writes a case folder: the model and one data set whose outputs ONNX
    Runtime computes."""
    os.makedirs(case_dir, exist_ok=True)
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    return write_case_for_model(case_dir, inputs)


def write_case_for_model(case_dir, inputs):
    """Writes one data set for the case_dir/model.onnx already there."""
    outputs = run_onnxruntime(os.path.join(case_dir, "model.onnx"), inputs)
    data = os.path.join(case_dir, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for i, (name, array) in enumerate(tensors):
            proto = numpy_helper.from_array(np.array(array, order="C"), name)  # ascontiguousarray makes scalars 1-D
            with open(os.path.join(data, f"{kind}_{i}.pb"), "wb") as f:
                f.write(proto.SerializeToString())
    return outputs
