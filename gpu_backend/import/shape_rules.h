// Per-op output type rules: given a node whose inputs all have known dtypes
// and static shapes, the dtype and static shape of each of its outputs.
//
// Rules follow the ONNX operator specs for opsets 7 to 21, including the
// opset-dependent forms (attributes that became inputs: Slice 10, Pad 11,
// Resize 11, Split/Squeeze/Unsqueeze/ReduceSum 13, the other reductions 18;
// Split num_outputs, Pad axes and Resize axes and keep_aspect_ratio_policy
// from 18). Inputs that decide a
// shape (Reshape's shape, Resize's sizes/scales, Expand, Tile, Slice...)
// must be constant; when one is not, the rule fails saying which.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Tensor sizes are bounded by glpool/tensor.h's kMaxShapeElements and
// kMaxTensorBytes (CheckTensorSize): every tensor may need a host copy
// (inputs, outputs, the CPU reference), and a model that asks for more must
// get an error naming the tensor before anything is allocated, not a
// std::bad_alloc. The limits also keep element counts far from overflow.

struct TensorType {
  DataType dtype = DataType::kUndefined;
  Shape shape;
};

// Whether InferNodeTypes knows `op_type` (default domain).
bool HasShapeRule(const std::string& op_type);

// One entry per node output (optional outputs named "" included).
StatusOr<std::vector<TensorType>> InferNodeTypes(const Graph& graph, const Node& node);

}  // namespace glpool
