#include "gpu_backend/kernels/conv_common.h"

#include <algorithm>
#include <cstdio>

namespace glpool {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Per-spatial-dim attributes, validated.
struct SpatialAttributes {
  size_t rank = 0;  // spatial dims
  std::vector<int64_t> kernel, strides, dilations, pads;
  std::string auto_pad;
};

StatusOr<SpatialAttributes> ReadAttributes(const Node& node, const Shape& input, const Shape& weights) {
  if (input.size() < 3) {
    return InvalidModelError("input " + ShapeToString(input) + " must be N x C x spatial...");
  }
  SpatialAttributes a;
  a.rank = input.size() - 2;
  if (weights.size() != input.size()) {
    return InvalidModelError("W " + ShapeToString(weights) + " and X " + ShapeToString(input) + " differ in rank");
  }
  a.kernel = node.GetInts("kernel_shape", std::vector<int64_t>(weights.begin() + 2, weights.end()));
  a.strides = node.GetInts("strides", std::vector<int64_t>(a.rank, 1));
  a.dilations = node.GetInts("dilations", std::vector<int64_t>(a.rank, 1));
  a.pads = node.GetInts("pads", std::vector<int64_t>(2 * a.rank, 0));
  a.auto_pad = node.GetString("auto_pad", "NOTSET");
  if (a.kernel.size() != a.rank || a.strides.size() != a.rank || a.dilations.size() != a.rank ||
      a.pads.size() != 2 * a.rank) {
    return InvalidModelError("kernel_shape, strides, dilations or pads do not match " + std::to_string(a.rank) +
                             " spatial dims");
  }
  for (size_t i = 0; i < a.rank; ++i) {
    if (a.kernel[i] < 1 || a.strides[i] < 1 || a.dilations[i] < 1) {
      return InvalidModelError("kernel_shape, strides and dilations must be positive");
    }
    if (a.kernel[i] != weights[2 + i]) {
      return InvalidModelError("kernel_shape does not match W " + ShapeToString(weights));
    }
  }
  if (a.auto_pad != "NOTSET" && a.auto_pad != "SAME_UPPER" && a.auto_pad != "SAME_LOWER" && a.auto_pad != "VALID" &&
      !a.auto_pad.empty()) {
    return InvalidModelError("unknown auto_pad '" + a.auto_pad + "'");
  }
  return a;
}

Status CheckOutput(const Shape& input, const Shape& output, const std::vector<int64_t>& out) {
  bool same = output.size() == input.size();
  for (size_t i = 0; same && i < out.size(); ++i) same = output[2 + i] == out[i];
  if (!same) {
    std::string computed;
    for (int64_t d : out) computed += (computed.empty() ? "" : "x") + std::to_string(d);
    return InvalidModelError("output " + ShapeToString(output) + " does not match the computed spatial size " +
                             computed);
  }
  return Status::Ok();
}

// The attributes' window with no padding yet; each geometry fills the pads.
ConvWindow UnpaddedWindow(const SpatialAttributes& a) {
  ConvWindow w;
  w.kernel = a.kernel;
  w.stride = a.strides;
  w.dilation = a.dilations;
  w.pad_begin.assign(a.rank, 0);
  w.pad_end.assign(a.rank, 0);
  w.output_padding.assign(a.rank, 0);
  return w;
}

// A 1-D or 2-D window in the 2-D shaders' slots: a 1-D op's only dim is x.
Window2D ToWindow2D(const ConvWindow& window) {
  Window2D w;
  const size_t rank = window.kernel.size();
  for (size_t i = 0; i < rank; ++i) {
    const size_t s = rank == 1 ? 1 : i;
    w.kernel[s] = window.kernel[i];
    w.stride[s] = window.stride[i];
    w.dilation[s] = window.dilation[i];
    w.pad_begin[s] = window.pad_begin[i];
    w.pad_end[s] = window.pad_end[i];
    w.output_padding[s] = window.output_padding[i];
  }
  return w;
}

}  // namespace

