// MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool (shaders/pool.comp).
//
// Windowed pools take 1-D (N x C x W) to 3-D (N x C x D x H x W) inputs; the
// output size comes from the graph (import applied ceil_mode and auto_pad),
// the descriptor only derives the begin padding the shader needs and, for
// count_include_pad, the end padding. Global pools take any rank >= 3.
// MaxPool's optional Indices output is written by the same dispatch.
#include <algorithm>
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Planes up to this many cells are walked by one invocation per slice: on
// llvmpipe the tree's six barriers cost more than the loads they spread
// (mobilenet_v3_small's 7x7 SE pools: 0.4-0.6 ms each with the tree).
constexpr int64_t kSerialGlobalPoolCells = 1024;

struct Axis {
  int64_t in = 1, out = 1, kernel = 1, stride = 1, dilation = 1, pad_begin = 0, pad_end = 0;
};

// Begin/end padding of each spatial axis, as ONNX defines it per auto_pad.
StatusOr<std::vector<Axis>> WindowAxes(const Node& node, const Shape& in, const Shape& out) {
  const size_t r = in.size() - 2;
  const std::vector<int64_t> kernel = node.GetInts("kernel_shape");
  const std::vector<int64_t> strides = node.GetInts("strides", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> dilations = node.GetInts("dilations", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> pads = node.GetInts("pads", std::vector<int64_t>(2 * r, 0));
  if (kernel.size() != r || strides.size() != r || dilations.size() != r || pads.size() != 2 * r) {
    return InvalidModelError("kernel_shape, strides, dilations or pads do not match " + std::to_string(r) +
                             " spatial dims");
  }
  const std::string auto_pad = node.GetString("auto_pad", "NOTSET");
  std::vector<Axis> axes(r);
  for (size_t i = 0; i < r; ++i) {
    Axis& a = axes[i];
    a.in = in[2 + i];
    a.out = out[2 + i];
    a.kernel = kernel[i];
    a.stride = strides[i];
    a.dilation = dilations[i];
    if (a.kernel < 1 || a.stride < 1 || a.dilation < 1) {
      return InvalidModelError("kernel_shape, strides and dilations must be positive");
    }
    const int64_t extent = (a.kernel - 1) * a.dilation + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t total = std::max<int64_t>(0, (a.out - 1) * a.stride + extent - a.in);
      a.pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      a.pad_end = total - a.pad_begin;
    } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
      a.pad_begin = pads[i];
      a.pad_end = pads[i + r];
    } else if (auto_pad != "VALID") {
      return InvalidModelError("unknown auto_pad '" + auto_pad + "'");
    }
  }
  return axes;
}

// 2-D MaxPool without Indices and 2-D AveragePool as blocks of outputs
// (shaders/pool.comp BLOCKED): each input row a block reads is loaded once
// for all the block's outputs, and no window test runs under the lanes'
// mask. One llvmpipe thread, the pool alone, 7 processes alternating: 3x3
// s2 ceil 64 ch 111x111 -> 55x55 (squeezenet1_1's first) 3.42 -> 1.28 ms
// best, 3.67 -> 1.59 median; squeezenet1_1's three pools, the per-task
// best of 5 processes summed, 5.41 -> 2.66 ms. 1-D pools are 2-D ones one
// row high; windows too large to spell out (kMaxSpelledPoolCells), 3-D
// pools and MaxPool with Indices keep one output per invocation.
constexpr int64_t kMaxSpelledPoolCells = 1024;

bool PlanPoolBlocks(const Axis& h, const Axis& w, const Phwc4Layout& out, const KernelLimits& limits,
                    KernelPlan& plan) {
  const int64_t cols = PixelsFillingLaneBatches(out.w, std::min<int64_t>(out.w, kLaneBatch));
  const int64_t rows = OutputRowsPerInvocation(out.h, cols);
  const int64_t in_cols = InputSpan(cols, w.kernel, w.stride, w.dilation);
  const int64_t in_rows = InputSpan(rows, h.kernel, h.stride, h.dilation);
  // The shader spells every load and every max out: bounded so that a
  // plane-sized window still compiles in reasonable time.
  if (in_cols * in_rows > kMaxSpelledPoolCells || cols * rows * w.kernel * h.kernel > 4 * kMaxSpelledPoolCells) {
    return false;
  }
  plan.defines.emplace_back("BLOCKED", "1");
  plan.defines.emplace_back("OUT_COLS", std::to_string(cols));
  plan.defines.emplace_back("OUT_ROWS", std::to_string(rows));
  plan.defines.emplace_back("FOR_BLOCK(F)", IndexList(cols * rows));
  plan.defines.emplace_back("FOR_COLS(F)", IndexList(cols));
  plan.defines.emplace_back("FOR_ROWS(F)", IndexList(rows));
  plan.defines.emplace_back("FOR_KX(F)", IndexList(w.kernel));
  plan.defines.emplace_back("FOR_IN_COLS(F)", IndexList(in_cols));
  plan.defines.emplace_back("FOR_IN_ROWS(F)", IndexList(in_rows));
  const int64_t columns = (out.w + cols - 1) / cols;
  const int64_t row_blocks = out.n * ((out.h + rows - 1) / rows);  // blocks never straddle two images
  plan.local_size = LocalSize2D(columns, row_blocks, out.slices(), limits);
  plan.groups = {DivideRoundUp(static_cast<uint64_t>(columns), plan.local_size[0]),
                 DivideRoundUp(static_cast<uint64_t>(row_blocks), plan.local_size[1]),
                 static_cast<uint32_t>(out.slices())};
  return true;
}

