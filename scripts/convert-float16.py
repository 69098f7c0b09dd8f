#!/usr/bin/env python3
"""Converts an ONNX model's float32 numbers to float16, as models are
published to halve their download (the form onnxconverter-common's float16
conversion produces).

    /usr/bin/python3 scripts/convert-float16.py IN.onnx OUT.onnx [--keep-io-types] [--fp32-ops Op,Op]

- every float32 initializer, Constant value and ConstantOfShape value
  becomes float16 (values beyond half's range, +-65504, are clipped so
  none turns into infinity; the count is printed);
- Cast nodes to float32 cast to float16 instead;
- graph inputs and outputs become float16, or with --keep-io-types stay
  float32 with a Cast at each edge (a model that takes and gives float32
  but computes in float16);
- ops listed with --fp32-ops (default: none) run in float32 between Casts:
  the way to keep an op a runtime has no float16 kernel for;
- inputs that ONNX requires in float32 whatever the data type (Resize's roi
  and scales, Upsample's scales) keep their float32 initializers.

Value infos are dropped (they describe float32 tensors); importers infer
types again. Only the main graph is converted: a model with subgraphs
(If, Loop, Scan) is refused. External data is loaded, so the result is
self-contained.
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HALF_MAX = float(np.finfo(np.float16).max)

# Inputs that stay float32 in any model: (op, input index).
FLOAT32_INPUTS = {("Resize", 1), ("Resize", 2), ("Upsample", 1)}


def to_half(array, name, report):
    clipped = np.clip(array, -HALF_MAX, HALF_MAX)
    count = int(np.count_nonzero(clipped != array))
    if count:
        report.append(f"{name}: {count} values beyond +-{HALF_MAX:g} clipped")
    return clipped.astype(np.float16)


def half_tensor(tensor, report):
    return numpy_helper.from_array(to_half(numpy_helper.to_array(tensor), tensor.name, report), tensor.name)


def float32_initializer_uses(graph):
    """Initializer names read at a position that must stay float32."""
    keep = set()
    for node in graph.node:
        for index, name in enumerate(node.input):
            if (node.op_type, index) in FLOAT32_INPUTS:
                keep.add(name)
    return keep


def float_tensors(model):
    """Names of the float32 tensors of the original model (by ONNX's
    shape inference), so Casts go only around float values."""
    inferred = onnx.shape_inference.infer_shapes(model)
    graph = inferred.graph
    names = set()
    for info in list(graph.input) + list(graph.output) + list(graph.value_info):
        if info.type.tensor_type.elem_type == TensorProto.FLOAT:
            names.add(info.name)
    for tensor in graph.initializer:
        if tensor.data_type == TensorProto.FLOAT:
            names.add(tensor.name)
    for node in graph.node:
        if node.op_type == "Constant":
            for attr in node.attribute:
                if attr.name == "value" and attr.t.data_type == TensorProto.FLOAT:
                    names.update(node.output)
    return names


def rename(nodes, old, new, outputs):
    """Every node input (and, with `outputs`, output) named `old` becomes `new`."""
    for node in nodes:
        for field in (node.input, node.output) if outputs else (node.input,):
            for index, name in enumerate(field):
                if name == old:
                    field[index] = new


def convert(model, keep_io_types=False, fp32_ops=()):
    """Returns (float16 model, list of notes)."""
    graph = model.graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                raise SystemExit(f"node {node.name or node.op_type} ({node.op_type}) holds a subgraph: "
                                 "this script converts only the main graph")
    floats = float_tensors(model)
    keep32 = float32_initializer_uses(graph)
    report = []
    used = {name for node in graph.node for name in node.input} | {o.name for o in graph.output}
    taken = used | {name for node in graph.node for name in node.output} | {t.name for t in graph.initializer}

    def fresh(base):
        name, n = base, 0
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        return name

    # Initializers and constants.
    initializers = []
    for tensor in graph.initializer:
        if tensor.data_type == TensorProto.FLOAT and tensor.name not in keep32:
            initializers.append(half_tensor(tensor, report))
        else:
            initializers.append(tensor)
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    for node in graph.node:
        for attr in node.attribute:
            if node.op_type in ("Constant", "ConstantOfShape") and attr.name == "value" \
                    and attr.t.data_type == TensorProto.FLOAT:
                if node.op_type == "Constant" and any(out in keep32 for out in node.output):
                    continue
                attr.t.CopyFrom(half_tensor(attr.t, report))
            if node.op_type == "Cast" and attr.name == "to" and attr.i == TensorProto.FLOAT:
                attr.i = TensorProto.FLOAT16

    # Ops kept in float32: Cast float inputs up, float outputs back down.
    nodes = []
    for node in graph.node:
        if node.op_type not in fp32_ops:
            nodes.append(node)
            continue
        for index, name in enumerate(node.input):
            if name and name in floats and (node.op_type, index) not in FLOAT32_INPUTS:
                wide = fresh(f"{name}_fp32")
                nodes.append(helper.make_node("Cast", [name], [wide], to=TensorProto.FLOAT))
                node.input[index] = wide
        after = []
        for index, name in enumerate(node.output):
            if name and name in floats:
                wide = fresh(f"{name}_fp32")
                node.output[index] = wide
                after.append(helper.make_node("Cast", [wide], [name], to=TensorProto.FLOAT16))
        nodes.append(node)
        nodes.extend(after)

    # Graph edges.
    initializer_names = {t.name for t in graph.initializer}
    for info in graph.input:
        if info.name in initializer_names or info.type.tensor_type.elem_type != TensorProto.FLOAT:
            continue
        if keep_io_types:
            half = fresh(f"{info.name}_fp16")
            rename(nodes, info.name, half, outputs=False)
            nodes.insert(0, helper.make_node("Cast", [info.name], [half], to=TensorProto.FLOAT16))
        else:
            info.type.tensor_type.elem_type = TensorProto.FLOAT16
    for info in graph.output:
        if info.type.tensor_type.elem_type != TensorProto.FLOAT:
            continue
        if keep_io_types:
            half = fresh(f"{info.name}_fp16")
            rename(nodes, info.name, half, outputs=True)
            nodes.append(helper.make_node("Cast", [half], [info.name], to=TensorProto.FLOAT))
        else:
            info.type.tensor_type.elem_type = TensorProto.FLOAT16
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.value_info[:]
    onnx.checker.check_model(model)
    return model, report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--keep-io-types", action="store_true", help="float32 inputs and outputs, Casts at the edges")
    parser.add_argument("--fp32-ops", default="", help="comma-separated ops to keep in float32 between Casts")
    args = parser.parse_args()
    model = onnx.load(args.input)
    fp32_ops = {op for op in args.fp32_ops.split(",") if op}
    converted, report = convert(model, args.keep_io_types, fp32_ops)
    onnx.save(converted, args.output)
    for line in report:
        print(line)
    print(f"{args.output}: float16, {len(converted.graph.node)} nodes")


if __name__ == "__main__":
    sys.exit(main())