Status CheckConvRank(const Shape& input) {
  if (input.size() == 3 || input.size() == 4) return Status::Ok();
  if (input.size() > 4) {
    return UnsupportedError("the 2-D convolution shaders take 1-D and 2-D windows, not " +
                            std::to_string(input.size() - 2) + "-D ones (those go to conv_nd)");
  }
  return InvalidModelError("input " + ShapeToString(input) + " must be N x C x spatial...");
}

StatusOr<ConvWindow> ForwardConvGeometry(const Node& node, const Shape& input, const Shape& weights,
                                         const Shape& output) {
  GLPOOL_ASSIGN_OR_RETURN(SpatialAttributes a, ReadAttributes(node, input, weights));
  ConvWindow w = UnpaddedWindow(a);
  std::vector<int64_t> out(a.rank);
  for (size_t i = 0; i < a.rank; ++i) {
    const int64_t in = input[2 + i];
    const int64_t extent = (a.kernel[i] - 1) * a.dilations[i] + 1;
    if (a.auto_pad == "SAME_UPPER" || a.auto_pad == "SAME_LOWER") {
      out[i] = CeilDiv(in, a.strides[i]);
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * a.strides[i] + extent - in);
      w.pad_begin[i] = a.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pad_end[i] = total - w.pad_begin[i];
    } else if (a.auto_pad == "VALID") {
      out[i] = CeilDiv(in - extent + 1, a.strides[i]);
    } else {
      w.pad_begin[i] = a.pads[i];
      w.pad_end[i] = a.pads[i + a.rank];
      out[i] = FloorDiv(in + w.pad_begin[i] + w.pad_end[i] - extent, a.strides[i]) + 1;
    }
  }
  GLPOOL_RETURN_IF_ERROR(CheckOutput(input, output, out));
  return w;
}

StatusOr<ConvWindow> TransposedConvGeometry(const Node& node, const Shape& input, const Shape& weights,
                                            const Shape& output) {
  GLPOOL_ASSIGN_OR_RETURN(SpatialAttributes a, ReadAttributes(node, input, weights));
  const std::vector<int64_t> out_padding = node.GetInts("output_padding", std::vector<int64_t>(a.rank, 0));
  std::vector<int64_t> output_shape = node.GetInts("output_shape");
  if (output_shape.size() == a.rank + 2) output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  if (out_padding.size() != a.rank || (!output_shape.empty() && output_shape.size() != a.rank)) {
    return InvalidModelError("output_padding or output_shape do not match " + std::to_string(a.rank) +
                             " spatial dims");
  }
  ConvWindow w = UnpaddedWindow(a);
  w.output_padding = out_padding;
  std::vector<int64_t> out(a.rank);
  for (size_t i = 0; i < a.rank; ++i) {
    const int64_t in = input[2 + i];
    const int64_t full = a.strides[i] * (in - 1) + out_padding[i] + (a.kernel[i] - 1) * a.dilations[i] + 1;
    const bool same = a.auto_pad == "SAME_UPPER" || a.auto_pad == "SAME_LOWER";
    if (!output_shape.empty() || same) {
      out[i] = output_shape.empty() ? in * a.strides[i] : output_shape[i];
      const int64_t total = std::max<int64_t>(0, full - out[i]);
      // As the ONNX spec writes it (and the CPU reference follows).
      w.pad_begin[i] = a.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pad_end[i] = total - w.pad_begin[i];
    } else if (a.auto_pad == "VALID") {
      out[i] = full;
    } else {
      w.pad_begin[i] = a.pads[i];
      w.pad_end[i] = a.pads[i + a.rank];
      out[i] = full - w.pad_begin[i] - w.pad_end[i];
    }
  }
  GLPOOL_RETURN_IF_ERROR(CheckOutput(input, output, out));
  return w;
}

StatusOr<Window2D> ForwardConvWindow(const Node& node, const Shape& input, const Shape& weights,
                                     const Shape& output) {
  GLPOOL_RETURN_IF_ERROR(CheckConvRank(input));
  GLPOOL_ASSIGN_OR_RETURN(const ConvWindow window, ForwardConvGeometry(node, input, weights, output));
  return ToWindow2D(window);
}

