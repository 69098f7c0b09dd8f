// Conv and ConvTranspose with 3-D and higher windows (N x C x D x H x W...),
// shaders/conv_nd.comp. PHWC4 folds the outer spatial dims into H, which the
// 2-D shaders cannot undo; this one unravels rows itself. BuildConv and
// BuildConvTranspose hand such nodes over; it is never registered itself.
// Weights and bias are bound as tensors whether constant or not: the
// runtime uploads constants once, and no packing is needed.
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// "int[n](a, b, ...)" for the shader's per-dim constant arrays.
std::string IntArray(const std::vector<int64_t>& values) { return GlslIntArray(values, values.size()); }

}  // namespace

StatusOr<KernelPlan> BuildConvNd(const Graph& graph, const Node& node, const KernelLimits& limits) {
  const bool transposed = node.op_type == "ConvTranspose";
  GLPOOL_ASSIGN_OR_RETURN(const ConvOperands operands, ReadConvOperands(graph, node));
  if (operands.gate != nullptr || operands.residual != nullptr) {
    return UnsupportedError("a fused channel gate or residual needs constant weights and a 2-D window");
  }
  GLPOOL_ASSIGN_OR_RETURN(const ConvChannels channels, ReadConvChannels(node, operands));
  const Shape& x = operands.x->shape;
  const Shape& y = operands.y->shape;
  GLPOOL_ASSIGN_OR_RETURN(const ConvWindow window,
                          transposed ? TransposedConvGeometry(node, x, operands.w->shape, y)
                                     : ForwardConvGeometry(node, x, operands.w->shape, y));
  for (const Tensor* t : {operands.x, operands.w, operands.y}) {
    GLPOOL_TRY_CONTEXT(CheckIndexable(t->shape), "'" + t->name + "'");
  }
  int64_t taps = 1;
  for (int64_t k : window.kernel) taps *= k;

  KernelPlan plan;
  plan.shader = "conv_nd";
  plan.inputs = {operands.x->name, operands.w->name};
  if (operands.b) plan.inputs.push_back(operands.b->name);
  plan.outputs = {operands.y->name};
  const std::vector<int64_t> in_size(x.begin() + 2, x.end()), out_size(y.begin() + 2, y.end());
  plan.defines = {{"TRANSPOSED", transposed ? "1" : "0"},
                  {"IC_PER_GROUP", std::to_string(channels.in_per_group)},
                  {"OC_PER_GROUP", std::to_string(channels.out_per_group)},
                  {"SPATIAL_RANK", std::to_string(in_size.size())},
                  {"TAPS", std::to_string(taps)},
                  {"IN_SIZE", IntArray(in_size)},
                  {"OUT_SIZE", IntArray(out_size)},
                  {"KERNEL", IntArray(window.kernel)},
                  {"STRIDE", IntArray(window.stride)},
                  {"DILATION", IntArray(window.dilation)},
                  {"PAD", IntArray(window.pad_begin)}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  const Phwc4Layout out = LayoutOf(y);
  plan.local_size = LocalSize2D(out.w, out.rows(), out.slices(), limits);
  plan.groups = GroupsOverOutput(graph, operands.y->name, plan.local_size);
  return plan;
}

}  // namespace glpool
