#include "gpu_backend/import/resize_rule.h"

#include <cmath>

#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/resize_target.h"

namespace glpool {

Status ReadResizeRule(const Graph& graph, const Node& node, ResizeRule& rule, std::vector<double>& scales,
                      std::vector<float>& roi) {
  rule.mode = node.GetString("mode", "nearest");
  if (rule.mode == "bilinear") rule.mode = "linear";
  if (node.op_type == "Upsample" || graph.opset < 11) {
    rule.transform = "asymmetric";
    rule.nearest_mode = "simple";
    std::vector<float> given;
    if (node.op_type == "Upsample" && graph.opset < 9) {
      given = node.GetFloats("scales");
    } else {
      GLPOOL_ASSIGN_OR_RETURN(given, NodeView(graph, node).ConstFloats(1, "scales"));
    }
    scales.assign(given.begin(), given.end());
    return Status::Ok();
  }
  rule.transform = node.GetString("coordinate_transformation_mode", "half_pixel");
  rule.nearest_mode = node.GetString("nearest_mode", "round_prefer_floor");
  rule.cubic_a = node.GetFloat("cubic_coeff_a", -0.75f);
  rule.exclude_outside = node.GetInt("exclude_outside", 0) != 0;
  rule.antialias = graph.opset >= 18 && node.GetInt("antialias", 0) != 0 && rule.mode != "nearest";
  if (rule.transform == "half_pixel_symmetric" && graph.opset < 19) {
    return InvalidModelError("half_pixel_symmetric needs opset 19");
  }
  GLPOOL_ASSIGN_OR_RETURN(const ResizeTarget target, ReadResizeTarget(NodeView(graph, node)));
  scales = target.scales;
  roi = target.roi;
  return Status::Ok();
}

// The resized length is scale x in, unrounded, as in the ONNX reference
// implementation: the output size when sizes are given, fractional for some
// scales (align_corners and tf_crop_and_resize divide by it).
double ResizeSourceCoordinate(const ResizeRule& rule, int64_t x, double scale, int64_t in, int64_t out,
                              double roi_start, double roi_end) {
  const double xo = static_cast<double>(x);
  const double span = static_cast<double>(in - 1);
  const double resized = scale * static_cast<double>(in);
  const std::string& t = rule.transform;
  if (t == "asymmetric") return xo / scale;
  if (t == "align_corners") return out == 1 ? 0.0 : xo * span / (resized - 1);
  if (t == "tf_half_pixel_for_nn") return (xo + 0.5) / scale;
  if (t == "pytorch_half_pixel") return out > 1 ? (xo + 0.5) / scale - 0.5 : 0.0;
  if (t == "half_pixel_symmetric") {
    // The implicit roi's centre maps to the output's centre (differs from
    // half_pixel where the output size was rounded).
    const double offset = 0.5 * static_cast<double>(in) * (1.0 - static_cast<double>(out) / resized);
    return offset + (xo + 0.5) / scale - 0.5;
  }
  if (t == "tf_crop_and_resize") {
    if (out == 1) return 0.5 * (roi_start + roi_end) * span;
    return roi_start * span + xo * (roi_end - roi_start) * span / (resized - 1);
  }
  return (xo + 0.5) / scale - 0.5;  // half_pixel
}

int64_t NearestResizeSource(const ResizeRule& rule, double x, double scale) {
  const double below = std::floor(x);
  const std::string& m = rule.nearest_mode;
  // Opset < 11 "simple" rounding, as ONNX Runtime implements it.
  if (m == "simple") return static_cast<int64_t>(scale < 1.0 ? std::ceil(x) : below);
  if (m == "floor") return static_cast<int64_t>(below);
  if (m == "ceil") return static_cast<int64_t>(std::ceil(x));
  if (m == "round_prefer_ceil") return static_cast<int64_t>(x - below >= 0.5 ? below + 1 : below);
  return static_cast<int64_t>(x - below > 0.5 ? below + 1 : below);  // round_prefer_floor
}

}  // namespace glpool
