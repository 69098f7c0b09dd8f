// Resize (opset 10+) and Upsample (7-9): nearest, linear and cubic over any
// number of axes, every coordinate transformation mode and nearest mode.
//
// Each axis gets, per output index, a few taps (input index, weight), and
// the axes are applied one after another; for a separable kernel that is the
// same sum as the N-D formula. Coordinates follow the ONNX reference: the
// scale is out/in when sizes are given, neighbours outside the input clamp
// to the edge (or drop out with exclude_outside), and tf_crop_and_resize
// writes extrapolation_value where the source lies outside the input.
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

void CubicWeights(double r, double a, double w[4]) {
  auto near = [a](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };       // |d| <= 1
  auto far = [a](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };  // 1 < |d| < 2
  w[0] = far(r + 1);
  w[1] = near(r);
  w[2] = near(1 - r);
  w[3] = far(2 - r);
}

AxisTaps MakeAxisTaps(const ResizeParams& p, int64_t in_size, int64_t out_size, double scale,
                      double roi_start, double roi_end) {
  AxisTaps axis;
  axis.taps_per_output = p.mode == "nearest" ? 1 : (p.mode == "linear" ? 2 : 4);
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
    const int64_t base = static_cast<int64_t>(fl) - (taps == 4 ? 1 : 0);
    if (taps == 2) {
      weight[0] = 1.0 - r;
      weight[1] = r;
    } else {
      CubicWeights(r, p.cubic_a, weight);
    }
    double sum = 0.0;
    for (int k = 0; k < taps; ++k) {
      const int64_t i = base + k;
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

Status RunResampling(const KernelContext& ctx, std::vector<Value>& outputs,
                     const ResizeParams& params, std::vector<float> scales,
                     std::vector<int64_t> sizes, std::vector<float> roi) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const size_t rank = x->shape.size();
  if (params.mode != "nearest" && params.mode != "linear" && params.mode != "cubic") {
    return UnsupportedError("Resize mode '" + params.mode + "' is not supported");
  }
  // With sizes, the scale used for coordinates is exactly out/in.
  std::vector<double> axis_scale(rank);
  if (!sizes.empty()) {
    if (sizes.size() != rank) return InvalidModelError("sizes must have one entry per input dim");
    for (size_t d = 0; d < rank; ++d) {
      if (sizes[d] < 1 || x->shape[d] < 1) return InvalidModelError("sizes must be positive");
      axis_scale[d] = static_cast<double>(sizes[d]) / static_cast<double>(x->shape[d]);
    }
  } else {
    if (scales.size() != rank) return InvalidModelError("scales must have one entry per input dim");
    sizes.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      if (scales[d] <= 0) return InvalidModelError("scales must be positive");
      axis_scale[d] = scales[d];
      sizes[d] = static_cast<int64_t>(axis_scale[d] * static_cast<double>(x->shape[d]));
    }
  }
  const bool crop = params.transform == "tf_crop_and_resize";
  if (crop && roi.size() != 2 * rank) {
    return InvalidModelError("tf_crop_and_resize needs roi of 2 x rank values");
  }
  Value value = *x;
  std::vector<AxisTaps> all_taps(rank);
  for (size_t d = 0; d < rank; ++d) {
    all_taps[d] = MakeAxisTaps(params, x->shape[d], sizes[d], axis_scale[d],
                               crop ? roi[d] : 0.0, crop ? roi[d + rank] : 1.0);
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
  if (node.HasAttribute("antialias") && node.GetInt("antialias", 0) != 0) {
    return UnsupportedError("Resize antialias (opset 18) is not supported");
  }
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
