#!/usr/bin/python3
"""Reference outputs for .tflite models from Arm NN (Debian's python3-pyarmnn,
CpuRef backend): an independent runtime to check glpool's TFLite import.

For each model: an input (skimage's astronaut photo for an RGB image input,
else fixed-seed uniform values), Arm NN's outputs for it, both written as
ONNX TensorProto files in glpool's layout (rank-4 tensors NCHW, as glpool
imports them) into OUT/<model name>/: input_0.pb, output_<k>.pb (k in the
file's output order), and ranges.txt. Arm NN 20.08 cannot read two things
these models carry, so the script first rewrites a copy of the model
through flatc and JSON (glpool's schema subset, which holds every field
those models use):
  - float16 weights behind DEQUANTIZE become float32 constants (the
    DEQUANTIZE ops go away), the same arithmetic as glpool's import;
  - MediaPipe's custom Convolution2DTransposeBias becomes TRANSPOSE_CONV
    followed by ADD of the bias, which is what the custom op computes.
A model with an op Arm NN still lacks fails with Arm NN's message. Arm NN
20.08's parser also ignores RESIZE_BILINEAR's half_pixel_centers (it
samples as if the flag were off: checked on selfie_segmentation, whose
glpool output matches Arm NN's to 0.5/255 once glpool samples that way
too), so for a model with such a resize the script writes only the input
and unsupported.txt saying why, and no outputs: compare such a model with
glpool's CPU reference instead.

Usage: scripts/tflite-oracle.py OUT_DIR MODEL.tflite [MODEL.tflite ...]
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.numpy_helper
import pyarmnn as ann

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu_backend", "import", "tflite",
                      "tflite_schema.fbs")
DEQUANTIZE, TRANSPOSE_CONV, ADD, CUSTOM = 6, 67, 0, 32
# flatc writes enums by name in JSON.
FLOAT32, FLOAT16, INT32 = "FLOAT32", "FLOAT16", "INT32"
SEED = 20240611


def to_json(model_path, work):
    subprocess.run(["flatc", "-t", "--strict-json", "--raw-binary", "--defaults-json", "-o", work, SCHEMA, "--",
                    model_path], check=True)
    name = os.path.splitext(os.path.basename(model_path))[0] + ".json"
    with open(os.path.join(work, name)) as f:
        return json.load(f)


def code_of(model, op):
    c = model["operator_codes"][op.get("opcode_index", 0)]
    return max(c.get("deprecated_builtin_code", 0), c.get("builtin_code", 0)), c.get("custom_code", "")


def opcode_index(model, builtin):
    for i, c in enumerate(model["operator_codes"]):
        if max(c.get("deprecated_builtin_code", 0), c.get("builtin_code", 0)) == builtin and builtin != CUSTOM:
            return i
    model["operator_codes"].append({"deprecated_builtin_code": min(builtin, 127), "version": 1, "builtin_code": builtin})
    return len(model["operator_codes"]) - 1


def add_buffer(model, array):
    model["buffers"].append({"data": list(array.tobytes())})
    return len(model["buffers"]) - 1


def add_tensor(graph, name, shape, ttype, buffer):
    graph["tensors"].append({"shape": list(shape), "type": ttype, "buffer": buffer, "name": name})
    return len(graph["tensors"]) - 1


RESIZE_BILINEAR = 23


def armnn_limitation(model):
    """Why Arm NN 20.08 would compute this model differently, or None."""
    for index, op in enumerate(model["subgraphs"][0]["operators"]):
        code, _ = code_of(model, op)
        if code == RESIZE_BILINEAR and (op.get("builtin_options") or {}).get("half_pixel_centers"):
            return "op %d RESIZE_BILINEAR uses half_pixel_centers, which Arm NN 20.08 ignores" % index
    return None


def rewrite_for_armnn(model):
    graph = model["subgraphs"][0]
    tensors = graph["tensors"]
    ops = []
    for op in graph["operators"]:
        code, custom = code_of(model, op)
        if code == DEQUANTIZE and tensors[op["inputs"][0]]["type"] == FLOAT16:
            src = tensors[op["inputs"][0]]
            data = np.frombuffer(bytes(model["buffers"][src["buffer"]]["data"]), dtype=np.float16).astype(np.float32)
            dst = tensors[op["outputs"][0]]
            dst["buffer"] = add_buffer(model, data)
            dst["type"] = FLOAT32
            continue
        if code == CUSTOM and custom == "Convolution2DTransposeBias":
            x, w, b = op["inputs"]
            y = op["outputs"][0]
            padding, stride_w, stride_h = struct.unpack("<iii", bytes(op["custom_options"][:12]))
            out_shape = tensors[y]["shape"]
            shape_t = add_tensor(graph, tensors[y]["name"] + "/output_shape", [4], INT32,
                                 add_buffer(model, np.array(out_shape, dtype=np.int32)))
            pre = add_tensor(graph, tensors[y]["name"] + "/no_bias", out_shape, FLOAT32, 0)
            ops.append({"opcode_index": opcode_index(model, TRANSPOSE_CONV), "inputs": [shape_t, w, x],
                        "outputs": [pre], "builtin_options_type": "TransposeConvOptions",
                        "builtin_options": {"padding": "SAME" if padding == 1 else "VALID",
                                            "stride_w": stride_w, "stride_h": stride_h}})
            ops.append({"opcode_index": opcode_index(model, ADD), "inputs": [pre, b], "outputs": [y],
                        "builtin_options_type": "AddOptions", "builtin_options": {}})
            continue
        ops.append(op)
    graph["operators"] = ops
    return model


def to_binary(model, work):
    path = os.path.join(work, "armnn.json")
    with open(path, "w") as f:
        json.dump(model, f)
    subprocess.run(["flatc", "-b", "-o", work, SCHEMA, path], check=True)
    return os.path.join(work, "armnn.tflite")


def photo_input(shape):
    """skimage's astronaut photo (a person with one face), resized to an
    NHWC RGB input with values in [0, 1]: outputs that mean something, not
    the near-zero masks random noise gives."""
    if len(shape) != 4 or shape[0] != 1 or shape[3] != 3:
        return None
    import skimage.data
    import skimage.transform
    photo = skimage.transform.resize(skimage.data.astronaut(), shape[1:3], anti_aliasing=True)
    return photo.astype(np.float32).reshape(shape)


def glpool_layout(array):
    return array.transpose(0, 3, 1, 2) if array.ndim == 4 else array


def save_pb(array, name, path):
    tensor = onnx.numpy_helper.from_array(np.ascontiguousarray(array.astype(np.float32)), name)
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


def run_model(model_path, out_root):
    name = os.path.splitext(os.path.basename(model_path))[0]
    out_dir = os.path.join(out_root, name)
    os.makedirs(out_dir, exist_ok=True)
    for stale in ["unsupported.txt"] + [f for f in os.listdir(out_dir) if f.startswith("output_")]:
        if os.path.exists(os.path.join(out_dir, stale)):
            os.remove(os.path.join(out_dir, stale))
    with tempfile.TemporaryDirectory() as work:
        model = to_json(model_path, work)
        limitation = armnn_limitation(model)
        rewritten = to_binary(rewrite_for_armnn(model), work)
        parser = ann.ITfLiteParser()
        network = parser.CreateNetworkFromBinaryFile(rewritten)
        input_names = parser.GetSubgraphInputTensorNames(0)
        output_names = parser.GetSubgraphOutputTensorNames(0)
        runtime = ann.IRuntime(ann.CreationOptions())
        optimized, _ = ann.Optimize(network, [ann.BackendId("CpuRef")], runtime.GetDeviceSpec(),
                                    ann.OptimizerOptions())
        net_id, _ = runtime.LoadNetwork(optimized)
        rng = np.random.default_rng(SEED)
        input_arrays = []
        input_bindings = []
        for k, input_name in enumerate(input_names):
            binding = parser.GetNetworkInputBindingInfo(0, input_name)
            shape = tuple(binding[1].GetShape()[i] for i in range(binding[1].GetNumDimensions()))
            array = photo_input(shape)
            if array is None:
                array = rng.uniform(0.0, 1.0, size=shape).astype(np.float32)
            input_arrays.append(array)
            input_bindings.append(binding)
            save_pb(glpool_layout(array), input_name, os.path.join(out_dir, "input_%d.pb" % k))
        input_tensors = ann.make_input_tensors(input_bindings, input_arrays)
        output_bindings = [parser.GetNetworkOutputBindingInfo(0, n) for n in output_names]
        output_tensors = ann.make_output_tensors(output_bindings)
        if limitation is not None:
            with open(os.path.join(out_dir, "unsupported.txt"), "w") as f:
                f.write(limitation + "\n")
            print("%s: input written, no Arm NN reference: %s" % (name, limitation))
            return
        runtime.EnqueueWorkload(net_id, input_tensors, output_tensors)
        results = ann.workload_tensors_to_ndarray(output_tensors)
    lines = []
    for k, (output_name, binding, result) in enumerate(zip(output_names, output_bindings, results)):
        shape = tuple(binding[1].GetShape()[i] for i in range(binding[1].GetNumDimensions()))
        array = np.asarray(result, dtype=np.float32).reshape(shape)
        save_pb(glpool_layout(array), output_name, os.path.join(out_dir, "output_%d.pb" % k))
        lines.append("%s %s min %.6g max %.6g" % (output_name, "x".join(map(str, shape)), array.min(), array.max()))
    with open(os.path.join(out_dir, "ranges.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %s" % (name, "; ".join(lines)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    failed = False
    for model_path in sys.argv[2:]:
        try:
            run_model(model_path, sys.argv[1])
        except Exception as error:  # one line per model that Arm NN cannot run
            failed = True
            print("%s: Arm NN failed: %s" % (model_path, str(error).splitlines()[0]), file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
