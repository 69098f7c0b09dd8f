// Resize (opset 10+) and Upsample (7-9) of 3-D (N x C x W) and 4-D
// (N x C x H x W) tensors over the spatial axes (shaders/resize.comp).
//
// Every ONNX coordinate rule is resolved here, in double precision, into one
// tap table per axis (input indices and weights per output coordinate): the
// shader stays a plain gather, and rounding at exact .5 source coordinates
// matches the CPU reference instead of depending on GPU float precision.
#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

struct ResizeRule {
  std::string mode = "nearest";                     // nearest, linear, cubic
  std::string transform = "half_pixel";             // coordinate_transformation_mode
  std::string nearest_mode = "round_prefer_floor";  // or "simple" (Upsample, Resize-10)
  double cubic_a = -0.75;
  bool exclude_outside = false;
};

// The resized length is scale x in, unrounded, as in the ONNX reference
// implementation: the output size when sizes are given, fractional for some
// scales (align_corners and tf_crop_and_resize divide by it).
double SourceCoordinate(const ResizeRule& rule, int64_t x, double scale, int64_t in, int64_t out, double roi_start,
                        double roi_end) {
  const double xo = static_cast<double>(x);
  const double span = static_cast<double>(in - 1);
  const double resized = scale * static_cast<double>(in);
  const std::string& t = rule.transform;
  if (t == "asymmetric") return xo / scale;
  if (t == "align_corners") return out == 1 ? 0.0 : xo * span / (resized - 1);
  if (t == "tf_half_pixel_for_nn") return (xo + 0.5) / scale;
  if (t == "pytorch_half_pixel") return out > 1 ? (xo + 0.5) / scale - 0.5 : 0.0;
  if (t == "tf_crop_and_resize") {
    if (out == 1) return 0.5 * (roi_start + roi_end) * span;
    return roi_start * span + xo * (roi_end - roi_start) * span / (resized - 1);
  }
  return (xo + 0.5) / scale - 0.5;  // half_pixel
}

int64_t NearestSource(const ResizeRule& rule, double x, double scale) {
  const double below = std::floor(x);
  const std::string& m = rule.nearest_mode;
  // Opset < 11 "simple" rounding, as ONNX Runtime implements it.
  if (m == "simple") return static_cast<int64_t>(scale < 1.0 ? std::ceil(x) : below);
  if (m == "floor") return static_cast<int64_t>(below);
  if (m == "ceil") return static_cast<int64_t>(std::ceil(x));
  if (m == "round_prefer_ceil") return static_cast<int64_t>(x - below >= 0.5 ? below + 1 : below);
  return static_cast<int64_t>(x - below > 0.5 ? below + 1 : below);  // round_prefer_floor
}

// Appends one axis's table: per output coordinate two vec4s, the input
// indices (clamped to the edge) and their weights.
void AppendAxisTaps(const ResizeRule& rule, int64_t in, int64_t out, double scale, double roi_start, double roi_end,
                    std::vector<float>& table) {
  const int taps = rule.mode == "nearest" ? 1 : rule.mode == "linear" ? 2 : 4;
  for (int64_t x = 0; x < out; ++x) {
    const double src = SourceCoordinate(rule, x, scale, in, out, roi_start, roi_end);
    int64_t index[4] = {0, 0, 0, 0};
    double weight[4] = {0, 0, 0, 0};
    if (taps == 1) {
      index[0] = NearestSource(rule, src, scale);
      weight[0] = 1.0;
    } else {
      const double below = std::floor(src);
      const double r = src - below;
      const int64_t first = static_cast<int64_t>(below) - (taps == 4 ? 1 : 0);
      if (taps == 2) {
        weight[0] = 1.0 - r;
        weight[1] = r;
      } else {
        // Keys' cubic convolution with coefficient a.
        const double a = rule.cubic_a;
        auto near = [a](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };
        auto far = [a](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };
        weight[0] = far(r + 1);
        weight[1] = near(r);
        weight[2] = near(1 - r);
        weight[3] = far(2 - r);
      }
      double sum = 0;
      for (int k = 0; k < taps; ++k) {
        index[k] = first + k;
        if (rule.exclude_outside && (index[k] < 0 || index[k] >= in)) weight[k] = 0;
        sum += weight[k];
      }
      if (rule.exclude_outside && sum != 0) {
        for (double& w : weight) w /= sum;
      }
    }
    const bool outside = rule.transform == "tf_crop_and_resize" && (src < 0 || src > static_cast<double>(in - 1));
    for (int k = 0; k < 4; ++k) {
      const int64_t clamped = index[k] < 0 ? 0 : index[k] >= in ? in - 1 : index[k];
      table.push_back(outside ? -1.0f : static_cast<float>(clamped));
    }
    for (int k = 0; k < 4; ++k) table.push_back(static_cast<float>(weight[k]));
  }
}

