#!/usr/bin/python3
"""Writes the committed hand-made seed corpus (tests/fuzz/corpus/<target>/).

Run with Debian's python3 (python3-onnx): /usr/bin/python3 make_corpus.py.
Seeds are small on purpose: each shows the fuzzer one structure (a dynamic
batch, shape arithmetic, external data, a typed field, an image format)
that mutation then damages. Larger seeds (the ONNX backend cases, the zoo)
come from scripts/fuzz_seeds.sh into the build folder, not into git.
"""
import json
import os
import struct
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))

def out(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)

def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "seed", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return m.SerializeToString()

def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)

def f32(name, shape, seed=0):
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array(rng.uniform(-1, 1, shape).astype(np.float32), name)

def i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)

def onnx_seeds():
    out("onnx", "conv_relu_dynamic_batch.onnx", model(
        [helper.make_node("Conv", ["X", "W", "B"], ["C"], pads=[1, 1, 1, 1], group=1),
         helper.make_node("Relu", ["C"], ["Y"])],
        [vi("X", ["N", 3, 8, 8])], [vi("Y", ["N", 4, 8, 8])], [f32("W", [4, 3, 3, 3]), f32("B", [4])]))
    out("onnx", "shape_arithmetic_reshape.onnx", model(
        [helper.make_node("Shape", ["X"], ["s"]),
         helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
         helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
         helper.make_node("Concat", ["n1", "minus_one"], ["target"], axis=0),
         helper.make_node("Reshape", ["X", "target"], ["Y"])],
        [vi("X", [2, 3, 4, 5])], [vi("Y", None)],
        [i64("zero", 0), i64("axes", [0]), i64("minus_one", [-1])]))
    out("onnx", "concat_split_transpose.onnx", model(
        [helper.make_node("Concat", ["A", "B"], ["C"], axis=1),
         helper.make_node("Split", ["C"], ["D", "E"], axis=1),
         helper.make_node("Transpose", ["D"], ["F"], perm=[0, 2, 3, 1]),
         helper.make_node("Add", ["E", "E"], ["G"])],
        [vi("A", [1, 2, 4, 4]), vi("B", [1, 6, 4, 4])], [vi("F", None), vi("G", None)]))
    out("onnx", "resize_pad_pool.onnx", model(
        [helper.make_node("Resize", ["X", "", "scales"], ["R"], mode="linear"),
         helper.make_node("Pad", ["R", "pads"], ["P"], mode="reflect"),
         helper.make_node("MaxPool", ["P"], ["M"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
         helper.make_node("GlobalAveragePool", ["M"], ["Y"])],
        [vi("X", [1, 3, 5, 7])], [vi("Y", None)],
        [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
         i64("pads", [0, 0, 1, 1, 0, 0, 1, 1])]))
    out("onnx", "gemm_softmax.onnx", model(
        [helper.make_node("Flatten", ["X"], ["F"], axis=1),
         helper.make_node("Gemm", ["F", "W", "B"], ["G"], transB=1, alpha=1.0),
         helper.make_node("Softmax", ["G"], ["Y"], axis=-1)],
        [vi("X", [2, 3, 2, 2])], [vi("Y", None)], [f32("W", [5, 12]), f32("B", [5])]))
    out("onnx", "batchnorm_clip_mul.onnx", model(
        [helper.make_node("Conv", ["X", "W"], ["C"]),
         helper.make_node("BatchNormalization", ["C", "s", "b", "m", "v"], ["N"], epsilon=1e-5),
         helper.make_node("Clip", ["N", "lo", "hi"], ["K"]),
         helper.make_node("HardSigmoid", ["K"], ["H"], alpha=1.0 / 6, beta=0.5),
         helper.make_node("Mul", ["K", "H"], ["Y"])],
        [vi("X", [1, 2, 6, 6])], [vi("Y", None)],
        [f32("W", [4, 2, 1, 1]), f32("s", [4], 1), f32("b", [4], 2), f32("m", [4], 3),
         numpy_helper.from_array(np.ones(4, np.float32), "v"),
         numpy_helper.from_array(np.array(0, np.float32), "lo"),
         numpy_helper.from_array(np.array(6, np.float32), "hi")]))
    external = f32("W", [4, 3, 1, 1])
    external.ClearField("raw_data")
    external.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "weights.bin"), ("offset", "0"), ("length", "48")):
        entry = external.external_data.add()
        entry.key, entry.value = key, value
    out("onnx", "external_weights.onnx", model(
        [helper.make_node("Conv", ["X", "W"], ["Y"])], [vi("X", [1, 3, 4, 4])], [vi("Y", None)], [external]))
    out("onnx", "identity_dropout_opset9.onnx", model(
        [helper.make_node("Identity", ["X"], ["I"]),
         helper.make_node("Dropout", ["I"], ["D"]),
         helper.make_node("Sigmoid", ["D"], ["Y"])],
        [vi("X", [1, 4, 3, 3])], [vi("Y", None)], opset=9))
    # If: a condition from data (both branches [1, 4], reading outer X and W),
    # and a constant one holding a nested If whose branches differ in shape.
    then_branch = helper.make_graph([helper.make_node("Mul", ["X", "W"], ["t"])], "then", [], [vi("t", None)])
    else_branch = helper.make_graph([helper.make_node("Neg", ["X"], ["t"])], "else", [], [vi("t", None)])
    inner_then = helper.make_graph([helper.make_node("ReduceMax", ["X"], ["u"], keepdims=1)], "inner_then", [],
                                   [vi("u", None)])
    inner_else = helper.make_graph([helper.make_node("Abs", ["X"], ["u"])], "inner_else", [], [vi("u", None)])
    nested = helper.make_graph([helper.make_node("If", ["C"], ["u"], then_branch=inner_then,
                                                 else_branch=inner_else)], "nested", [], [vi("u", None)])
    out("onnx", "if_data_and_nested.onnx", model(
        [helper.make_node("ReduceSum", ["X"], ["S"], keepdims=0),
         helper.make_node("Greater", ["S", "zero"], ["P"]),
         helper.make_node("If", ["P"], ["A"], then_branch=then_branch, else_branch=else_branch),
         helper.make_node("If", ["C"], ["B"], then_branch=nested, else_branch=nested)],
        [vi("X", [1, 4])], [vi("A", None), vi("B", None)],
        [f32("W", [1, 4]), numpy_helper.from_array(np.array(0, np.float32), "zero"),
         numpy_helper.from_array(np.array(True), "C")]))
    out("onnx", "float16_conv.onnx", model(
        [helper.make_node("Conv", ["X", "W"], ["C"]),
         helper.make_node("Relu", ["C"], ["Y"])],
        [vi("X", [1, 2, 4, 4], TensorProto.FLOAT16)], [vi("Y", None, TensorProto.FLOAT16)],
        [numpy_helper.from_array(np.ones((3, 2, 1, 1), np.float16), "W")]))

