// Per-op output type rules: given a node whose inputs all have known dtypes
// and static shapes, the dtype and static shape of each of its outputs.
//
// Rules follow the ONNX operator specs for opsets 7 to 17, including the
// opset-dependent forms (attributes that became inputs: Slice 10, Pad 11,
// Resize 11, Split/Squeeze/Unsqueeze/ReduceSum 13...). Inputs that decide a
// shape (Reshape's shape, Resize's sizes/scales, Expand, Tile, Slice...)
// must be constant; when one is not, the rule fails saying which.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// No tensor may hold more elements than this (2^40): it keeps every
// element count and byte size far from int64 overflow.
inline constexpr int64_t kMaxShapeElements = int64_t{1} << 40;

struct TensorType {
  DataType dtype = DataType::kUndefined;
  Shape shape;
};

// Whether InferNodeTypes knows `op_type` (default domain).
bool HasShapeRule(const std::string& op_type);

// One entry per node output (optional outputs named "" included).
StatusOr<std::vector<TensorType>> InferNodeTypes(const Graph& graph, const Node& node);

}  // namespace glpool
