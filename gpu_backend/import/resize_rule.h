// How a Resize (opset 10+) or Upsample (7-9) maps output coordinates to
// input ones: its mode, coordinate transformation and nearest rounding,
// read per opset. Shared by the GPU kernel (kernels/resize.cc), which
// turns it into tap tables, and the pass that folds integer nearest
// upsamples into their reader (passes.h FoldNearestUpsampleIntoElementwise),
// so both follow one reading of the ONNX rules (the CPU reference, the
// oracle, has its own).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct ResizeRule {
  std::string mode = "nearest";                     // nearest, linear, cubic
  std::string transform = "half_pixel";             // coordinate_transformation_mode
  std::string nearest_mode = "round_prefer_floor";  // or "simple" (Upsample, Resize-10)
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;  // linear and cubic only
};

// The node's rule and its per-dim scales and roi (2 x rank: starts, then
// ends), per opset.
Status ReadResizeRule(const Graph& graph, const Node& node, ResizeRule& rule, std::vector<double>& scales,
                      std::vector<float>& roi);

// The source coordinate of output coordinate x along an axis of `in`
// cells resized to `out` at `scale`, roi [roi_start, roi_end] (used by
// tf_crop_and_resize only).
double ResizeSourceCoordinate(const ResizeRule& rule, int64_t x, double scale, int64_t in, int64_t out,
                              double roi_start, double roi_end);

// The input cell nearest source coordinate x, by the rule's rounding
// (unclamped).
int64_t NearestResizeSource(const ResizeRule& rule, double x, double scale);

}  // namespace glpool
