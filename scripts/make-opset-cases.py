#!/usr/bin/env python3
"""Makes glpool's test cases for ONNX opsets 18-21: small one-op models for
each semantic change those opsets made to an op glpool runs, and for the ops
they added (Mish, Gelu, GroupNormalization), with reference outputs from ONNX
Runtime (the npm cache's onnxruntime-node).

    /usr/bin/python3 scripts/make-opset-cases.py tests/data/onnx_opset18_21

Writes one ONNX backend-test case folder per case (model.onnx,
test_data_set_0/{input,output}_N.pb), which `glpool test-onnx` reads. The
models are built with onnx.helper directly: Debian's onnx (1.12) knows
opsets up to 17, so nothing here asks its checker or its schemas.
"""
import os
import shutil
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle"))
import onnx_case  # noqa: E402

rng = np.random.default_rng(18)
F = TensorProto.FLOAT


def floats(*shape):
    return rng.uniform(-2.0, 2.0, size=shape).astype(np.float32)


def ints(values):
    return np.array(values, dtype=np.int64)


class Case:
    """One model: nodes over named inputs (runtime arrays) and initializers."""

    def __init__(self, name, opset):
        self.name, self.opset = name, opset
        self.nodes, self.inputs, self.inits, self.outputs = [], [], [], []

    def input(self, name, array):
        self.inputs.append((name, array))
        return name

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, **attrs))
        for out in outputs:
            if out not in self.outputs:
                self.outputs.append(out)
        return outputs[0]

    def model_bytes(self, outputs):
        def info(name, array):
            elem = helper.np_dtype_to_tensor_dtype(array.dtype) if hasattr(helper, "np_dtype_to_tensor_dtype") \
                else {np.dtype(np.float32): F, np.dtype(np.int64): TensorProto.INT64,
                      np.dtype(np.bool_): TensorProto.BOOL}[array.dtype]
            return helper.make_tensor_value_info(name, elem, list(array.shape))
        graph = helper.make_graph(self.nodes, self.name, [info(n, a) for n, a in self.inputs],
                                  [helper.make_tensor_value_info(o, F, None) for o in outputs],
                                  initializer=self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)],
                                  producer_name="glpool make-opset-cases.py")
        # Opsets 18-21 came with IR versions 8-10; 8 reads them all.
        model.ir_version = 8
        return model.SerializeToString()


