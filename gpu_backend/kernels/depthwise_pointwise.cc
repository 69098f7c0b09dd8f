// DepthwisePointwiseConv (graph/depthwise_pointwise.h,
// shaders/depthwise_pointwise.comp): the depthwise values of a block are
// computed in registers and go straight into the pointwise products. Only
// the GPU session's pass makes these nodes (passes/fuse_depthwise_pointwise.cc),
// from operands it checked; this checks them again.
#include "gpu_backend/graph/depthwise_pointwise.h"
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {
namespace {

// A block computes all output slices up to kMaxBlockSlices
// (graph/depthwise_pointwise.h), so that each depthwise value is computed
// once. Column blocks of wide outputs add rows while they keep at most
// kMaxAccumulators vec4 accumulators, as many as conv.comp's largest
// pointwise blocks; a narrow output's whole row (at most kWholeRowWidth
// columns) takes up to 16 x 8. One llvmpipe thread, the pair
// alone, best of 3-7 processes: 3x3 144 ch at 56x56 -> 24, 2.31-2.46 ms in
// one block of 6 slices, 3.17 in two of 3, 2.67-3.17 with two rows a block
// (84 accumulators); unfused 3.00. Blocks of up to 128 accumulators ran
// the pairs 4-9% faster (in-process A/B, one thread, five shapes) but made
// mobilenet_v2's first run with a cold shader cache take 43-50 s instead
// of 36-38 s.
constexpr int64_t kMaxAccumulators = 64;

struct Operands {
  const Tensor *x = nullptr, *dw_w = nullptr, *dw_b = nullptr, *pw_w = nullptr, *pw_b = nullptr,
               *residual = nullptr, *y = nullptr;
};

StatusOr<const Tensor*> OptionalConstant(const Graph& graph, const Node& node, size_t index) {
  if (node.inputs.size() <= index || node.inputs[index].empty()) return static_cast<const Tensor*>(nullptr);
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* t, RequireTensor(graph, node.inputs[index]));
  if (!t->is_constant) return InvalidModelError("input " + std::to_string(index) + " must be constant");
  return t;
}

StatusOr<Operands> ReadOperands(const Graph& graph, const Node& node) {
  if (node.inputs.size() < 5 || node.inputs.size() > 6 || node.outputs.size() != 1) {
    return InvalidModelError("needs X, Wd, Bd, Wp, Bp, an optional residual and one output");
  }
  Operands o;
  GLPOOL_ASSIGN_OR_RETURN(o.x, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(o.y, RequireTensor(graph, node.outputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(o.dw_w, OptionalConstant(graph, node, kDepthwiseWeightsInput));
  GLPOOL_ASSIGN_OR_RETURN(o.dw_b, OptionalConstant(graph, node, kDepthwiseBiasInput));
  GLPOOL_ASSIGN_OR_RETURN(o.pw_w, OptionalConstant(graph, node, kPointwiseWeightsInput));
  GLPOOL_ASSIGN_OR_RETURN(o.pw_b, OptionalConstant(graph, node, kPointwiseBiasInput));
  if (node.inputs.size() > kDepthwisePointwiseResidualInput) {
    GLPOOL_ASSIGN_OR_RETURN(o.residual, RequireTensor(graph, node.inputs[kDepthwisePointwiseResidualInput]));
  }
  const Shape& x = o.x->shape;
  const Shape& y = o.y->shape;
  if (x.size() != 4 || y.size() != 4 || y[0] != x[0]) {
    return InvalidModelError("X " + ShapeToString(x) + " and Y " + ShapeToString(y) + " must be N x C x H x W");
  }
  const int64_t channels = x[1], outputs = y[1];
  if (o.dw_w == nullptr || o.dw_w->shape.size() != 4 || o.dw_w->shape[0] != channels || o.dw_w->shape[1] != 1) {
    return InvalidModelError("Wd must be [" + std::to_string(channels) + ", 1, kh, kw]");
  }
  if (o.pw_w == nullptr || o.pw_w->shape != Shape{outputs, channels, 1, 1}) {
    return InvalidModelError("Wp must be " + ShapeToString({outputs, channels, 1, 1}));
  }
  if ((o.dw_b && ElementCount(o.dw_b->shape) != channels) || (o.pw_b && ElementCount(o.pw_b->shape) != outputs)) {
    return InvalidModelError("Bd must hold " + std::to_string(channels) + " values and Bp " +
                             std::to_string(outputs));
  }
  if (o.residual && o.residual->shape != y) {
    return InvalidModelError("the residual " + ShapeToString(o.residual->shape) + " must have Y's shape " +
                             ShapeToString(y));
  }
  return o;
}

}  // namespace

StatusOr<KernelPlan> BuildDepthwisePointwise(const Graph& graph, const Node& node, const KernelLimits& limits) {
  GLPOOL_ASSIGN_OR_RETURN(const Operands o, ReadOperands(graph, node));
  const Shape& x = o.x->shape;
  const Shape& y = o.y->shape;
  const int64_t channels = x[1], outputs = y[1];
  const Shape depthwise_shape = {y[0], channels, y[2], y[3]};
  GLPOOL_ASSIGN_OR_RETURN(const Window2D window, ForwardConvWindow(node, x, o.dw_w->shape, depthwise_shape));

  const int64_t out_slices = (outputs + 3) / 4;
  const int64_t slice_blocks = (out_slices + kMaxBlockSlices - 1) / kMaxBlockSlices;
  const int64_t block = (out_slices + slice_blocks - 1) / slice_blocks;
  const Phwc4Layout out = LayoutOf(y);
  // Narrow outputs: a whole row per invocation and the rows along the
  // lanes. Wider ones: conv.cc's column blocks, rows added while the
  // accumulators stay within kMaxAccumulators.
  const bool rows_along_lanes = out.w <= kWholeRowWidth;
  int64_t pixels = out.w, rows = 1;
  if (!rows_along_lanes) {
    pixels = PixelsFillingLaneBatches(out.w, NarrowToFillLanes(out.w, OutputPixelsPerInvocation(out.w)));
    rows = OutputRowsPerInvocation(out.h, pixels, std::max<int64_t>(pixels, kMaxAccumulators / block));
  }
  const int64_t columns = (out.w + pixels - 1) / pixels;
  const int64_t row_blocks = out.n * ((out.h + rows - 1) / rows);

  KernelPlan plan;
  plan.shader = "depthwise_pointwise";
  plan.inputs = {o.x->name};
  if (o.residual != nullptr) {
    plan.inputs.push_back(o.residual->name);
    plan.defines.emplace_back("RESIDUAL", "1");
  }
  plan.outputs = {o.y->name};
  plan.defines.emplace_back("OUT_SLICES", std::to_string(block));
  plan.defines.emplace_back("OUT_PIXELS", std::to_string(pixels));
  plan.defines.emplace_back("OUT_ROWS", std::to_string(rows));
  plan.defines.emplace_back("IN_SLICES", std::to_string((channels + 3) / 4));
  plan.defines.emplace_back("FOR_PIXELS(F)", IndexList(pixels * rows));
  plan.defines.emplace_back("FOR_COLS(F)", IndexList(pixels));
  plan.defines.emplace_back("FOR_ROWS(F)", IndexList(rows));
  plan.defines.emplace_back("FOR_SLICES(F)", IndexList(block));
  plan.defines.emplace_back("FOR_KX(F)", IndexList(window.kernel[1]));
  plan.defines.emplace_back("FOR_IN_COLS(F)",
                            IndexList(InputSpan(pixels, window.kernel[1], window.stride[1], window.dilation[1])));
  plan.defines.emplace_back("FOR_IN_ROWS(F)",
                            IndexList(InputSpan(rows, window.kernel[0], window.stride[0], window.dilation[0])));
  AddWindowDefines(window, plan);
  GLPOOL_RETURN_IF_ERROR(AddActivationDefines(GetDepthwiseActivation(node), "DW_ACTIVATION", "DW_P", plan));
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));

  const std::vector<float> dw = o.dw_w->data.ToFloats();
  const int64_t taps = window.kernel[0] * window.kernel[1];
  plan.weights.push_back({"dw_weights", PackDepthwiseWeights(channels, taps, [&](int64_t c, int64_t tap) {
                            return dw[static_cast<size_t>(c * taps + tap)];
                          })});
  const std::vector<float> dw_bias = o.dw_b ? o.dw_b->data.ToFloats() : std::vector<float>{};
  plan.weights.push_back({"dw_bias", PackBias(dw_bias, channels, 1)});
  const std::vector<float> pw = o.pw_w->data.ToFloats();
  plan.weights.push_back({"pw_weights", PackGroupedWeights(outputs, channels, channels, outputs, {1, 1}, block,
                                                           [&](int64_t oc, int64_t ic, int64_t, int64_t) {
                                                             return pw[static_cast<size_t>(oc * channels + ic)];
                                                           })});
  const std::vector<float> pw_bias = o.pw_b ? o.pw_b->data.ToFloats() : std::vector<float>{};
  plan.weights.push_back({"pw_bias", PackBias(pw_bias, outputs, block)});

  const uint32_t z = static_cast<uint32_t>(slice_blocks);
  if (rows_along_lanes) {
    plan.defines.emplace_back("ROWS_ALONG_LANES", "1");
    plan.local_size = LocalSize2D(row_blocks, columns, slice_blocks, limits);
    plan.groups = {DivideRoundUp(static_cast<uint64_t>(row_blocks), plan.local_size[0]),
                   DivideRoundUp(static_cast<uint64_t>(columns), plan.local_size[1]), z};
  } else {
    plan.local_size = LocalSize2D(columns, row_blocks, slice_blocks, limits);
    plan.groups = {DivideRoundUp(static_cast<uint64_t>(columns), plan.local_size[0]),
                   DivideRoundUp(static_cast<uint64_t>(row_blocks), plan.local_size[1]), z};
  }
  return plan;
}

}  // namespace glpool
