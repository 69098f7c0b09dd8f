#!/usr/bin/env python3
"""Makes glpool's `If` test cases with ONNX Runtime's outputs (the npm
cache's onnxruntime-node):

    /usr/bin/python3 scripts/make-control-flow-cases.py tests/data

- if_on_data_lstm: a condition computed from the input's values
  (ReduceSum(x) > 0) picks one of two branches of equal shape that read
  outer tensors (a Conv's output, an initializer), then an LSTM runs over
  the result. Two data sets: one takes then_branch, the other else_branch.
  The If and the LSTM run through the CPU fallback inside a GPU run.
- if_folded_shapes: conditions known at import: one from the input's shape
  (Shape -> Gather -> Equal) whose branches give different shapes (then
  [1, 8] through a Gemm on an outer weight, else [1, 3] through a global
  pool), one constant whose taken branch holds a nested If, and branch
  names that repeat the outer graph's (the importer must keep them apart).
"""
import os
import shutil
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "oracle"))
import onnx_case  # noqa: E402

F = TensorProto.FLOAT
rng = np.random.default_rng(21)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def floats(*shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def model_of(graph):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model


def if_on_data_lstm():
    seq, batch, inp, hid = 4, 1, 6, 5
    # x [1, 3, 4, 6] -> Conv 1x1 (3 -> 1) -> feature [1, 1, 4, 6]
    then_branch = helper.make_graph(
        [helper.make_node("Mul", ["feature", "two"], ["t"], name="scale"),
         helper.make_node("Sigmoid", ["t"], ["branch_out"], name="gate")],
        "then_branch", [], [helper.make_tensor_value_info("branch_out", F, [1, 1, 4, 6])],
        initializer=[const("two", np.array(2.0, np.float32))])
    else_branch = helper.make_graph(
        [helper.make_node("Sub", ["feature", "bias"], ["t"], name="scale"),
         helper.make_node("Tanh", ["t"], ["branch_out"], name="gate")],
        "else_branch", [], [helper.make_tensor_value_info("branch_out", F, [1, 1, 4, 6])])
    nodes = [
        helper.make_node("Conv", ["x", "conv_w", "conv_b"], ["feature"], name="conv"),
        helper.make_node("ReduceSum", ["x"], ["total"], name="total", keepdims=0),
        helper.make_node("Greater", ["total", "zero"], ["positive"], name="positive"),
        helper.make_node("If", ["positive"], ["chosen"], name="pick", then_branch=then_branch,
                         else_branch=else_branch),
        helper.make_node("Reshape", ["chosen", "seq_shape"], ["sequence"], name="to_sequence"),
        helper.make_node("LSTM", ["sequence", "lstm_w", "lstm_r", "lstm_b"], ["lstm_y", "lstm_h"], name="lstm",
                         hidden_size=hid),
        helper.make_node("Relu", ["lstm_h"], ["y"], name="relu_out"),
    ]
    inits = [const("conv_w", floats(1, 3, 1, 1)), const("conv_b", floats(1)),
             const("zero", np.array(0.0, np.float32)), const("bias", floats(1, 1, 1, 6)),
             const("seq_shape", np.array([seq, batch, inp], np.int64)),
             const("lstm_w", floats(1, 4 * hid, inp)), const("lstm_r", floats(1, 4 * hid, hid)),
             const("lstm_b", floats(1, 8 * hid))]
    graph = helper.make_graph(nodes, "if_on_data_lstm", [helper.make_tensor_value_info("x", F, [1, 3, 4, 6])],
                              [helper.make_tensor_value_info("y", F, [1, batch, hid]),
                               helper.make_tensor_value_info("chosen", F, [1, 1, 4, 6])],
                              initializer=inits)
    positive = np.abs(floats(1, 3, 4, 6, scale=1.0))
    return model_of(graph), [[("x", positive)], [("x", -positive)]]


def if_folded_shapes():
    # Nested: the constant condition's then_branch holds an If on another
    # constant; inner names repeat outer ones ("t", "scale").
    inner_then = helper.make_graph(
        [helper.make_node("Add", ["x", "offset"], ["t"], name="scale")],
        "inner_then", [], [helper.make_tensor_value_info("t", F, None)])
    inner_else = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["t"], name="scale")],
        "inner_else", [], [helper.make_tensor_value_info("t", F, None)])
    const_then = helper.make_graph(
        [helper.make_node("If", ["inner_cond"], ["inner"], name="inner_if", then_branch=inner_then,
                          else_branch=inner_else),
         helper.make_node("Relu", ["inner"], ["t"], name="scale")],
        "const_then", [], [helper.make_tensor_value_info("t", F, None)],
        initializer=[const("inner_cond", np.array(False))])
    const_else = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t"], name="scale")],
        "const_else", [], [helper.make_tensor_value_info("t", F, None)])
    # Shape-derived: H == 4 -> flatten and Gemm ([1, 48] -> [1, 8]) then
    # [1, 48] kept; else GlobalAveragePool [1, 3].
    shape_then = helper.make_graph(
        [helper.make_node("Flatten", ["t"], ["flat"], name="scale"),
         helper.make_node("Gemm", ["flat", "fc_w"], ["logits"], name="fc", transB=1),
         helper.make_node("Softmax", ["logits"], ["branch_out"], name="probs", axis=1)],
        "shape_then", [], [helper.make_tensor_value_info("branch_out", F, None)])
    shape_else = helper.make_graph(
        [helper.make_node("GlobalAveragePool", ["t"], ["pooled"], name="scale"),
         helper.make_node("Flatten", ["pooled"], ["branch_out"], name="flat")],
        "shape_else", [], [helper.make_tensor_value_info("branch_out", F, None)])
    nodes = [
        helper.make_node("If", ["const_cond"], ["t"], name="const_if", then_branch=const_then,
                         else_branch=const_else),
        helper.make_node("Shape", ["x"], ["x_shape"], name="shape"),
        helper.make_node("Gather", ["x_shape", "two"], ["height"], name="height", axis=0),
        helper.make_node("Equal", ["height", "four"], ["is_four"], name="is_four"),
        helper.make_node("If", ["is_four"], ["y"], name="shape_if", then_branch=shape_then,
                         else_branch=shape_else),
        helper.make_node("Mul", ["t", "t"], ["scale"], name="scale"),
    ]
    inits = [const("const_cond", np.array(True)), const("offset", floats(1, 3, 1, 4)),
             const("two", np.array(2, np.int64)), const("four", np.array(4, np.int64)),
             const("fc_w", floats(8, 48))]
    graph = helper.make_graph(nodes, "if_folded_shapes", [helper.make_tensor_value_info("x", F, [1, 3, 4, 4])],
                              [helper.make_tensor_value_info("y", F, None),
                               helper.make_tensor_value_info("scale", F, None)],
                              initializer=inits)
    return model_of(graph), [[("x", floats(1, 3, 4, 4, scale=1.0))]]


def write(out_root, name, model, data_sets):
    case_dir = os.path.join(out_root, name)
    if os.path.isdir(case_dir):
        shutil.rmtree(case_dir)
    onnx_case.write_case(case_dir, model.SerializeToString(), data_sets[0])
    for index, inputs in enumerate(data_sets[1:], start=1):
        # write_case_for_model writes test_data_set_0: move each extra set.
        first = os.path.join(case_dir, "test_data_set_0")
        keep = os.path.join(case_dir, "test_data_set_keep")
        os.rename(first, keep)
        onnx_case.write_case_for_model(case_dir, inputs)
        os.rename(first, os.path.join(case_dir, f"test_data_set_{index}"))
        os.rename(keep, first)
    print(f"{case_dir}: {len(data_sets)} data set(s)")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    onnx_case.require_oracle()
    write(sys.argv[1], "if_on_data_lstm", *if_on_data_lstm())
    write(sys.argv[1], "if_folded_shapes", *if_folded_shapes())


if __name__ == "__main__":
    main()
