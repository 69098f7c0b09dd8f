// ONNX model -> Graph IR with fully static shapes.
//
// Reading goes through Debian's libonnx protobuf classes. Import:
//  - accepts default-domain opsets 7 to 17 (others: kUnsupported);
//  - reads initializers in every storage form (see tensor_proto.h); a
//    missing external data file is kNotFound naming the tensor and file,
//    unless options.random_weights asks for a deterministic fill;
//  - turns Constant nodes into constant tensors (they leave graph.nodes);
//  - fixes dynamic input dims from options.input_shapes, then infers every
//    tensor's shape (our per-op rules, ONNX's shape inference as a fallback)
//    while folding constant subgraphs (Shape, Gather, Slice, Concat,
//    Unsqueeze, Cast, ConstantOfShape, Range, Reshape, integer arithmetic,
//    Equal/Where...) until nothing changes, so shape arithmetic disappears
//    and folded nodes leave graph.nodes. A dimension still unknown is an
//    error naming the tensor and the node that produces it;
//  - sorts nodes topologically (the stored order when it already is).
//
// Consequences for executors: a graph output may be a constant tensor (its
// producer was folded), and graph.nodes never contains Constant nodes.
// Operator forms are not rewritten: e.g. opset-9 Slice keeps its attributes
// and opset-13 Slice its inputs; graph.opset says which form applies.
//
// Errors name the file and, where it applies, the node and tensor:
// kNotFound (no file), kInvalidModel (corrupt/truncated protobuf, undefined
// tensors, inconsistent initializers, a cycle), kUnsupported (opset, domain,
// unknown op, subgraph attributes, dtypes), kInvalidArgument (input_shapes
// naming no input, or disagreeing with a static dim or the input's rank).
#pragma once

#include <map>
#include <string>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/tensor_proto.h"

namespace glpool {

struct ImportOptions {
  // Fill initializers whose external data file is missing with a
  // deterministic pseudo-random pattern (seeded by the tensor name) instead
  // of failing; for planning graph-only models such as the shared zoo.
  bool random_weights = false;
  // Fixed shapes for graph inputs by name, e.g. {"input", {1, 3, 640, 640}};
  // required for every input dimension the model leaves symbolic.
  std::map<std::string, Shape> input_shapes;
  // Fold constant subgraphs (shape arithmetic). Turning this off leaves such
  // nodes in place, and import then fails if a shape depends on them.
  bool fold_constants = true;
};

StatusOr<Graph> LoadOnnxModel(const std::string& path, const ImportOptions& options = {});

// Same from an in-memory model; external data is looked up in model_dir and
// messages name `label` as the file.
StatusOr<Graph> ImportOnnxModel(const onnx::ModelProto& model, const std::string& model_dir,
                                const ImportOptions& options = {}, const std::string& label = "<model>");

// Parses "1x3x640x640" ("scalar" or "" for a rank-0 shape).
StatusOr<Shape> ParseShape(const std::string& text);
// Parses "NAME=1x3x640x640" into options->input_shapes.
Status ParseInputShapeFlag(const std::string& flag, ImportOptions* options);

}  // namespace glpool
