// Resize's output shape and per-dim scales, wherever its opset keeps them:
// scales input 1 (opset 10), roi/scales/sizes inputs 1-3 (11+), for the dims
// the axes attribute names (18+), sizes fitted to keep_aspect_ratio_policy
// (18+). Shared by the shape rule and the GPU kernel, so both read the ONNX
// semantics from one place (the CPU reference, the oracle, has its own).
#pragma once

#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/node_view.h"

namespace glpool {

struct ResizeTarget {
  Shape out;                   // the output shape
  std::vector<double> scales;  // per dim, the scale its coordinates map with
  std::vector<float> roi;      // 2 x rank (starts, then ends); 0 and 1 where not given
};

StatusOr<ResizeTarget> ReadResizeTarget(const NodeView& v);

// floor(in x scale) per dim, in single precision as ONNX Runtime computes
// it, each checked against the tensor size bound.
StatusOr<Shape> ScaleShape(const Shape& x, const std::vector<float>& scales);

}  // namespace glpool
