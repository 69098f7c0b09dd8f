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
// The coordinate rule itself is import/resize_rule.h's.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend/import/resize_rule.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Taps per output coordinate beyond which a resize is refused: antialias
// needs about 2 / scale (linear) or 4 / scale (cubic).
constexpr int kMaxTaps = 1024;

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
    const double src = ResizeSourceCoordinate(rule, x, scale, in, out, roi_start, roi_end);
    std::fill(index.begin(), index.end(), 0);
    std::fill(weight.begin(), weight.end(), 0.0);
    if (taps == 1) {
      index[0] = NearestResizeSource(rule, src, scale);
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
  GLPOOL_RETURN_IF_ERROR(ReadResizeRule(graph, node, rule, scale, roi));
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
