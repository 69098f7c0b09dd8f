#!/usr/bin/env python3
"""Converts models to opsets 18 and 21 with scripts/convert-opset.py and
writes each conversion as a test case whose reference outputs ONNX Runtime
computes on the converted model; ONNX Runtime's outputs must also match the
original model's (the conversion keeps the numbers).

    /usr/bin/python3 scripts/opset-conversion-cases.py OUT_DIR MODEL_DIR...

MODEL_DIR is a case folder (model.onnx, test_data_set_0/input_*.pb), such as
../shared/models/squeezenet1_1. A small opset-13 model with reductions (whose
axes move from attribute to input at 18) is converted too. Writes
OUT_DIR/<name>_opset<N>/ for `glpool test-onnx`.
"""
import importlib.util
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "oracle"))
import onnx_case  # noqa: E402

spec = importlib.util.spec_from_file_location("convert_opset", os.path.join(HERE, "convert-opset.py"))
convert_opset = importlib.util.module_from_spec(spec)
spec.loader.exec_module(convert_opset)

OPSETS = (18, 21)


def reductions_model():
    """Opset 13: ReduceMean/ReduceMax with axes attributes, ReduceSum with
    an axes input, a LayerNorm-like pattern."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, None)
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mean"], axes=[-1], keepdims=1),
        helper.make_node("Sub", ["x", "mean"], ["centred"]),
        helper.make_node("Mul", ["centred", "centred"], ["square"]),
        helper.make_node("ReduceMean", ["square"], ["var"], axes=[-1], keepdims=1),
        helper.make_node("Add", ["var", "eps"], ["var_eps"]),
        helper.make_node("Sqrt", ["var_eps"], ["std"]),
        helper.make_node("Div", ["centred", "std"], ["y"]),
        helper.make_node("ReduceMax", ["x"], ["max"], axes=[0, 2], keepdims=0),
        helper.make_node("ReduceSum", ["max", "sum_axes"], ["z"], keepdims=1),
    ]
    inits = [numpy_helper.from_array(np.array(1e-5, np.float32), "eps"),
             numpy_helper.from_array(np.array([0], np.int64), "sum_axes")]
    graph = helper.make_graph(nodes, "reductions", [x], [y, z], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    data = np.random.default_rng(13).uniform(-2, 2, (2, 5, 6)).astype(np.float32)
    return model, [("x", data)]


def main():
    out_root = onnx_case.fresh_output_root(sys.argv, __doc__)
    sources = [("reductions", *reductions_model())]
    for model_dir in sys.argv[2:]:
        path = os.path.join(model_dir, "model.onnx")
        if not os.path.isfile(path):
            raise SystemExit(f"{path} is missing")
        model = onnx.load(path)
        sources.append((os.path.basename(os.path.normpath(model_dir)), model, onnx_case.data_set_inputs(model_dir, model)))
    for name, model, inputs in sources:
        original = os.path.join(out_root, f"{name}_original.onnx")
        onnx.save(model, original)
        expected = onnx_case.run_onnxruntime(original, inputs)
        os.remove(original)
        for opset in OPSETS:
            converted = convert_opset.convert(onnx.ModelProto.FromString(model.SerializeToString()), opset)
            case_dir = os.path.join(out_root, f"{name}_opset{opset}")
            outputs = onnx_case.write_case(case_dir, converted.SerializeToString(), inputs)
            worst = max(float(np.max(np.abs(a - b))) for (_, a), (_, b) in zip(outputs, expected))
            if worst > 1e-5:
                raise SystemExit(f"{case_dir}: ONNX Runtime's outputs on the converted model differ from the "
                                 f"original's by {worst}")
            print(f"{case_dir}: opset {opset}, ONNX Runtime matches the original within {worst:.2g}")


if __name__ == "__main__":
    main()
