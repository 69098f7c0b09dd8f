#!/usr/bin/env python3
"""Writes float16 test cases whose reference outputs ONNX Runtime computes
in float16 (the npm cache's onnxruntime-node):

    /usr/bin/python3 scripts/float16-cases.py OUT_DIR [MODEL_DIR...]

- OUT_DIR/float16_ops: a small model built here with float16 weights,
  inputs and outputs over the ops CNN exporters emit (Conv, BatchNorm, Relu,
  Concat, Resize, pooling, Gemm, Softmax...). Small enough to commit
  (tests/data/float16).
- for each MODEL_DIR (a case folder such as ../shared/models/squeezenet1_1)
  two conversions by scripts/convert-float16.py: <name>_fp16 (float16 from
  input to output) and <name>_fp16_io32 (float32 inputs and outputs with
  Casts at the edges, and MaxPool kept in float32 between Casts). ONNX
  Runtime's outputs on each must match the float32 original's within 3e-2
  of its largest value, or the script fails: the conversion keeps the
  numbers.
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

spec = importlib.util.spec_from_file_location("convert_float16", os.path.join(HERE, "convert-float16.py"))
convert_float16 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(convert_float16)

H = TensorProto.FLOAT16
rng = np.random.default_rng(16)


def half(*shape, scale=1.0):
    return (rng.uniform(-1.0, 1.0, size=shape) * scale).astype(np.float16)


def float16_ops_model():
    """x [1, 3, 13, 11] float16 -> Conv+BN+Relu, a 1x1 branch, Concat,
    Resize x2 (float32 scales, as ONNX requires), MaxPool, Add, Sigmoid,
    GlobalAveragePool, Flatten, Gemm, Softmax; a second output keeps a
    spatial map (Mean of three tensors)."""
    inits = [
        numpy_helper.from_array(half(6, 3, 3, 3, scale=0.5), "w1"),
        numpy_helper.from_array(half(6, scale=0.1), "b1"),
        numpy_helper.from_array((1.0 + half(6, scale=0.2)).astype(np.float16), "bn_scale"),
        numpy_helper.from_array(half(6, scale=0.1), "bn_bias"),
        numpy_helper.from_array(half(6, scale=0.1), "bn_mean"),
        numpy_helper.from_array((1.0 + np.abs(half(6, scale=0.2))).astype(np.float16), "bn_var"),
        numpy_helper.from_array(half(5, 3, 1, 1, scale=0.5), "w2"),
        numpy_helper.from_array(np.array([], np.float32), "roi"),
        numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
        numpy_helper.from_array(half(7, 11, scale=0.3), "fc_w"),
        numpy_helper.from_array(half(7, scale=0.1), "fc_b"),
        numpy_helper.from_array(np.array([0.5], np.float16), "half_const"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["bn"]),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("Conv", ["x", "w2"], ["c2"]),
        helper.make_node("Concat", ["r1", "c2"], ["cat"], axis=1),
        helper.make_node("Resize", ["cat", "roi", "scales"], ["up"], mode="linear"),
        helper.make_node("MaxPool", ["up"], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Mul", ["cat", "half_const"], ["scaled"]),
        helper.make_node("Add", ["pool", "scaled"], ["sum"]),
        helper.make_node("Sigmoid", ["sum"], ["gate"]),
        helper.make_node("Mean", ["gate", "scaled", "pool"], ["map"]),
        helper.make_node("GlobalAveragePool", ["sum"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["flat"]),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=1),
    ]
    x = helper.make_tensor_value_info("x", H, [1, 3, 13, 11])
    outputs = [helper.make_tensor_value_info("probs", H, [1, 7]),
               helper.make_tensor_value_info("map", H, [1, 11, 13, 11])]
    graph = helper.make_graph(nodes, "float16_ops", [x], outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model, [("x", half(1, 3, 13, 11, scale=2.0))]


def max_relative_error(outputs, expected):
    worst = 0.0
    for (_, got), (_, want) in zip(outputs, expected):
        got, want = got.astype(np.float32), want.astype(np.float32)
        worst = max(worst, float(np.max(np.abs(got - want))) / max(float(np.max(np.abs(want))), 1e-30))
    return worst


def main():
    out_root = onnx_case.fresh_output_root(sys.argv, __doc__)
    model, inputs = float16_ops_model()
    case_dir = os.path.join(out_root, "float16_ops")
    outputs = onnx_case.write_case(case_dir, model.SerializeToString(), inputs)
    print(f"{case_dir}: " + ", ".join(f"{name} {a.dtype} {list(a.shape)}" for name, a in outputs))
    for model_dir in sys.argv[2:]:
        path = os.path.join(model_dir, "model.onnx")
        if not os.path.isfile(path):
            raise SystemExit(f"{path} is missing")
        name = os.path.basename(os.path.normpath(model_dir))
        original = onnx.load(path)
        inputs = onnx_case.data_set_inputs(model_dir, original)
        expected = onnx_case.run_onnxruntime(path, inputs)
        for suffix, keep_io, fp32_ops in (("fp16", False, ()), ("fp16_io32", True, ("MaxPool",))):
            copy = onnx.ModelProto.FromString(original.SerializeToString())
            converted, notes = convert_float16.convert(copy, keep_io, set(fp32_ops))
            for note in notes:
                print(f"{name}_{suffix}: {note}")
            case_inputs16 = inputs if keep_io else [(n, a.astype(np.float16)) for n, a in inputs]
            case_dir = os.path.join(out_root, f"{name}_{suffix}")
            outputs = onnx_case.write_case(case_dir, converted.SerializeToString(), case_inputs16)
            worst = max_relative_error(outputs, expected)
            if worst > 3e-2:
                raise SystemExit(f"{case_dir}: ONNX Runtime's float16 outputs differ from the float32 "
                                 f"original's by {worst:.3g} of its largest value")
            print(f"{case_dir}: ONNX Runtime float16 vs float32 original: {worst:.3g} of max |reference|")


if __name__ == "__main__":
    main()
