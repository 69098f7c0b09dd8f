#include "gpu_backend/cpu_reference/window.h"

#include <algorithm>
#include <string>

namespace glpool {
namespace cpu_reference {
namespace {

std::string DimsText(const std::vector<int64_t>& v) {
  std::string text = "[";
  for (size_t i = 0; i < v.size(); ++i) text += (i ? "," : "") + std::to_string(v[i]);
  return text + "]";
}

int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

std::array<int64_t, 3> PadTo3(const std::vector<int64_t>& values, int64_t fill) {
  std::array<int64_t, 3> out{fill, fill, fill};
  const size_t offset = 3 - values.size();
  for (size_t i = 0; i < values.size(); ++i) out[offset + i] = values[i];
  return out;
}

StatusOr<Window> MakeForwardWindow(const Node& node, const Shape& input_shape,
                                   const std::vector<int64_t>& kernel_fallback, bool ceil_mode) {
  const int64_t rank = static_cast<int64_t>(input_shape.size()) - 2;
  if (rank < 1) {
    return InvalidModelError("input must be N x C x spatial..., is " + ShapeToString(input_shape));
  }
  if (rank > kMaxSpatialRank) {
    return UnsupportedError(std::to_string(rank) +
                            "-D windows are not supported (at most 3 spatial dims)");
  }
  const size_t r = static_cast<size_t>(rank);
  const std::vector<int64_t> kernel = node.GetInts("kernel_shape", kernel_fallback);
  const std::vector<int64_t> strides = node.GetInts("strides", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> dilations = node.GetInts("dilations", std::vector<int64_t>(r, 1));
  std::vector<int64_t> pads = node.GetInts("pads", std::vector<int64_t>(2 * r, 0));
  if (kernel.size() != r || strides.size() != r || dilations.size() != r || pads.size() != 2 * r) {
    return InvalidModelError("kernel_shape " + DimsText(kernel) + ", strides " +
                             DimsText(strides) + ", dilations " + DimsText(dilations) +
                             " or pads " + DimsText(pads) + " do not match " +
                             std::to_string(rank) + " spatial dims");
  }
  for (size_t i = 0; i < r; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1) {
      return InvalidModelError("kernel_shape, strides and dilations must be positive");
    }
  }
  const std::string auto_pad = node.GetString("auto_pad", "NOTSET");
  Window w;
  w.spatial_rank = static_cast<int>(rank);
  std::vector<int64_t> in(input_shape.begin() + 2, input_shape.end());
  std::vector<int64_t> out(r), pad_begin(r), pad_end(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t extent = (kernel[i] - 1) * dilations[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out[i] = CeilDiv(in[i], strides[i]);
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * strides[i] + extent - in[i]);
      pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pad_end[i] = total - pad_begin[i];
    } else if (auto_pad == "VALID") {
      out[i] = CeilDiv(in[i] - extent + 1, strides[i]);
      pad_begin[i] = pad_end[i] = 0;
    } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
      pad_begin[i] = pads[i];
      pad_end[i] = pads[i + r];
      const int64_t span = in[i] + pad_begin[i] + pad_end[i] - extent;
      out[i] = (ceil_mode ? CeilDiv(span, strides[i]) : FloorDiv(span, strides[i])) + 1;
      // A window may not start in the end padding.
      if (ceil_mode && (out[i] - 1) * strides[i] >= in[i] + pad_begin[i]) --out[i];
    } else {
      return InvalidModelError("unknown auto_pad '" + auto_pad + "'");
    }
    if (out[i] < 1) {
      return InvalidModelError("window " + DimsText(kernel) + " does not fit input " +
                               ShapeToString(input_shape) + " with pads " + DimsText(pads));
    }
  }
  w.in = PadTo3(in, 1);
  w.out = PadTo3(out, 1);
  w.kernel = PadTo3(kernel, 1);
  w.stride = PadTo3(strides, 1);
  w.dilation = PadTo3(dilations, 1);
  w.pad_begin = PadTo3(pad_begin, 0);
  w.pad_end = PadTo3(pad_end, 0);
  return w;
}

}  // namespace cpu_reference
}  // namespace glpool
