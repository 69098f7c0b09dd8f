// Resize (opset 10+) and Upsample (7-9): nearest, linear and cubic over any
// number of axes, every coordinate transformation mode and nearest mode.
//
// Each axis gets, per output index, a few taps (input index, weight), and
// the axes are applied one after another; for a separable kernel that is the
// same sum as the N-D formula. Coordinates follow the ONNX reference: the
// scale is out/in when sizes are given, neighbours outside the input clamp
// to the edge (or drop out with exclude_outside), and tf_crop_and_resize
// writes extrapolation_value where the source lies outside the input.
// Opset 18: antialias stretches the linear/cubic filter over 1 / scale input
// cells when downscaling (weights normalised to sum 1), axes names the dims
// scales/sizes/roi speak of, keep_aspect_ratio_policy fits sizes with one
// scale; opset 19: half_pixel_symmetric.
#include <algorithm>
#include <cmath>
#include <string>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {
namespace {

struct ResizeParams {
  std::string mode = "nearest";               // nearest, linear, cubic
  std::string transform = "half_pixel";       // coordinate_transformation_mode
  std::string nearest_mode = "round_prefer_floor";  // or "simple" (opset < 11)
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  float extrapolation = 0.0f;
};

struct AxisTaps {
  int taps_per_output = 1;
  std::vector<int64_t> index;  // out_size * taps_per_output
  std::vector<double> weight;
  std::vector<bool> outside;   // tf_crop_and_resize: source outside the input
};

// `out_length` is scale x in_size, as the ONNX reference uses it: equal to
// the output size when sizes are given, fractional for some scales.
double SourceCoordinate(const ResizeParams& p, int64_t x, double scale, int64_t in_size,
                        int64_t out_size, double roi_start, double roi_end) {
  const double out_length = scale * static_cast<double>(in_size);
  const double xr = static_cast<double>(x);
  const std::string& t = p.transform;
  if (t == "asymmetric") return xr / scale;
  if (t == "align_corners") {
    return out_size == 1 ? 0.0 : xr * (in_size - 1) / (out_length - 1);
  }
  if (t == "tf_half_pixel_for_nn") return (xr + 0.5) / scale;
  if (t == "pytorch_half_pixel") return out_size > 1 ? (xr + 0.5) / scale - 0.5 : 0.0;
  if (t == "half_pixel_symmetric") {
    const double adjustment = static_cast<double>(out_size) / out_length;
    const double offset = static_cast<double>(in_size) / 2 * (1 - adjustment);
    return offset + (xr + 0.5) / scale - 0.5;
  }
  if (t == "tf_crop_and_resize") {
    if (out_size == 1) return 0.5 * (roi_start + roi_end) * (in_size - 1);
    return roi_start * (in_size - 1) + xr * (roi_end - roi_start) * (in_size - 1) / (out_length - 1);
  }
  return (xr + 0.5) / scale - 0.5;  // half_pixel
}

// Index of the nearest input for a source coordinate.
int64_t NearestIndex(const ResizeParams& p, double x, bool downsampling) {
  const double fl = std::floor(x);
  const double frac = x - fl;
  const std::string& m = p.nearest_mode;
  if (m == "simple") return static_cast<int64_t>(downsampling ? std::ceil(x) : fl);
  if (m == "floor") return static_cast<int64_t>(fl);
  if (m == "ceil") return static_cast<int64_t>(std::ceil(x));
  if (m == "round_prefer_ceil") return static_cast<int64_t>(frac >= 0.5 ? fl + 1 : fl);
  return static_cast<int64_t>(frac > 0.5 ? fl + 1 : fl);  // round_prefer_floor
}

// Keys' cubic convolution kernel with coefficient a.
double CubicKernel(double d, double a) {
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0.0;
}

// Antialias taps per output beyond which a resize is refused (a scale near
// 0 would ask for billions).
constexpr double kMaxAntialiasTaps = 4096;

StatusOr<AxisTaps> MakeAxisTaps(const ResizeParams& p, int64_t in_size, int64_t out_size, double scale,
                                double roi_start, double roi_end) {
  AxisTaps axis;
  // Filters reach `support` cells either side; antialias stretches them by
  // 1 / scale when downscaling. Taps start at floor(src) + first.
  const double support = p.mode == "linear" ? 1.0 : 2.0;
  const double stretch = p.antialias ? std::min(scale, 1.0) : 1.0;
  const double first_cell = std::floor(-support / stretch) + 1;
  if (2 - 2 * first_cell > kMaxAntialiasTaps) {
    return UnsupportedError("antialias at scale " + std::to_string(scale) + " needs more than " +
                            std::to_string(static_cast<int>(kMaxAntialiasTaps)) + " taps per output");
  }
  const int64_t first = p.mode == "nearest" ? 0 : static_cast<int64_t>(first_cell);
  axis.taps_per_output = p.mode == "nearest" ? 1 : static_cast<int>(2 - 2 * first);
  const int taps = axis.taps_per_output;
  axis.index.resize(out_size * taps);
  axis.weight.resize(out_size * taps);
  axis.outside.assign(out_size, false);
  auto clamp = [in_size](int64_t i) { return i < 0 ? 0 : (i >= in_size ? in_size - 1 : i); };
  for (int64_t x = 0; x < out_size; ++x) {
    const double src = SourceCoordinate(p, x, scale, in_size, out_size, roi_start, roi_end);
    if (p.transform == "tf_crop_and_resize" && (src < 0 || src > in_size - 1)) axis.outside[x] = true;
    int64_t* index = &axis.index[x * taps];
    double* weight = &axis.weight[x * taps];
    if (taps == 1) {
      index[0] = clamp(NearestIndex(p, src, scale < 1.0));
      weight[0] = 1.0;
      continue;
    }
    const double fl = std::floor(src);
    const double r = src - fl;
    double sum = 0.0;
    for (int k = 0; k < taps; ++k) {
      const double d = (static_cast<double>(first + k) - r) * stretch;
      weight[k] = p.mode == "linear" ? std::max(0.0, 1.0 - std::fabs(d)) : CubicKernel(d, p.cubic_a);
      sum += weight[k];
    }
    if (p.antialias && sum != 0.0) {
      for (int k = 0; k < taps; ++k) weight[k] /= sum;
    }
    sum = 0.0;
    for (int k = 0; k < taps; ++k) {
      const int64_t i = static_cast<int64_t>(fl) + first + k;
      if (p.exclude_outside && (i < 0 || i >= in_size)) weight[k] = 0.0;
      sum += weight[k];
      index[k] = clamp(i);
    }
    if (p.exclude_outside && sum != 0.0) {
      for (int k = 0; k < taps; ++k) weight[k] /= sum;
    }
  }
  return axis;
}

// Whether the taps copy the axis unchanged (most axes of an image resize).
bool IsIdentity(const AxisTaps& taps, int64_t in_size, int64_t out_size) {
  if (in_size != out_size) return false;
  for (int64_t x = 0; x < out_size; ++x) {
    if (taps.outside[x]) return false;
    for (int k = 0; k < taps.taps_per_output; ++k) {
      const int64_t t = x * taps.taps_per_output + k;
      if (taps.weight[t] != 0.0 && (taps.index[t] != x || taps.weight[t] != 1.0)) return false;
    }
  }
  return true;
}

// Resamples axis `axis` of `in` (float) with the taps.
Value ResampleAxis(const Value& in, int64_t axis, int64_t out_size, const AxisTaps& taps) {
  Shape shape = in.shape;
  const int64_t in_size = shape[axis];
  shape[axis] = out_size;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) outer *= shape[d];
    if (d > axis) inner *= shape[d];
  }
  Value out = MakeFloatValue(shape, std::vector<float>(ElementCount(shape)));
  const int t = taps.taps_per_output;
  for (int64_t o = 0; o < outer; ++o) {
    const float* src = in.floats.data() + o * in_size * inner;
    float* dst = out.floats.data() + o * out_size * inner;
    for (int64_t x = 0; x < out_size; ++x) {
      for (int64_t i = 0; i < inner; ++i) {
        double sum = 0.0;
        for (int k = 0; k < t; ++k) sum += taps.weight[x * t + k] * src[taps.index[x * t + k] * inner + i];
        dst[x * inner + i] = static_cast<float>(sum);
      }
    }
  }
  return out;
}