StatusOr<Window2D> TransposedConvWindow(const Node& node, const Shape& input, const Shape& weights,
                                        const Shape& output) {
  GLPOOL_RETURN_IF_ERROR(CheckConvRank(input));
  GLPOOL_ASSIGN_OR_RETURN(const ConvWindow window, TransposedConvGeometry(node, input, weights, output));
  return ToWindow2D(window);
}

void AddWindowDefines(const Window2D& w, KernelPlan& plan) {
  const std::pair<const char*, int64_t> values[] = {
      {"KERNEL_H", w.kernel[0]},     {"KERNEL_W", w.kernel[1]},     {"STRIDE_Y", w.stride[0]},
      {"STRIDE_X", w.stride[1]},     {"DILATION_Y", w.dilation[0]}, {"DILATION_X", w.dilation[1]},
      {"PAD_Y", w.pad_begin[0]},     {"PAD_X", w.pad_begin[1]},
  };
  for (const auto& [name, value] : values) plan.defines.emplace_back(name, std::to_string(value));
}

SliceRange InputSlicesOf(int64_t out_slice, int64_t out_channels, int64_t in_per_group, int64_t out_per_group) {
  const int64_t first = out_slice * 4;
  const int64_t last = std::min(first + 3, out_channels - 1);
  SliceRange range;
  range.begin = (first / out_per_group) * in_per_group / 4;
  range.end = ((last / out_per_group + 1) * in_per_group + 3) / 4;
  return range;
}

int64_t MaxInputSlices(int64_t out_channels, int64_t in_per_group, int64_t out_per_group) {
  int64_t most = 0;
  for (int64_t s = 0; s * 4 < out_channels; ++s) {
    const SliceRange r = InputSlicesOf(s, out_channels, in_per_group, out_per_group);
    most = std::max(most, r.end - r.begin);
  }
  return most;
}

std::vector<float> PackGroupedWeights(int64_t out_channels, int64_t in_channels, int64_t in_per_group,
                                      int64_t out_per_group, std::array<int64_t, 2> kernel,
                                      int64_t out_slices_multiple,
                                      const std::function<float(int64_t, int64_t, int64_t, int64_t)>& weight) {
  const int64_t out_slices = (out_channels + 3) / 4;
  const int64_t padded_slices = (out_slices + out_slices_multiple - 1) / out_slices_multiple * out_slices_multiple;
  const int64_t max_in = MaxInputSlices(out_channels, in_per_group, out_per_group);
  const int64_t taps = kernel[0] * kernel[1];
  std::vector<float> packed(static_cast<size_t>(padded_slices * taps * max_in * 16), 0.0f);
  for (int64_t os = 0; os < out_slices; ++os) {
    const SliceRange range = InputSlicesOf(os, out_channels, in_per_group, out_per_group);
    for (int64_t tap = 0; tap < taps; ++tap) {
      for (int64_t is = range.begin; is < range.end; ++is) {
        float* block = packed.data() + ((os * taps + tap) * max_in + (is - range.begin)) * 16;
        for (int64_t in_lane = 0; in_lane < 4; ++in_lane) {
          const int64_t ic = is * 4 + in_lane;
          for (int64_t out_lane = 0; out_lane < 4; ++out_lane) {
            const int64_t oc = os * 4 + out_lane;
            if (ic >= in_channels || oc >= out_channels) continue;
            const int64_t group = oc / out_per_group;
            if (ic / in_per_group != group) continue;  // another group: stays zero
            block[in_lane * 4 + out_lane] = weight(oc, ic - group * in_per_group, tap / kernel[1], tap % kernel[1]);
          }
        }
      }
    }
  }
  return packed;
}

