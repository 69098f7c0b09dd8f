// Shape rules for ops over spatial dims (NCHW and its 1-D/3-D kin):
// convolutions, pooling, padding, resizing, depth/space rearrangement.
#include <algorithm>
#include <cmath>

#include "gpu_backend/import/resize_target.h"
#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/import/shape_rules_table.h"

namespace glpool {
namespace {

using Types = StatusOr<std::vector<TensorType>>;

int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Attributes shared by Conv, ConvTranspose and the pools, defaults filled.
struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
  std::string auto_pad;
  bool ceil_mode = false;
};

constexpr int64_t kMaxWindowAttribute = int64_t{1} << 20;
constexpr int64_t kMaxBlocksize = 1024;  // C * blocksize^2 stays exact for any C a tensor can have

StatusOr<Window> ReadWindow(const NodeView& v, size_t spatial, const std::vector<int64_t>& default_kernel) {
  const Node& n = v.node();
  Window w;
  w.kernel = n.GetInts("kernel_shape", default_kernel);
  w.strides = n.GetInts("strides", std::vector<int64_t>(spatial, 1));
  w.dilations = n.GetInts("dilations", std::vector<int64_t>(spatial, 1));
  w.pads = n.GetInts("pads", std::vector<int64_t>(2 * spatial, 0));
  w.auto_pad = n.GetString("auto_pad", "NOTSET");
  w.ceil_mode = n.GetInt("ceil_mode", 0) != 0;
  if (w.kernel.size() != spatial || w.strides.size() != spatial || w.dilations.size() != spatial ||
      w.pads.size() != 2 * spatial) {
    return InvalidModelError("kernel_shape, strides, dilations or pads do not match " + std::to_string(spatial) +
                             " spatial dims");
  }
  for (size_t i = 0; i < spatial; ++i) {
    if (w.kernel[i] <= 0 || w.strides[i] <= 0 || w.dilations[i] <= 0) {
      return InvalidModelError("kernel_shape, strides and dilations must be positive");
    }
  }
  // Window arithmetic multiplies and adds these with dims up to 2^40: a
  // bound far above any network keeps it exact.
  for (const std::vector<int64_t>* values : {&w.kernel, &w.strides, &w.dilations, &w.pads}) {
    for (int64_t value : *values) {
      if (value > kMaxWindowAttribute || value < -kMaxWindowAttribute) {
        return InvalidModelError("kernel_shape, strides, dilations and pads must lie within +-" +
                                 std::to_string(kMaxWindowAttribute) + ", not " + std::to_string(value));
      }
    }
  }
  if (w.auto_pad != "NOTSET" && w.auto_pad != "SAME_UPPER" && w.auto_pad != "SAME_LOWER" && w.auto_pad != "VALID") {
    return InvalidModelError("unknown auto_pad '" + w.auto_pad + "'");
  }
  return w;
}

StatusOr<int64_t> WindowOutput(const Window& w, size_t i, int64_t in) {
  const int64_t dk = (w.kernel[i] - 1) * w.dilations[i] + 1;
  const int64_t s = w.strides[i];
  if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") return CeilDiv(in, s);
  const int64_t pb = w.auto_pad == "VALID" ? 0 : w.pads[i];
  const int64_t pe = w.auto_pad == "VALID" ? 0 : w.pads[i + w.kernel.size()];
  const int64_t span = in + pb + pe - dk;
  if (span < 0) {
    return InvalidModelError("window of " + std::to_string(dk) + " is larger than the padded input " +
                             std::to_string(in + pb + pe));
  }
  int64_t out = (w.ceil_mode ? CeilDiv(span, s) : FloorDiv(span, s)) + 1;
  // As ONNX Runtime and PyTorch do: the last window must start inside the
  // input or its leading padding.
  if (w.ceil_mode && (out - 1) * s >= in + pb) --out;
  return out;
}

// Conv's output shape, from the input at `x` and the weight at `wi`
// (QLinearConv keeps them at 0 and 3).
StatusOr<Shape> ConvShape(const NodeView& v, size_t x_index, size_t w_index) {
  const std::string& op = v.node().op_type;
  if (!v.has(x_index) || !v.has(w_index)) return InvalidModelError(op + " needs its input and weight");
  const Shape& x = v.shape(x_index);
  const Shape& weight = v.shape(w_index);
  if (x.size() < 3 || weight.size() != x.size()) {
    return InvalidModelError(op + " input " + ShapeToString(x) + " and weight " + ShapeToString(weight) +
                             " need the same rank >= 3");
  }
  const size_t spatial = x.size() - 2;
  GLPOOL_ASSIGN_OR_RETURN(Window w, ReadWindow(v, spatial, Shape(weight.begin() + 2, weight.end())));
  const int64_t group = v.node().GetInt("group", 1);
  // Compared by division: weight[1] * group may overflow for a hostile group.
  if (group <= 0 || x[1] % group != 0 || weight[1] != x[1] / group) {
    return InvalidModelError(op + " input has " + std::to_string(x[1]) + " channels, which weight " +
                             ShapeToString(weight) + " with group " + std::to_string(group) + " does not fit");
  }
  Shape out{x[0], weight[0]};
  for (size_t i = 0; i < spatial; ++i) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t o, WindowOutput(w, i, x[i + 2]));
    out.push_back(o);
  }
  return out;
}

