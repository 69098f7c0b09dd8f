#include "gpu_backend/import/resize_target.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gpu_backend/import/tensor_values.h"

namespace glpool {
namespace {

// Values given for `axes` spread over every dim; the others keep `fill`.
template <typename T>
StatusOr<std::vector<T>> SpreadOverAxes(const std::vector<T>& given, const std::vector<int64_t>& axes,
                                        const std::vector<T>& fill, const char* what) {
  if (given.size() != axes.size()) {
    return InvalidModelError(std::string("Resize ") + what + " hold " + std::to_string(given.size()) +
                             " values for " + std::to_string(axes.size()) + " axes");
  }
  std::vector<T> all = fill;
  for (size_t i = 0; i < axes.size(); ++i) all[static_cast<size_t>(axes[i])] = given[i];
  return all;
}

}  // namespace

StatusOr<Shape> ScaleShape(const Shape& x, const std::vector<float>& scales) {
  if (scales.size() != x.size()) {
    return InvalidModelError("scales hold " + std::to_string(scales.size()) + " values for rank " +
                             std::to_string(x.size()));
  }
  Shape out;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!(scales[i] > 0)) return InvalidModelError("scales must be positive");
    // Single precision on purpose: ONNX Runtime computes it so. Checked
    // before the cast: a float past int64's range converts undefined.
    const float scaled = std::floor(static_cast<float>(x[i]) * scales[i]);
    if (!(scaled <= static_cast<float>(kMaxShapeElements))) {
      return UnsupportedError("scale " + std::to_string(scales[i]) + " makes dimension " + std::to_string(x[i]) +
                              " larger than " + std::to_string(kMaxShapeElements));
    }
    out.push_back(static_cast<int64_t>(scaled));
  }
  return out;
}

StatusOr<ResizeTarget> ReadResizeTarget(const NodeView& v) {
  const Node& node = v.node();
  const Shape& x = v.shape(0);
  const size_t rank = x.size();
  ResizeTarget t;
  t.roi.assign(2 * rank, 0.0f);
  std::fill(t.roi.begin() + static_cast<std::ptrdiff_t>(rank), t.roi.end(), 1.0f);
  if (v.opset() < 11) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> scales, v.ConstFloats(1, "scales"));
    GLPOOL_ASSIGN_OR_RETURN(t.out, ScaleShape(x, scales));
    t.scales.assign(scales.begin(), scales.end());
    return t;
  }
  // Axes (opset 18): the dims scales, sizes and roi speak of, in order.
  std::vector<int64_t> axes;
  if (v.opset() >= 18 && node.HasAttribute("axes")) {
    std::vector<bool> seen(rank, false);
    for (int64_t a : node.GetInts("axes")) {
      GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, static_cast<int64_t>(rank), "Resize axis"));
      if (seen[static_cast<size_t>(axis)]) return InvalidModelError("Resize axes repeat axis " + std::to_string(axis));
      seen[static_cast<size_t>(axis)] = true;
      axes.push_back(axis);
    }
  } else {
    for (size_t d = 0; d < rank; ++d) axes.push_back(static_cast<int64_t>(d));
  }
  const bool has_sizes = v.has(3) && !(v.is_constant(3) && v.in(3).data.element_count() == 0);
  // roi matters to tf_crop_and_resize alone; other modes ignore what it holds.
  const bool has_roi = node.GetString("coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize" &&
                       v.has(1) && !(v.is_constant(1) && v.in(1).data.element_count() == 0);
  if (has_roi) {
    GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> roi, v.ConstFloats(1, "roi"));
    if (roi.size() != 2 * axes.size()) {
      return InvalidModelError("Resize roi holds " + std::to_string(roi.size()) + " values for " +
                               std::to_string(axes.size()) + " axes (2 per axis)");
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      t.roi[static_cast<size_t>(axes[i])] = roi[i];
      t.roi[rank + static_cast<size_t>(axes[i])] = roi[axes.size() + i];
    }
  }
  if (!has_sizes) {
    GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> given, v.ConstFloats(2, "scales"));
    GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> scales,
                            SpreadOverAxes(given, axes, std::vector<float>(rank, 1.0f), "scales"));
    GLPOOL_ASSIGN_OR_RETURN(t.out, ScaleShape(x, scales));
    t.scales.assign(scales.begin(), scales.end());
    return t;
  }
  if (v.has(2) && !(v.is_constant(2) && v.in(2).data.element_count() == 0)) {
    return InvalidModelError("Resize gives both scales and sizes");
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> given, v.ConstInts(3, "sizes"));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> sizes, SpreadOverAxes(given, axes, x, "sizes"));
  t.out = sizes;
  t.scales.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || sizes[d] > kMaxShapeElements) {
      return InvalidModelError("Resize size " + std::to_string(sizes[d]) + " lies outside 0.." +
                               std::to_string(kMaxShapeElements));
    }
    if (x[d] < 1) return InvalidModelError("Resize of an empty dimension by sizes");
    t.scales[d] = static_cast<double>(sizes[d]) / static_cast<double>(x[d]);
  }
  const std::string policy = v.opset() >= 18 ? node.GetString("keep_aspect_ratio_policy", "stretch") : "stretch";
  if (policy == "stretch") return t;
  if (policy != "not_larger" && policy != "not_smaller") {
    return InvalidModelError("unknown keep_aspect_ratio_policy '" + policy + "'");
  }
  // One scale for every named axis: the smallest (the result fits inside
  // sizes) or the largest (it covers sizes); sizes round half up.
  double scale = t.scales[static_cast<size_t>(axes[0])];
  for (int64_t a : axes) {
    const double s = t.scales[static_cast<size_t>(a)];
    scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
  }
  for (int64_t a : axes) {
    const size_t d = static_cast<size_t>(a);
    t.scales[d] = scale;
    // Bounded before the cast: scale and dim may each be near 2^40.
    const double size = std::floor(scale * static_cast<double>(x[d]) + 0.5);
    if (!(size <= static_cast<double>(kMaxShapeElements))) {
      return UnsupportedError("keep_aspect_ratio_policy makes dimension " + std::to_string(d) + " larger than " +
                              std::to_string(kMaxShapeElements));
    }
    t.out[d] = static_cast<int64_t>(size);
  }
  return t;
}

}  // namespace glpool