std::vector<float> LaneBatchMajor(const std::vector<float>& packed, int64_t slice_blocks, int64_t block,
                                  int64_t in_slices) {
  const int64_t batches = (slice_blocks + kLaneBatch - 1) / kLaneBatch;
  std::vector<float> reordered(static_cast<size_t>(batches * kLaneBatch * block * in_slices * 16), 0.0f);
  for (int64_t sb = 0; sb < slice_blocks; ++sb) {
    for (int64_t b = 0; b < block; ++b) {
      for (int64_t is = 0; is < in_slices; ++is) {
        const int64_t from = ((sb * block + b) * in_slices + is) * 16;
        const int64_t to = ((((sb / kLaneBatch) * in_slices + is) * kLaneBatch + sb % kLaneBatch) * block + b) * 16;
        std::copy_n(packed.begin() + from, 16, reordered.begin() + to);
      }
    }
  }
  return reordered;
}

std::vector<float> PackDepthwiseWeights(int64_t channels, int64_t taps,
                                        const std::function<float(int64_t channel, int64_t tap)>& weight) {
  std::vector<float> packed(static_cast<size_t>((channels + 3) / 4 * taps * 4), 0.0f);
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t tap = 0; tap < taps; ++tap) {
      packed[static_cast<size_t>(((c / 4) * taps + tap) * 4 + c % 4)] = weight(c, tap);
    }
  }
  return packed;
}

std::vector<float> PackBias(const std::vector<float>& bias, int64_t out_channels, int64_t out_slices_multiple) {
  const int64_t out_slices = (out_channels + 3) / 4;
  const int64_t padded_slices = (out_slices + out_slices_multiple - 1) / out_slices_multiple * out_slices_multiple;
  std::vector<float> packed(static_cast<size_t>(padded_slices * 4), 0.0f);
  for (size_t i = 0; i < bias.size() && i < static_cast<size_t>(out_channels); ++i) packed[i] = bias[i];
  return packed;
}

int64_t OutputSlicesPerInvocation(int64_t out_slices) {
  if (out_slices <= 4) return out_slices;
  // Blocks of 4 share each load most; a partial last block only stores its
  // valid slices. 4 unless that block leaves more than a sixth of the
  // slots computed idle (6 slices: 3, not 4 with 2 of 8 idle). One llvmpipe
  // thread, the conv alone, best of 5 processes: 1x1 512 -> 1000 at 13x13
  // (250 slices) 29.9 ms with 2 a block, 25.3 with 4; 240 -> 40 at 28x28
  // (10 slices) 2.28 with 2, 2.09 with 4; 96 -> 24 at 56x56 (6 slices)
  // 1.88 with 3, 2.28 with 4.
  const int64_t slots = (out_slices + 3) / 4 * 4;
  if ((slots - out_slices) * 6 <= slots) return 4;
  for (int64_t block : {3, 2}) {
    if (out_slices % block == 0) return block;
  }
  return 4;
}

int64_t OutputSlicesPerInvocation(int64_t out_slices, int64_t group, int64_t out_per_group) {
  if (group == 1) return OutputSlicesPerInvocation(out_slices);
  if (out_per_group % 4 != 0) return 1;
  const int64_t group_slices = out_per_group / 4;
  int64_t block = OutputSlicesPerInvocation(group_slices);
  while (group_slices % block != 0) --block;
  return block;
}

int64_t OutputPixelsPerInvocation(int64_t width) {
  if (width >= 32) return 8;
  if (width >= 8) return 4;
  return width >= 2 ? 2 : 1;
}

int64_t OutputRowsPerInvocation(int64_t height, int64_t pixels, int64_t target_block) {
  int64_t rows = 1;
  while (pixels * rows * 2 <= target_block && rows < height && rows < kMaxBlockRows) rows *= 2;
  return rows;
}

bool SlicesAlongLanes(int64_t columns, int64_t slice_blocks) {
  return columns < kMinGroupColumns && slice_blocks > columns;
}