Types Conv(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ConvShape(v, 0, 1));
  return One(v.dtype(0), out);
}

// The integer convolutions the CPU reference runs (cpu_reference/conv_integer.cc).
Types ConvInteger(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ConvShape(v, 0, 1));
  return One(DataType::kInt32, out);
}

Types QLinearConv(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ConvShape(v, 0, 3));
  return One(v.has(7) ? v.dtype(7) : v.dtype(0), out);
}

Types ConvTranspose(const NodeView& v) {
  const Shape& x = v.shape(0);
  const Shape& weight = v.shape(1);
  if (x.size() < 3 || weight.size() != x.size()) return InvalidModelError("ConvTranspose ranks differ");
  const size_t spatial = x.size() - 2;
  GLPOOL_ASSIGN_OR_RETURN(Window w, ReadWindow(v, spatial, Shape(weight.begin() + 2, weight.end())));
  const int64_t group = v.node().GetInt("group", 1);
  if (group <= 0 || x[1] != weight[0]) return InvalidModelError("ConvTranspose channels do not match its weight");
  // Bounded before weight[1] * group: a hostile group must not overflow it.
  if (group > kMaxShapeElements / std::max<int64_t>(weight[1], 1)) {
    return UnsupportedError("ConvTranspose group " + std::to_string(group) + " with weight " +
                            ShapeToString(weight) + " gives more than " + std::to_string(kMaxShapeElements) +
                            " channels");
  }
  const std::vector<int64_t> output_padding =
      v.node().GetInts("output_padding", std::vector<int64_t>(spatial, 0));
  const std::vector<int64_t> output_shape = v.node().GetInts("output_shape");
  if (output_padding.size() != spatial) return InvalidModelError("output_padding has the wrong length");
  for (int64_t padding : output_padding) {
    if (padding < 0 || padding > kMaxWindowAttribute) {
      return InvalidModelError("output_padding " + std::to_string(padding) + " lies outside 0.." +
                               std::to_string(kMaxWindowAttribute));
    }
  }
  Shape out{x[0], weight[1] * group};
  for (size_t i = 0; i < spatial; ++i) {
    if (!output_shape.empty()) {
      // output_shape lists spatial dims (some exporters include N and C).
      const size_t offset = output_shape.size() == spatial + 2 ? 2 : 0;
      if (output_shape.size() != spatial + offset) return InvalidModelError("output_shape has the wrong length");
      out.push_back(output_shape[i + offset]);
      continue;
    }
    const int64_t dk = (w.kernel[i] - 1) * w.dilations[i] + 1;
    if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") {
      out.push_back(x[i + 2] * w.strides[i]);
    } else {
      const int64_t pads = w.auto_pad == "VALID" ? 0 : w.pads[i] + w.pads[i + spatial];
      out.push_back(w.strides[i] * (x[i + 2] - 1) + output_padding[i] + dk - pads);
    }
  }
  return One(v.dtype(0), out);
}