def tensor_pb_seeds():
    out("tensor_pb", "float_nchw.pb",
        numpy_helper.from_array(np.linspace(0, 1, 24, dtype=np.float32).reshape(1, 2, 3, 4), "x").SerializeToString())
    out("tensor_pb", "int64_vector.pb", i64("shape", [1, -1, 7]).SerializeToString())
    typed = helper.make_tensor("typed", TensorProto.FLOAT, [2, 2], [0.5, 1.5, -2.0, 3.0])
    out("tensor_pb", "float_typed_field.pb", typed.SerializeToString())
    out("tensor_pb", "fp16.pb", numpy_helper.from_array(np.arange(6, dtype=np.float16).reshape(2, 3), "h")
        .SerializeToString())
    out("tensor_pb", "bool_scalar.pb", numpy_helper.from_array(np.array(True), "b").SerializeToString())
    out("tensor_pb", "uint8_int32_field.pb",
        helper.make_tensor("u", TensorProto.UINT8, [3], [1, 2, 255]).SerializeToString())
    ext = helper.make_tensor("e", TensorProto.FLOAT, [4], [0, 0, 0, 0])
    ext.ClearField("float_data")
    ext.data_location = TensorProto.EXTERNAL
    entry = ext.external_data.add()
    entry.key, entry.value = "location", "data.bin"
    out("tensor_pb", "external.pb", ext.SerializeToString())

def records_seeds():
    def records(tasks, recs):
        return json.dumps({"model": "seed", "tasks": tasks, "records": [
            {"name": f"t{i}", "size": s, "first": a, "last": b} for i, (s, a, b) in enumerate(recs)]}).encode()
    out("records", "empty.json", records(0, []))
    out("records", "one.json", records(1, [(1024, 0, 0)]))
    out("records", "chain.json", records(5, [(64, 0, 1), (128, 1, 2), (64, 2, 3), (256, 3, 4)]))
    out("records", "residual.json", records(6, [(100, 0, 5), (50, 0, 1), (50, 1, 2), (75, 2, 3), (25, 3, 5),
                                                 (100, 4, 5), (0, 2, 2)]))
    out("records", "no_tasks_field.json", b'{"records": [{"size": 7, "first": 0, "last": 2},'
        b' {"size": 9, "first": 1, "last": 1}]}')

def png(width, height, color_type, rows, interlace=0):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, interlace)
    raw = b"".join(b"\x00" + row for row in rows)
    extra = chunk(b"PLTE", bytes(range(0, 48))) if color_type == 3 else b""
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw)) +
            chunk(b"IEND", b""))

def bmp(width, height):
    row = bytes((x * 40) % 256 for x in range(width * 3))
    row += b"\x00" * ((4 - len(row) % 4) % 4)
    pixels = row * height
    header = struct.pack("<2sIHHI", b"BM", 54 + len(pixels), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    return header + info + pixels

def image_seeds():
    # The first byte is the fuzz target's shape selector, not image data.
    rgb = [bytes((x * 30 + y * 10 + c * 50) % 256 for x in range(5) for c in range(3)) for y in range(4)]
    out("image", "rgb_5x4.png", b"\x2a" + png(5, 4, 2, rgb))
    out("image", "gray_3x3.png", b"\x11" + png(3, 3, 0, [bytes([0, 128, 255])] * 3))
    out("image", "palette_4x2.png", b"\x07" + png(4, 2, 3, [bytes([0, 1, 2, 3]), bytes([15, 14, 13, 12])]))
    out("image", "rgba_2x2_interlaced.png", b"\x33" + png(2, 2, 6, [bytes(range(8)), bytes(range(8, 16))], 1))
    out("image", "rgb_6x3.bmp", b"\x5c" + bmp(6, 3))
    out("image", "gray_4x4.pgm", b"\x1f" + b"P5\n4 4\n255\n" + bytes(range(0, 256, 16)))
    out("image", "rgb_2x2.ppm", b"\x04" + b"P6\n2 2\n255\n" + bytes(range(12)))

if __name__ == "__main__":
    onnx_seeds()
    tensor_pb_seeds()
    records_seeds()
    image_seeds()