bool PutSlicesAlongLanes(int64_t columns, int64_t rows, int64_t slice_blocks, const KernelLimits& limits,
                         KernelPlan& plan) {
  const bool along = SlicesAlongLanes(columns, slice_blocks);
  plan.defines.emplace_back("LANES_ALONG_SLICES", along ? "1" : "0");
  if (!along) return false;
  plan.local_size = LocalSize2D(slice_blocks, rows, columns, limits);
  plan.groups = {DivideRoundUp(static_cast<uint64_t>(slice_blocks), plan.local_size[0]),
                 DivideRoundUp(static_cast<uint64_t>(rows), plan.local_size[1]), static_cast<uint32_t>(columns)};
  return true;
}

double LaneUse(int64_t width, int64_t height, int64_t pixels, int64_t rows) {
  const int64_t columns = (width + pixels - 1) / pixels;
  const int64_t batches = (columns + kLaneBatch - 1) / kLaneBatch;
  const int64_t row_blocks = (height + rows - 1) / rows;
  return static_cast<double>(width * height) / static_cast<double>(batches * kLaneBatch * pixels * row_blocks * rows);
}

int64_t NarrowToFillLanes(int64_t width, int64_t pixels) {
  while (pixels > 1 && (width + pixels - 1) / pixels < kMinGroupColumns) pixels /= 2;
  return pixels;
}

int64_t PixelsFillingLaneBatches(int64_t width, int64_t pixels) {
  // The share of the columns a row of blocks computes (whole batches of
  // lanes, `p` columns each) that lie inside the output.
  auto lane_use = [width](int64_t p) { return LaneUse(width, 1, p, 1); };
  for (int64_t p = 16; p >= 1; --p) {
    if (lane_use(p) >= kMinLaneUse && lane_use(p) > lane_use(pixels)) return p;
  }
  return pixels;
}

std::string IndexList(int64_t count) {
  std::string list;
  for (int64_t i = 0; i < count; ++i) list += "F(" + std::to_string(i) + ") ";
  return list;
}

std::array<uint32_t, 3> LocalSize2D(int64_t width, int64_t rows, uint32_t max_invocations) {
  const int64_t budget = std::max<int64_t>(1, std::min<int64_t>(64, max_invocations));
  int64_t x = 1;
  while (x * 2 <= budget && x < width) x *= 2;
  // Wider than a batch: the multiple of a batch whose groups leave the
  // fewest idle lanes past the width (36 wide: 5 groups of 8, not one of
  // 64 with 28 idle), the widest of equals.
  if (width > kLaneBatch) {
    auto lanes = [width](int64_t w) { return (width + w - 1) / w * w; };
    for (int64_t w = kLaneBatch; w <= budget; w *= 2) {
      if (lanes(w) <= lanes(x)) x = w;
    }
  }
  int64_t y = 1;
  while (x * y * 2 <= budget && y < rows) y *= 2;
  return {static_cast<uint32_t>(x), static_cast<uint32_t>(y), 1};
}

// llvmpipe runs each work group on one of its threads, whole, so a
// dispatch of one group (a Gemm of one row: 250 slices in 63 invocations,
// one group of 64; a squeeze-and-excitation conv) leaves every thread but
// one idle, and 3 groups on 2 threads idle a third of the second round.
// Narrower groups change which invocations share a group, nothing else:
// the kernels sized here index by GLPOOL_GLOBAL_ID alone.
std::array<uint32_t, 3> LocalSize2D(int64_t width, int64_t rows, int64_t depth, const KernelLimits& limits) {
  std::array<uint32_t, 3> local = LocalSize2D(width, rows, limits.max_invocations);
  auto groups = [&] {
    return static_cast<int64_t>(DivideRoundUp(static_cast<uint64_t>(width), local[0])) *
           DivideRoundUp(static_cast<uint64_t>(rows), local[1]) * std::max<int64_t>(depth, 1);
  };
  while (groups() < limits.min_groups) {
    if (local[1] > 1) {
      local[1] /= 2;
    } else if (local[0] > kLaneBatch) {
      local[0] /= 2;
    } else {
      break;
    }
  }
  return local;
}