// The node's rule and its scales / sizes / roi, per opset.
Status ReadRule(const Graph& graph, const Node& node, ResizeRule& rule, std::vector<float>& scales,
                std::vector<int64_t>& sizes, std::vector<float>& roi) {
  rule.mode = node.GetString("mode", "nearest");
  if (rule.mode == "bilinear") rule.mode = "linear";
  if (node.op_type == "Upsample" || graph.opset < 11) {
    rule.transform = "asymmetric";
    rule.nearest_mode = "simple";
    if (node.op_type == "Upsample" && graph.opset < 9) {
      scales = node.GetFloats("scales");
    } else {
      GLPOOL_ASSIGN_OR_RETURN(scales, ConstantFloats(graph, node, 1));
    }
    return Status::Ok();
  }
  rule.transform = node.GetString("coordinate_transformation_mode", "half_pixel");
  rule.nearest_mode = node.GetString("nearest_mode", "round_prefer_floor");
  rule.cubic_a = node.GetFloat("cubic_coeff_a", -0.75f);
  rule.exclude_outside = node.GetInt("exclude_outside", 0) != 0;
  if (node.GetInt("antialias", 0) != 0) return UnsupportedError("Resize antialias is not supported");
  if (node.HasAttribute("axes")) return UnsupportedError("Resize axes (opset 18) are not supported");
  if (node.GetString("keep_aspect_ratio_policy", "stretch") != "stretch") {
    return UnsupportedError("Resize keep_aspect_ratio_policy is not supported");
  }
  GLPOOL_ASSIGN_OR_RETURN(roi, ConstantFloats(graph, node, 1));
  GLPOOL_ASSIGN_OR_RETURN(scales, ConstantFloats(graph, node, 2));
  GLPOOL_ASSIGN_OR_RETURN(sizes, ConstantInts(graph, node, 3));
  return Status::Ok();
}

}  // namespace

StatusOr<KernelPlan> BuildResize(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.empty() || node.outputs.size() != 1) return InvalidModelError("needs an input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  const size_t rank = in->shape.size();
  if (rank != 3 && rank != 4) {
    return UnsupportedError("only 3-D and 4-D inputs resize on the GPU, input is " + ShapeToString(in->shape));
  }
  if (out->shape.size() != rank) return InvalidModelError("output rank differs from the input's");
  ResizeRule rule;
  std::vector<float> scales, roi;
  std::vector<int64_t> sizes;
  GLPOOL_RETURN_IF_ERROR(ReadRule(graph, node, rule, scales, sizes, roi));
  if (rule.mode != "nearest" && rule.mode != "linear" && rule.mode != "cubic") {
    return UnsupportedError("mode '" + rule.mode + "' is not supported");
  }
  if (!scales.empty() && !sizes.empty()) return InvalidModelError("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) return InvalidModelError("needs scales or sizes");
  if ((!scales.empty() && scales.size() != rank) || (!sizes.empty() && sizes.size() != rank)) {
    return InvalidModelError("scales / sizes need one value per input dim");
  }
  const bool crop = rule.transform == "tf_crop_and_resize";
  if (crop && roi.size() != 2 * rank) return InvalidModelError("tf_crop_and_resize needs 2 x rank roi values");
  std::vector<double> scale(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (in->shape[d] < 1 || out->shape[d] < 1) return InvalidModelError("empty input or output");
    scale[d] = sizes.empty() ? static_cast<double>(scales[d])
                             : static_cast<double>(sizes[d]) / static_cast<double>(in->shape[d]);
    if (scale[d] <= 0) return InvalidModelError("scales must be positive");
  }
  for (size_t d = 0; d < 2; ++d) {
    const bool cropped = crop && (roi[d] != 0.0f || roi[d + rank] != 1.0f);
    if (scale[d] != 1.0 || out->shape[d] != in->shape[d] || cropped) {
      return UnsupportedError("only the spatial axes may resize on the GPU (scales " + std::to_string(scale[0]) + ", " +
                              std::to_string(scale[1]) + " on N and C)");
    }
  }
  KernelPlan plan;
  plan.shader = "resize";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  KernelWeights taps{"taps", {}};
  if (rank == 3) {
    // No H axis: one identity row.
    taps.values = {0, 0, 0, 0, 1, 0, 0, 0};
  }
  for (size_t d = 2; d < rank; ++d) {
    AppendAxisTaps(rule, in->shape[d], out->shape[d], scale[d], crop ? roi[d] : 0.0, crop ? roi[d + rank] : 1.0,
                   taps.values);
  }
  plan.weights.push_back(std::move(taps));
  const int tap_count = rule.mode == "nearest" ? 1 : rule.mode == "linear" ? 2 : 4;
  plan.defines = {{"TAPS", std::to_string(tap_count)},
                  {"EXTRAPOLATION", GlslFloat(node.GetFloat("extrapolation_value", 0.0f))}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