// `scales` and `sizes` hold one value per dim (either may be empty); with
// sizes the coordinate scale is sizes / in unless `axis_scale` is given.
Status RunResampling(const KernelContext& ctx, std::vector<Value>& outputs,
                     const ResizeParams& params, std::vector<float> scales,
                     std::vector<int64_t> sizes, std::vector<float> roi,
                     std::vector<double> axis_scale = {}) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const size_t rank = x->shape.size();
  if (params.mode != "nearest" && params.mode != "linear" && params.mode != "cubic") {
    return UnsupportedError("Resize mode '" + params.mode + "' is not supported");
  }
  if (!sizes.empty()) {
    if (sizes.size() != rank) return InvalidModelError("sizes must have one entry per input dim");
    const bool given = !axis_scale.empty();
    axis_scale.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      if (sizes[d] < 1 || x->shape[d] < 1) return InvalidModelError("sizes must be positive");
      if (!given) axis_scale[d] = static_cast<double>(sizes[d]) / static_cast<double>(x->shape[d]);
    }
  } else {
    if (scales.size() != rank) return InvalidModelError("scales must have one entry per input dim");
    sizes.resize(rank);
    axis_scale.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      if (scales[d] <= 0) return InvalidModelError("scales must be positive");
      axis_scale[d] = scales[d];
      const float size = std::floor(static_cast<float>(x->shape[d]) * scales[d]);  // float, as ONNX Runtime
      if (!(size <= 1e12f)) return InvalidModelError("scale " + std::to_string(scales[d]) + " is too large");
      sizes[d] = static_cast<int64_t>(size);
    }
  }
  const bool crop = params.transform == "tf_crop_and_resize";
  if (crop && roi.size() != 2 * rank) {
    return InvalidModelError("tf_crop_and_resize needs roi of 2 x rank values");
  }
  Value value = *x;
  std::vector<AxisTaps> all_taps(rank);
  for (size_t d = 0; d < rank; ++d) {
    GLPOOL_ASSIGN_OR_RETURN(all_taps[d], MakeAxisTaps(params, x->shape[d], sizes[d], axis_scale[d],
                                                      crop ? roi[d] : 0.0, crop ? roi[d + rank] : 1.0));
    if (!IsIdentity(all_taps[d], x->shape[d], sizes[d])) {
      value = ResampleAxis(value, static_cast<int64_t>(d), sizes[d], all_taps[d]);
    }
  }
  if (crop) {
    const std::vector<int64_t> strides = StridesOf(value.shape);
    for (int64_t i = 0; i < value.size(); ++i) {
      for (size_t d = 0; d < rank; ++d) {
        if (all_taps[d].outside[(i / strides[d]) % value.shape[d]]) {
          value.floats[i] = params.extrapolation;
          break;
        }
      }
    }
  }
  outputs[0] = std::move(value);
  return Status::Ok();
}