std::array<uint32_t, 3> LocalSize3D(int64_t width, int64_t rows, int64_t depth, uint32_t max_invocations) {
  std::array<uint32_t, 3> local = LocalSize2D(width, rows, max_invocations);
  const int64_t budget = std::max<int64_t>(1, std::min<int64_t>(64, max_invocations));
  const int64_t xy = int64_t{local[0]} * local[1];
  int64_t z = 1;
  while (xy * z * 2 <= budget && z < depth) z *= 2;
  local[2] = static_cast<uint32_t>(z);
  return local;
}

std::string GlslFloat(float value) {
  const float clamped = std::clamp(value, -3.4e38f, 3.4e38f);  // GLSL has no infinity literal
  char text[64];
  snprintf(text, sizeof text, "%.9g", clamped);
  std::string literal = text;
  if (literal.find_first_of(".eEn") == std::string::npos) literal += ".0";
  return literal;
}

StatusOr<ConvOperands> ReadConvOperands(const Graph& graph, const Node& node) {
  // A Conv's 4th and 5th: the fused channel gate and residual (graph.h).
  const size_t most = node.op_type == "Conv" ? 5 : 3;
  if (node.inputs.size() < 2 || node.inputs.size() > most || node.outputs.size() != 1) {
    return InvalidModelError("needs X, W, optional B and one output");
  }
  ConvOperands operands;
  GLPOOL_ASSIGN_OR_RETURN(operands.x, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(operands.w, RequireTensor(graph, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(operands.y, RequireTensor(graph, node.outputs[0]));
  if (node.inputs.size() >= 3 && !node.inputs[2].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(operands.b, RequireTensor(graph, node.inputs[2]));
  }
  if (node.inputs.size() >= 4 && !node.inputs[3].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(operands.gate, RequireTensor(graph, node.inputs[3]));
    if (!IsChannelGateShape(operands.gate->shape, operands.x->shape)) {
      return InvalidModelError("the channel gate " + ShapeToString(operands.gate->shape) +
                               " must be [1 or N, C, 1, 1] for X " + ShapeToString(operands.x->shape));
    }
  }
  if (node.inputs.size() == 5 && !node.inputs[4].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(operands.residual, RequireTensor(graph, node.inputs[4]));
    if (operands.residual->shape != operands.y->shape) {
      return InvalidModelError("the residual " + ShapeToString(operands.residual->shape) + " must have Y's shape " +
                               ShapeToString(operands.y->shape));
    }
  }
  return operands;
}

StatusOr<ConvChannels> ReadConvChannels(const Node& node, const ConvOperands& operands) {
  const bool transposed = node.op_type == "ConvTranspose";
  const Shape& x = operands.x->shape;
  const Shape& w = operands.w->shape;
  const Shape& y = operands.y->shape;
  ConvChannels ch;
  ch.group = node.GetInt("group", 1);
  bool fits = ch.group >= 1 && x.size() >= 2 && w.size() >= 2 && y.size() >= 2 && x[1] % ch.group == 0;
  if (fits) {
    ch.in_per_group = x[1] / ch.group;
    ch.out_per_group = transposed ? w[1] : w[0] / ch.group;
    ch.out_channels = ch.out_per_group * ch.group;
    fits = (transposed ? w[0] == x[1] : w[1] == ch.in_per_group && w[0] % ch.group == 0) &&
           y[1] == ch.out_channels && (!operands.b || ElementCount(operands.b->shape) == ch.out_channels);
  }
  // Weight packing divides by both; an empty W must not reach it.
  if (fits && (ch.in_per_group < 1 || ch.out_per_group < 1)) {
    return InvalidModelError("W " + ShapeToString(w) + " gives " + std::to_string(ch.out_per_group) +
                             " output and " + std::to_string(ch.in_per_group) +
                             " input channels per group; a convolution needs at least one of each");
  }
  if (!fits) {
    return InvalidModelError("group " + std::to_string(ch.group) + " does not fit X " + ShapeToString(x) + ", W " +
                             ShapeToString(w) + " and Y " + ShapeToString(y) +
                             (operands.b ? ", B " + ShapeToString(operands.b->shape) : std::string()));
  }
  return ch;
}

}  // namespace glpool