StatusOr<KernelPlan> BuildWindowPool(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out,
                                     const KernelLimits& limits) {
  const bool is_max = node.op_type == "MaxPool";
  if (in.shape.size() < 3 || in.shape.size() > 5) {
    return UnsupportedError("only 1-D to 3-D pooling runs on the GPU, input is " + ShapeToString(in.shape));
  }
  if (out.shape.size() != in.shape.size()) return InvalidModelError("output rank differs from the input's");
  const bool with_indices = is_max && node.outputs.size() > 1 && !node.outputs[1].empty();
  const Tensor* indices = nullptr;
  if (with_indices) {
    GLPOOL_ASSIGN_OR_RETURN(indices, RequireTensor(graph, node.outputs[1]));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*indices));
    if (indices->shape != out.shape) {
      return InvalidModelError("Indices shape " + ShapeToString(indices->shape) + " differs from the output's " +
                               ShapeToString(out.shape));
    }
    // The shader stores flat input indices as floats, exact below 2^24.
    if (ElementCount(in.shape) > (int64_t(1) << 24)) {
      return UnsupportedError("Indices into an input of " + std::to_string(ElementCount(in.shape)) +
                              " elements would pass 2^24, beyond exact float storage");
    }
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<Axis> axes, WindowAxes(node, in.shape, out.shape));
  // 1-D and 2-D pools run as 3-D ones with size-1 leading axes.
  while (axes.size() < 3) axes.insert(axes.begin(), Axis{});
  KernelPlan plan;
  plan.shader = "pool";
  plan.inputs = {in.name};
  plan.outputs = {out.name};
  if (with_indices) plan.outputs.push_back(indices->name);
  plan.defines = {{"GLOBAL", "0"},
                  {"IS_MAX", is_max ? "1" : "0"},
                  {"WITH_INDICES", with_indices ? "1" : "0"},
                  {"STORAGE_ORDER", node.GetInt("storage_order", 0) != 0 ? "1" : "0"},
                  {"COUNT_INCLUDE_PAD", node.GetInt("count_include_pad", 0) != 0 ? "1" : "0"},
                  {"IN_D", std::to_string(axes[0].in)},
                  {"OUT_D", std::to_string(axes[0].out)}};
  const char* suffix[3] = {"_D", "_H", "_W"};
  for (int a = 0; a < 3; ++a) {
    plan.defines.emplace_back(std::string("KERNEL") + suffix[a], std::to_string(axes[a].kernel));
    plan.defines.emplace_back(std::string("STRIDE") + suffix[a], std::to_string(axes[a].stride));
    plan.defines.emplace_back(std::string("DILATION") + suffix[a], std::to_string(axes[a].dilation));
    plan.defines.emplace_back(std::string("PAD") + suffix[a], std::to_string(axes[a].pad_begin));
    plan.defines.emplace_back(std::string("PAD_END") + suffix[a], std::to_string(axes[a].pad_end));
  }
  if (!with_indices && in.shape.size() <= 4 && PlanPoolBlocks(axes[1], axes[2], LayoutOf(out.shape), limits, plan)) {
    return plan;
  }
  plan.local_size = {8, 8, 1};
  plan.groups = GroupsOverOutput(graph, out.name, plan.local_size);
  return plan;
}

}  // namespace

StatusOr<KernelPlan> BuildGlobalPoolPlan(const Tensor& in, const Tensor& out, bool max, const KernelLimits& limits) {
  if (in.shape.size() < 3) return InvalidModelError("input must be N x C x spatial..., is " + ShapeToString(in.shape));
  const Phwc4Layout layout = LayoutOf(in.shape);
  KernelPlan plan;
  plan.shader = "pool";
  plan.inputs = {in.name};
  plan.outputs = {out.name};
  const char* is_max = max ? "1" : "0";
  if (layout.h * layout.w <= kSerialGlobalPoolCells) {
    plan.defines = {{"GLOBAL", "2"}, {"IS_MAX", is_max}};
    // A group's invocations share one image: a group per image along y.
    plan.local_size = LocalSize2D(layout.slices(), 1, layout.n, limits);
    plan.groups = {DivideRoundUp(layout.slices(), plan.local_size[0]), static_cast<uint32_t>(layout.n), 1};
    return plan;
  }
  // A power of two (the shader's tree reduction needs one), no larger than
  // the plane needs or the device allows.
  uint32_t local = 1;
  while (local < 64 && local < layout.h * layout.w && local * 2 <= limits.max_invocations) local *= 2;
  plan.defines = {{"GLOBAL", "1"}, {"IS_MAX", is_max}};
  plan.local_size = {local, 1, 1};
  plan.groups = {1, static_cast<uint32_t>(layout.n), static_cast<uint32_t>(layout.slices())};
  return plan;
}

StatusOr<KernelPlan> BuildPool(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.empty() || node.outputs.empty()) return InvalidModelError("needs an input and an output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  const bool global = node.op_type == "GlobalAveragePool" || node.op_type == "GlobalMaxPool";
  GLPOOL_ASSIGN_OR_RETURN(KernelPlan plan,
                          global ? BuildGlobalPoolPlan(*in, *out, node.op_type == "GlobalMaxPool", limits)
                                 : BuildWindowPool(graph, node, *in, *out, limits));
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  return plan;
}

}  // namespace glpool
