// Resize (opset 10+) and Upsample (7-9) of 3-D (N x C x W) and 4-D
// (N x C x H x W) tensors over the spatial axes (shaders/resize.comp).
//
// Every ONNX coordinate rule is resolved here, in double precision, into one
// tap table per axis (input indices and weights per output coordinate): the
// shader stays a plain gather, and rounding at exact .5 source coordinates
// matches the CPU reference instead of depending on GPU float precision.
// Opset 18's antialias stretches the linear/cubic filter by 1 / scale when
// downscaling (more taps per output), its axes and keep_aspect_ratio_policy
// are resolved by ReadResizeTarget; opset 19 adds half_pixel_symmetric.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/resize_target.h"
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
  bool antialias = false;  // linear and cubic only
};

// Taps per output coordinate beyond which a resize is refused: antialias
// needs about 2 / scale (linear) or 4 / scale (cubic).
constexpr int kMaxTaps = 1024;

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

// Keys' cubic convolution with coefficient a, at distance d.
double Cubic(double d, double a) {
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0.0;
}

// The filter's first tap offset from floor-ish of the source coordinate and
// its tap count: 1 nearest, 2 linear, 4 cubic, more when antialias
// stretches the filter over 1 / scale input cells.
int FirstTap(const ResizeRule& rule, double scale) {
  if (rule.mode == "nearest") return 0;
  const double support = rule.mode == "linear" ? 1.0 : 2.0;
  const double s = rule.antialias ? std::min(scale, 1.0) : 1.0;
  // Bounded before the cast (a hostile scale near 0): past kMaxTaps the
  // resize is refused anyway.
  return static_cast<int>(std::max(std::floor(-support / s), -static_cast<double>(kMaxTaps))) + 1;
}
int TapCount(const ResizeRule& rule, double scale) {
  return rule.mode == "nearest" ? 1 : 2 - 2 * FirstTap(rule, scale);
}

// Appends one axis's table: per output coordinate `chunks` vec4s of input
// indices (clamped to the edge), then `chunks` vec4s of their weights.
void AppendAxisTaps(const ResizeRule& rule, int64_t in, int64_t out, double scale, double roi_start, double roi_end,
                    int chunks, std::vector<float>& table) {
  const int taps = TapCount(rule, scale);  // <= 4 * chunks
  const int first = FirstTap(rule, scale);
  const double s = rule.antialias ? std::min(scale, 1.0) : 1.0;
  std::vector<int64_t> index(static_cast<size_t>(4 * chunks));
  std::vector<double> weight(static_cast<size_t>(4 * chunks));
  for (int64_t x = 0; x < out; ++x) {
    const double src = SourceCoordinate(rule, x, scale, in, out, roi_start, roi_end);
    std::fill(index.begin(), index.end(), 0);
    std::fill(weight.begin(), weight.end(), 0.0);
    if (taps == 1) {
      index[0] = NearestSource(rule, src, scale);
      weight[0] = 1.0;
    } else {
      // Tap k sits at input cell below + k, at distance k - r from src.
      const double below = std::floor(src);
      const double r = src - below;
      double sum = 0;
      for (int k = 0; k < taps; ++k) {
        const double d = (first + k - r) * s;
        weight[static_cast<size_t>(k)] =
            rule.mode == "linear" ? std::max(0.0, 1.0 - std::fabs(d)) : Cubic(d, rule.cubic_a);
        sum += weight[static_cast<size_t>(k)];
      }
      if (rule.antialias && sum != 0) {
        for (int k = 0; k < taps; ++k) weight[static_cast<size_t>(k)] /= sum;
      }
      sum = 0;
      for (int k = 0; k < taps; ++k) {
        index[static_cast<size_t>(k)] = static_cast<int64_t>(below) + first + k;
        if (rule.exclude_outside && (index[static_cast<size_t>(k)] < 0 || index[static_cast<size_t>(k)] >= in)) {
          weight[static_cast<size_t>(k)] = 0;
        }
        sum += weight[static_cast<size_t>(k)];
      }
      if (rule.exclude_outside && sum != 0) {
        for (double& w : weight) w /= sum;
      }
    }
    const bool outside = rule.transform == "tf_crop_and_resize" && (src < 0 || src > static_cast<double>(in - 1));
    for (int64_t i : index) {
      const int64_t clamped = i < 0 ? 0 : i >= in ? in - 1 : i;
      table.push_back(outside ? -1.0f : static_cast<float>(clamped));
    }
    for (double w : weight) table.push_back(static_cast<float>(w));
  }
}

// The node's rule and its per-dim scales and roi, per opset.
Status ReadRule(const Graph& graph, const Node& node, ResizeRule& rule, std::vector<double>& scales,
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
      GLPOOL_ASSIGN_OR_RETURN(given, ConstantFloats(graph, node, 1));
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
  std::vector<double> scale;
  std::vector<float> roi;
  GLPOOL_RETURN_IF_ERROR(ReadRule(graph, node, rule, scale, roi));
  if (rule.mode != "nearest" && rule.mode != "linear" && rule.mode != "cubic") {
    return UnsupportedError("mode '" + rule.mode + "' is not supported");
  }
  if (scale.size() != rank) return InvalidModelError("scales / sizes need one value per input dim");
  const bool crop = rule.transform == "tf_crop_and_resize";
  if (crop && roi.size() != 2 * rank) return InvalidModelError("tf_crop_and_resize needs 2 x rank roi values");
  for (size_t d = 0; d < rank; ++d) {
    if (in->shape[d] < 1 || out->shape[d] < 1) return InvalidModelError("empty input or output");
    if (!(scale[d] > 0)) return InvalidModelError("scales must be positive");
  }
  for (size_t d = 0; d < 2; ++d) {
    const bool cropped = crop && (roi[d] != 0.0f || roi[d + rank] != 1.0f);
    if (scale[d] != 1.0 || out->shape[d] != in->shape[d] || cropped) {
      return UnsupportedError("only the spatial axes may resize on the GPU (scales " + std::to_string(scale[0]) + ", " +
                              std::to_string(scale[1]) + " on N and C)");
    }
  }
  // One tap count for both axes: the larger one, the other padded with
  // zero weights.
  int tap_count = 1;
  for (size_t d = 2; d < rank; ++d) tap_count = std::max(tap_count, TapCount(rule, scale[d]));
  if (tap_count > kMaxTaps) {
    return UnsupportedError("antialias at scale " + std::to_string(scale[rank - 1]) + " needs " +
                            std::to_string(tap_count) + " taps per output, more than " + std::to_string(kMaxTaps));
  }
  const int chunks = (tap_count + 3) / 4;
  KernelPlan plan;
  plan.shader = "resize";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  KernelWeights taps{"taps", {}};
  if (rank == 3) {
    // No H axis: one identity row (index 0, weight 1).
    taps.values.assign(static_cast<size_t>(8 * chunks), 0.0f);
    taps.values[static_cast<size_t>(4 * chunks)] = 1.0f;
  }
  for (size_t d = 2; d < rank; ++d) {
    AppendAxisTaps(rule, in->shape[d], out->shape[d], scale[d], crop ? roi[d] : 0.0, crop ? roi[d + rank] : 1.0,
                   chunks, taps.values);
  }
  plan.weights.push_back(std::move(taps));
  plan.defines = {{"TAPS", std::to_string(tap_count)},
                  {"EXTRAPOLATION", GlslFloat(node.GetFloat("extrapolation_value", 0.0f))}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
