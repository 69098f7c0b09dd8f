// Conv and ConvTranspose whose weights are not constant (ONNX node tests
// feed W as a graph input), shaders/conv_dynamic.comp. BuildConv and
// BuildConvTranspose hand such nodes over; it is never registered itself.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

StatusOr<KernelPlan> BuildConvDynamic(const Graph& graph, const Node& node, const KernelLimits& limits) {
  const bool transposed = node.op_type == "ConvTranspose";
  GLPOOL_ASSIGN_OR_RETURN(const ConvOperands operands, ReadConvOperands(graph, node));
  if (operands.gate != nullptr || operands.residual != nullptr) {
    return UnsupportedError("a fused channel gate or residual needs constant weights and a 2-D window");
  }
  const Tensor* x = operands.x;
  const Tensor* w = operands.w;
  const Tensor* b = operands.b;
  const Tensor* y = operands.y;
  if (b && !b->is_constant) {
    return UnsupportedError("a bias computed at run time is not supported on the GPU (constant B only)");
  }
  GLPOOL_ASSIGN_OR_RETURN(Window2D window, transposed ? TransposedConvWindow(node, x->shape, w->shape, y->shape)
                                                      : ForwardConvWindow(node, x->shape, w->shape, y->shape));
  GLPOOL_ASSIGN_OR_RETURN(const ConvChannels channels, ReadConvChannels(node, operands));

  KernelPlan plan;
  plan.shader = "conv_dynamic";
  plan.inputs = {x->name, w->name};
  plan.outputs = {y->name};
  plan.defines.emplace_back("TRANSPOSED", transposed ? "1" : "0");
  plan.defines.emplace_back("IC_PER_GROUP", std::to_string(channels.in_per_group));
  plan.defines.emplace_back("OC_PER_GROUP", std::to_string(channels.out_per_group));
  AddWindowDefines(window, plan);
  plan.weights.push_back({"bias", PackBias(b ? b->data.ToFloats() : std::vector<float>{}, channels.out_channels, 1)});
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  const Phwc4Layout out = LayoutOf(y->shape);
  plan.local_size = LocalSize2D(out.w, out.rows(), out.slices(), limits);
  plan.groups = GroupsOverOutput(graph, y->name, plan.local_size);
  return plan;
}

}  // namespace glpool
