#!/usr/bin/env python3
"""Converts an ONNX model to a newer default-domain opset, 18 to 21.

    /usr/bin/python3 scripts/convert-opset.py IN.onnx OUT.onnx --opset 21

Debian's onnx (1.12) has onnx.version_converter up to opset 17 only, so the
model is first brought to 17 with it, then moved one opset at a time by this
script's own adapters, written from ONNX's operator changelog (versions 18
to 21): an op whose signature changed gets the new form (Reduce* axes from
the attribute to input 1 at 18, GroupNormalization's per-group scale and
bias repeated per channel at 21); ops whose revisions only added element
types or optional inputs and attributes keep their nodes. An op whose change
has no adapter here stops the conversion with its name. Weights stay where
they were (external data is neither loaded nor moved).
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, version_converter

LIBRARY_MAX_OPSET = 17

# Reductions whose axes become input 1 at opset 18 (ReduceSum did at 13).
REDUCTIONS_18 = {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
                 "ReduceMin", "ReduceProd", "ReduceSumSquare"}
# Ops whose change at the given opset this script cannot express.
NO_ADAPTER = {19: set(), 20: {"DFT", "GridSample"}, 21: set()}


def default_opset(model):
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry
    raise SystemExit("the model declares no default-domain opset")


def all_graphs(graph):
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from all_graphs(attr.g)
            for g in attr.graphs:
                yield from all_graphs(g)


class Names:
    """Fresh tensor names that no graph of the model uses yet."""

    def __init__(self, model):
        self.used = set()
        for g in all_graphs(model.graph):
            self.used.update(i.name for i in g.initializer)
            for node in g.node:
                self.used.update(node.input)
                self.used.update(node.output)

    def fresh(self, base):
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return name


def to_18(model, names):
    for graph in all_graphs(model.graph):
        for node in graph.node:
            if node.op_type not in REDUCTIONS_18 or node.domain not in ("", "ai.onnx"):
                continue
            axes = [a for a in node.attribute if a.name == "axes"]
            if not axes:
                continue  # no axes: every dim, as before
            values = list(axes[0].ints)
            node.attribute.remove(axes[0])
            name = names.fresh(f"{node.name or node.op_type}_axes")
            graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
            del node.input[1:]
            node.input.append(name)


def channel_count(graph, tensor):
    for info in list(graph.input) + list(graph.value_info):
        if info.name == tensor:
            dims = info.type.tensor_type.shape.dim
            if len(dims) > 1 and dims[1].HasField("dim_value"):
                return dims[1].dim_value
    return None


def to_21(model, names):
    for graph in all_graphs(model.graph):
        inits = {i.name: i for i in graph.initializer}
        for node in graph.node:
            if node.op_type != "GroupNormalization":
                continue
            groups = next(a.i for a in node.attribute if a.name == "num_groups")
            channels = channel_count(graph, node.input[0])
            if channels is None or any(name not in inits for name in node.input[1:3]):
                raise SystemExit(f"GroupNormalization '{node.name}': per-group scale and bias become per channel "
                                 "at opset 21, which needs constant scale/bias and a known channel count")
            for slot in (1, 2):
                per_group = numpy_helper.to_array(inits[node.input[slot]])
                name = names.fresh(node.input[slot] + "_per_channel")
                graph.initializer.append(numpy_helper.from_array(np.repeat(per_group, channels // groups), name))
                node.input[slot] = name


def check_adapters(model, opset):
    for graph in all_graphs(model.graph):
        for node in graph.node:
            if node.domain in ("", "ai.onnx") and node.op_type in NO_ADAPTER.get(opset, set()):
                raise SystemExit(f"{node.op_type} changed at opset {opset}; this script has no adapter for it")


def convert(model, target):
    start = default_opset(model).version
    if start > target:
        raise SystemExit(f"the model is at opset {start}, above {target}")
    if start < LIBRARY_MAX_OPSET:
        # Some adapters (Softmax 12 -> 13) need the ranks shape inference gives.
        model = onnx.shape_inference.infer_shapes(model)
        model = version_converter.convert_version(model, min(target, LIBRARY_MAX_OPSET))
    names = Names(model)
    for opset in range(max(start, LIBRARY_MAX_OPSET) + 1, target + 1):
        check_adapters(model, opset)
        if opset == 18:
            to_18(model, names)
        if opset == 21:
            to_21(model, names)
        default_opset(model).version = opset
    model.ir_version = max(model.ir_version, 8)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--opset", type=int, required=True, choices=range(LIBRARY_MAX_OPSET, 22))
    args = parser.parse_args()
    model = onnx.load(args.input, load_external_data=False)
    model = convert(model, args.opset)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    onnx.save(model, args.output)
    print(f"{args.output}: opset {args.opset}")


if __name__ == "__main__":
    sys.exit(main())
