// ONNX model -> Graph IR with fully static shapes.
//
// Reading goes through Debian's libonnx protobuf classes. Import:
//  - accepts default-domain opsets 7 to 21 (1 to 6 too, best effort: the
//    ONNX backend tests use them; legacy broadcasting is accepted where it
//    equals numpy's, and an opset-6 per-channel PRelu slope [C] is reshaped
//    to [C,1,...]); other opsets are kUnsupported;
//  - checks every node against its ONNX signature (unknown op, wrong number
//    of inputs/outputs, missing required input, attributes) before anything
//    else reads it; past libonnx's opset 17 the ops that changed come from
//    glpool's own table (op_signatures.h);
//  - reads initializers in every storage form (see tensor_proto.h); a
//    missing external data file is kNotFound naming the tensor and file,
//    unless options.random_weights asks for a deterministic fill;
//  - turns Constant nodes into constant tensors (they leave graph.nodes);
//  - fixes dynamic input dims from options.input_shapes, then infers every
//    tensor's shape in node order while folding constant subgraphs (Shape,
//    Gather, Slice, Concat, Unsqueeze, Cast, ConstantOfShape, Range,
//    Reshape, integer arithmetic, Equal/Where...; constant_folding.h), so
//    shape arithmetic disappears and folded nodes leave graph.nodes. Shapes
//    come from our per-op rules (shape_rules.h); for an op without one, from
//    the types the model declares, then from ONNX's shape inference run on
//    that node alone. A dimension still unknown is an error naming the
//    tensor and the node that produces it;
//  - sorts nodes topologically (the stored order when it already is).
//
// Consequences for executors: a graph output may be a constant tensor (its
// producer was folded), and graph.nodes never contains Constant nodes.
// Operator forms are not rewritten: e.g. opset-9 Slice keeps its attributes
// and opset-13 Slice its inputs; graph.opset says which form applies.
//
// Errors name the file and, where it applies, the node and tensor:
// kNotFound (no file, missing external data), kInvalidModel (corrupt or
// truncated protobuf, undefined tensors, inconsistent initializers or
// shapes, a cycle), kUnsupported (opset, domain, unknown op, subgraph
// attributes, dtypes, a shape computed at run time), kInvalidArgument
// (input_shapes naming no input, disagreeing with a static dim or the
// input's rank; a dynamic input dim left unfixed). Nothing throws: even
// exceptions from the protobuf/onnx libraries come back as a Status.

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
  // External data is read only from inside this folder (symlinks
  // followed); empty means the model's own folder, as ONNX Runtime does.
  // An application that keeps weights elsewhere names that folder here.
  std::string external_data_root;
  // The largest initializer accepted, read or filled (kUnsupported naming
  // it otherwise), checked before any byte is allocated. Tensor data itself
  // is capped at 4 GiB whatever this says.
  uint64_t max_weight_bytes = uint64_t{1} << 32;
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