// Opset 18+: scales, sizes and roi speak of the dims `axes` names (the
// others keep scale 1), sizes may be fitted with one scale, and linear and
// cubic may antialias.
Status RunResize18(const KernelContext& ctx, std::vector<Value>& outputs, ResizeParams p,
                   std::vector<float> scales, std::vector<int64_t> sizes, std::vector<float> roi) {
  const Node& node = ctx.node;
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  p.antialias = node.GetInt("antialias", 0) != 0 && p.mode != "nearest";
  std::vector<int64_t> axes;
  for (int64_t a : node.GetInts("axes")) {
    GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, rank));
    for (int64_t seen : axes) {
      if (seen == axis) return InvalidModelError("axes repeat axis " + std::to_string(axis));
    }
    axes.push_back(axis);
  }
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  const size_t n = axes.size();
  if (!scales.empty()) {
    if (scales.size() != n) return InvalidModelError("scales must have one entry per axis");
    std::vector<float> all(rank, 1.0f);
    for (size_t i = 0; i < n; ++i) all[axes[i]] = scales[i];
    scales = all;
  }
  if (!sizes.empty()) {
    if (sizes.size() != n) return InvalidModelError("sizes must have one entry per axis");
    std::vector<int64_t> all = x->shape;
    for (size_t i = 0; i < n; ++i) all[axes[i]] = sizes[i];
    sizes = all;
  }
  if (p.transform == "tf_crop_and_resize" && !roi.empty()) {
    if (roi.size() != 2 * n) return InvalidModelError("roi must have 2 entries per axis");
    std::vector<float> all(2 * rank, 0.0f);
    std::fill(all.begin() + rank, all.end(), 1.0f);
    for (size_t i = 0; i < n; ++i) {
      all[axes[i]] = roi[i];
      all[rank + axes[i]] = roi[n + i];
    }
    roi = all;
  }
  const std::string policy = node.GetString("keep_aspect_ratio_policy", "stretch");
  if (sizes.empty() || policy == "stretch") return RunResampling(ctx, outputs, p, scales, sizes, roi);
  if (policy != "not_larger" && policy != "not_smaller") {
    return InvalidModelError("unknown keep_aspect_ratio_policy '" + policy + "'");
  }
  // One scale for the named axes: the smallest ratio (fits inside sizes) or
  // the largest (covers them); sizes then round half up.
  double scale = 0.0;
  for (size_t i = 0; i < n; ++i) {
    if (x->shape[axes[i]] < 1) return InvalidModelError("sizes of an empty axis");
    const double ratio = static_cast<double>(sizes[axes[i]]) / static_cast<double>(x->shape[axes[i]]);
    scale = i == 0 ? ratio : policy == "not_larger" ? std::min(scale, ratio) : std::max(scale, ratio);
  }
  std::vector<double> axis_scale(rank, 1.0);
  for (int64_t a : axes) {
    axis_scale[a] = scale;
    const double size = std::floor(scale * static_cast<double>(x->shape[a]) + 0.5);
    if (!(size <= 1e12)) return UnsupportedError("keep_aspect_ratio_policy makes axis " + std::to_string(a) + " too long");
    sizes[a] = static_cast<int64_t>(size);
  }
  return RunResampling(ctx, outputs, p, {}, sizes, roi, axis_scale);
}

}  // namespace