def build_cases():
    cases = []

    def case(name, opset):
        c = Case(name, opset)
        cases.append(c)
        return c

    # --- 18: reductions take axes as input 1, and noop_with_empty_axes.
    for op in ["ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
               "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"]:
        c = case(f"{op.lower()}_axes_input_18", 18)
        x = c.input("x", np.abs(floats(2, 5, 6, 7)) + 0.1 if "Log" in op else floats(2, 5, 6, 7))
        c.node(op, [x, c.const("axes", ints([1, -1]))], ["y"], keepdims=1)
    c = case("reducemean_axes_runtime_input_18", 18)
    c.node("ReduceMean", [c.input("x", floats(3, 4, 5)), c.input("axes", ints([2]))], ["y"], keepdims=0)
    c = case("reducemax_no_axes_18", 18)
    c.node("ReduceMax", [c.input("x", floats(3, 4, 5))], ["y"], keepdims=0)
    c = case("reducemean_noop_empty_axes_18", 18)
    # An empty axes tensor (ONNX Runtime 1.20 fails when axes is left out).
    c.node("ReduceMean", [c.input("x", floats(3, 4, 5)), c.const("axes", ints([]))], ["y"], noop_with_empty_axes=1)
    # --- 18: Split num_outputs (the last part smaller when uneven).
    c = case("split_num_outputs_uneven_18", 18)
    c.node("Split", [c.input("x", floats(2, 10, 3))], ["a", "b", "c", "d"], axis=1, num_outputs=4)
    c = case("split_num_outputs_even_18", 18)
    c.node("Split", [c.input("x", floats(2, 6, 9))], ["a", "b", "c"], axis=-1, num_outputs=3)
    # --- 18: Pad axes.
    c = case("pad_axes_constant_18", 18)
    c.node("Pad", [c.input("x", floats(2, 3, 5, 6)), c.const("pads", ints([1, 2, 0, 3])),
                   c.const("value", np.array(0.5, np.float32)), c.const("axes", ints([1, 3]))], ["y"])
    c = case("pad_axes_negative_reflect_18", 18)
    c.node("Pad", [c.input("x", floats(1, 2, 5, 6)), c.const("pads", ints([2, 1, 1, 2])), "",
                   c.const("axes", ints([-1, -2]))], ["y"], mode="reflect")
    # --- 18: Resize axes, keep_aspect_ratio_policy, antialias.
    c = case("resize_axes_scales_linear_18", 18)
    c.node("Resize", [c.input("x", floats(1, 3, 6, 8)), "", c.const("scales", np.array([1.5, 0.75], np.float32))],
           ["y"], mode="linear", axes=[2, 3])
    c = case("resize_axes_sizes_nearest_18", 18)
    c.node("Resize", [c.input("x", floats(1, 2, 5, 7)), "", "", c.const("sizes", ints([11, 4]))], ["y"],
           mode="nearest", axes=[3, 2])
    for policy in ["not_larger", "not_smaller"]:
        c = case(f"resize_keep_aspect_{policy}_18", 18)
        c.node("Resize", [c.input("x", floats(1, 2, 6, 9)), "", "", c.const("sizes", ints([10, 10]))], ["y"],
               mode="linear", axes=[2, 3], keep_aspect_ratio_policy=policy)
    for mode, scales in [("linear", [0.5, 0.6]), ("cubic", [0.45, 0.7]), ("linear", [1.0, 2.0])]:
        c = case(f"resize_{mode}_antialias_{int(scales[0] * 100)}_18", 18)
        c.node("Resize", [c.input("x", floats(1, 3, 16, 15)), "",
                          c.const("scales", np.array([1, 1] + scales, np.float32))], ["y"],
               mode=mode, antialias=1)
    c = case("resize_linear_antialias_sizes_pytorch_18", 18)
    c.node("Resize", [c.input("x", floats(1, 2, 17, 12)), "", "", c.const("sizes", ints([1, 2, 6, 5]))], ["y"],
           mode="linear", antialias=1, coordinate_transformation_mode="pytorch_half_pixel")
    # --- 18: new ops.
    c = case("mish_18", 18)
    c.node("Mish", [c.input("x", floats(2, 5, 3, 3) * 4)], ["y"])
    for groups, channels in [(3, 6), (2, 6), (4, 4)]:
        c = case(f"group_normalization_{groups}_of_{channels}_18", 18)
        c.node("GroupNormalization", [c.input("x", floats(2, channels, 5, 4) + 1.0),
                                      c.const("scale", floats(groups)), c.const("bias", floats(groups))],
               ["y"], num_groups=groups, epsilon=1e-4)
    # --- 19: AveragePool dilations, Pad wrap, Resize half_pixel_symmetric.
    for include_pad in [0, 1]:
        c = case(f"averagepool_dilations_pads_include_{include_pad}_19", 19)
        c.node("AveragePool", [c.input("x", floats(1, 3, 9, 10))], ["y"], kernel_shape=[3, 2], dilations=[2, 3],
               pads=[1, 1, 2, 1], strides=[1, 2], count_include_pad=include_pad)
    c = case("averagepool_dilations_ceil_19", 19)
    c.node("AveragePool", [c.input("x", floats(1, 2, 8, 8))], ["y"], kernel_shape=[2, 2], dilations=[2, 2],
           strides=[2, 2], ceil_mode=1)
    c = case("pad_wrap_19", 19)
    c.node("Pad", [c.input("x", floats(1, 2, 4, 5)), c.const("pads", ints([0, 0, 2, 3, 0, 1, 3, 2]))], ["y"],  # ONNX Runtime 1.20 errs for pads past the dim
           mode="wrap")
    for mode in ["linear", "nearest"]:
        c = case(f"resize_half_pixel_symmetric_{mode}_19", 19)
        c.node("Resize", [c.input("x", floats(1, 2, 5, 7)), "",
                          c.const("scales", np.array([1, 1, 1.7, 0.6], np.float32))], ["y"],
               mode=mode, coordinate_transformation_mode="half_pixel_symmetric")
    # --- 20: Gelu; ReduceMax on bool.
    for approximate in ["none", "tanh"]:
        c = case(f"gelu_{approximate}_20", 20)
        c.node("Gelu", [c.input("x", floats(2, 7, 3, 5) * 3)], ["y"], approximate=approximate)
    c = case("reducemax_bool_20", 20)
    b = c.node("Greater", [c.input("x", floats(2, 3, 4)), c.const("zero", np.array(0.5, np.float32))], ["b"])
    m = c.node("ReduceMax", [b, c.const("axes", ints([2]))], ["m"], keepdims=0)
    c.outputs = []
    c.node("Cast", [m], ["y"], to=F)
    # --- 21: GroupNormalization per channel; a small network of ops whose
    # revisions only added element types.
    for groups, channels in [(2, 6), (3, 3)]:
        c = case(f"group_normalization_{groups}_of_{channels}_21", 21)
        c.node("GroupNormalization", [c.input("x", floats(2, channels, 4, 3)),
                                      c.const("scale", floats(channels)), c.const("bias", floats(channels))],
               ["y"], num_groups=groups, stash_type=1)
    c = case("network_types_only_revisions_21", 21)
    x = c.input("x", floats(1, 3, 8, 8))
    h = c.node("Conv", [x, c.const("w", floats(4, 3, 3, 3)), c.const("b", floats(4))], ["h"], pads=[1, 1, 1, 1])
    h = c.node("Relu", [h], ["h2"])
    h = c.node("Pad", [h, c.const("pads", ints([0, 0, 1, 1, 0, 0, 1, 1]))], ["h3"])
    h = c.node("Transpose", [h], ["h4"], perm=[0, 2, 3, 1])
    h = c.node("Reshape", [h, c.const("shape", ints([1, -1, 4]))], ["h5"])
    h = c.node("Unsqueeze", [h, c.const("ax0", ints([0]))], ["h6"])
    h = c.node("Squeeze", [h, c.const("ax1", ints([0]))], ["h7"])
    h = c.node("Flatten", [h], ["h8"], axis=1)
    h = c.node("Cast", [h], ["h9"], to=F)
    h = c.node("Identity", [h], ["h10"])
    c.outputs = []
    c.node("Softmax", [h], ["y"], axis=-1)
    return cases


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out_root = sys.argv[1]
    if os.path.isdir(out_root):
        shutil.rmtree(out_root)
    for c in build_cases():
        model = c.model_bytes(c.outputs)
        outputs = onnx_case.write_case(os.path.join(out_root, c.name), model, c.inputs)
        shapes = ", ".join(f"{n} {list(a.shape)}" for n, a in outputs)
        print(f"{c.name}: {shapes}")


if __name__ == "__main__":
    main()