Types Pool(const NodeView& v) {
  const Shape& x = v.shape(0);
  if (x.size() < 3) return InvalidModelError("pooling needs an input of rank >= 3");
  const size_t spatial = x.size() - 2;
  if (!v.node().HasAttribute("kernel_shape")) return InvalidModelError("pooling without kernel_shape");
  GLPOOL_ASSIGN_OR_RETURN(Window w, ReadWindow(v, spatial, {}));
  Shape out{x[0], x[1]};
  for (size_t i = 0; i < spatial; ++i) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t o, WindowOutput(w, i, x[i + 2]));
    out.push_back(o);
  }
  return std::vector<TensorType>{{v.dtype(0), out}, {DataType::kInt64, out}};
}

Types GlobalPool(const NodeView& v) {
  Shape out = v.shape(0);
  if (out.size() < 2) return InvalidModelError("global pooling needs rank >= 2");
  for (size_t i = 2; i < out.size(); ++i) out[i] = 1;
  return One(v.dtype(0), out);
}

Types Pad(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> pads, ReadPads(v));
  const Shape& x = v.shape(0);
  if (pads.size() != 2 * x.size()) return InvalidModelError("Pad pads must hold 2 values per dimension");
  Shape out = x;
  for (size_t i = 0; i < x.size(); ++i) {
    // Each pad within +-2^40 (a tensor's element bound) before the sum, so
    // a hostile pad near 2^63 is an error rather than a signed overflow.
    for (int64_t pad : {pads[i], pads[i + x.size()]}) {
      if (pad > kMaxShapeElements || pad < -kMaxShapeElements) {
        return InvalidModelError("Pad value " + std::to_string(pad) + " lies outside +-" +
                                 std::to_string(kMaxShapeElements));
      }
    }
    out[i] += pads[i] + pads[i + x.size()];
    if (out[i] < 0) return InvalidModelError("Pad removes more than the dimension holds");
  }
  return One(v.dtype(0), out);
}

Types Resize(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(const ResizeTarget target, ReadResizeTarget(v));
  return One(v.dtype(0), target.out);
}

Types Upsample(const NodeView& v) {
  std::vector<float> scales;
  if (v.opset() < 9) {
    scales = v.node().GetFloats("scales");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(scales, v.ConstFloats(1, "scales"));
  }
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ScaleShape(v.shape(0), scales));
  return One(v.dtype(0), out);
}

Types DepthToSpace(const NodeView& v) {
  const Shape& x = v.shape(0);
  const int64_t b = v.node().GetInt("blocksize", 0);
  if (b > kMaxBlocksize) return InvalidModelError("blocksize " + std::to_string(b) + " is above " + std::to_string(kMaxBlocksize));
  if (x.size() != 4 || b <= 0 || x[1] % (b * b) != 0) return InvalidModelError("DepthToSpace needs NCHW with C % blocksize^2 == 0");
  return One(v.dtype(0), {x[0], x[1] / (b * b), x[2] * b, x[3] * b});
}

Types SpaceToDepth(const NodeView& v) {
  const Shape& x = v.shape(0);
  const int64_t b = v.node().GetInt("blocksize", 0);
  if (b > kMaxBlocksize) return InvalidModelError("blocksize " + std::to_string(b) + " is above " + std::to_string(kMaxBlocksize));
  if (x.size() != 4 || b <= 0 || x[2] % b != 0 || x[3] % b != 0) {
    return InvalidModelError("SpaceToDepth needs NCHW with H and W divisible by blocksize");
  }
  return One(v.dtype(0), {x[0], x[1] * b * b, x[2] / b, x[3] / b});
}

}  // namespace

void AddSpatialRules(ShapeRuleTable* t) {
  (*t)["Conv"] = Conv;
  (*t)["ConvInteger"] = ConvInteger;
  (*t)["QLinearConv"] = QLinearConv;
  (*t)["ConvTranspose"] = ConvTranspose;
  (*t)["MaxPool"] = Pool;
  (*t)["AveragePool"] = Pool;
  (*t)["LpPool"] = Pool;
  (*t)["GlobalAveragePool"] = GlobalPool;
  (*t)["GlobalMaxPool"] = GlobalPool;
  (*t)["GlobalLpPool"] = GlobalPool;
  (*t)["Pad"] = Pad;
  (*t)["Resize"] = Resize;
  (*t)["Upsample"] = Upsample;
  (*t)["DepthToSpace"] = DepthToSpace;
  (*t)["SpaceToDepth"] = SpaceToDepth;
}

}  // namespace glpool