Status RunResize(const KernelContext& ctx, std::vector<Value>& outputs) {
  const Node& node = ctx.node;
  ResizeParams p;
  p.mode = node.GetString("mode", "nearest");
  std::vector<float> scales, roi;
  std::vector<int64_t> sizes;
  if (ctx.opset < 11) {
    // Opset 10: inputs X, scales; asymmetric coordinates and ONNX Runtime's
    // legacy nearest rounding.
    p.transform = "asymmetric";
    p.nearest_mode = "simple";
    GLPOOL_ASSIGN_OR_RETURN(scales, ctx.FloatsInput(1));
  } else {
    p.transform = node.GetString("coordinate_transformation_mode", "half_pixel");
    p.nearest_mode = node.GetString("nearest_mode", "round_prefer_floor");
    p.cubic_a = node.GetFloat("cubic_coeff_a", -0.75f);
    p.exclude_outside = node.GetInt("exclude_outside", 0) != 0;
    p.extrapolation = node.GetFloat("extrapolation_value", 0.0f);
    if (ctx.has_input(1)) {
      GLPOOL_ASSIGN_OR_RETURN(roi, ctx.FloatsInput(1));
    }
    if (ctx.has_input(2)) {
      GLPOOL_ASSIGN_OR_RETURN(scales, ctx.FloatsInput(2));
    }
    if (ctx.has_input(3)) {
      GLPOOL_ASSIGN_OR_RETURN(sizes, ctx.IntsInput(3));
    }
    if (!scales.empty() && !sizes.empty()) {
      return InvalidModelError("only one of scales and sizes may be given");
    }
  }
  if (ctx.opset >= 18) return RunResize18(ctx, outputs, p, scales, sizes, roi);
  return RunResampling(ctx, outputs, p, scales, sizes, roi);
}

Status RunUpsample(const KernelContext& ctx, std::vector<Value>& outputs) {
  ResizeParams p;
  p.mode = ctx.node.GetString("mode", "nearest");
  if (p.mode == "bilinear") p.mode = "linear";
  p.transform = "asymmetric";
  p.nearest_mode = "simple";
  std::vector<float> scales;
  if (ctx.opset < 9) {
    scales = ctx.node.GetFloats("scales");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(scales, ctx.FloatsInput(1));
  }
  return RunResampling(ctx, outputs, p, scales, {}, {});
}

}  // namespace cpu_reference
}  // namespace glpool
