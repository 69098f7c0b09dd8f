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
  if (node.inputs.size() < 2 || node.inputs.size() > 3 || node.outputs.size() != 1) {
    return InvalidModelError("node " + node.name + " (" + node.op_type + ") needs X, W, optional B and one output");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* x, RequireTensor(graph, node, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w, RequireTensor(graph, node, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* y, RequireTensor(graph, node, node.outputs[0]));
  const Tensor* b = nullptr;
  if (node.inputs.size() == 3 && !node.inputs[2].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(b, RequireTensor(graph, node, node.inputs[2]));
  }
  if (b && !b->is_constant) {
    return UnsupportedError("node " + node.name + " (" + node.op_type +
                            "): a bias computed at run time is not supported on the GPU (constant B only)");
  }
  GLPOOL_ASSIGN_OR_RETURN(Window2D window, transposed ? TransposedConvWindow(node, x->shape, w->shape, y->shape)
                                                      : ForwardConvWindow(node, x->shape, w->shape, y->shape));
  const int64_t in_channels = x->shape[1];
  const int64_t group = node.GetInt("group", 1);
  const int64_t out_channels = transposed ? w->shape[1] * group : w->shape[0];
  const bool fits = group >= 1 && in_channels % group == 0 && out_channels % group == 0 &&
                    (transposed ? w->shape[0] == in_channels : w->shape[1] == in_channels / group) &&
                    y->shape[1] == out_channels && (!b || ElementCount(b->shape) == out_channels);
  if (!fits) {
    return InvalidModelError("node " + node.name + " (" + node.op_type + "): group " + std::to_string(group) +
                             " does not fit X " + ShapeToString(x->shape) + ", W " + ShapeToString(w->shape) +
                             " and Y " + ShapeToString(y->shape));
  }

  KernelPlan plan;
  plan.shader = "conv_dynamic";
  plan.inputs = {x->name, w->name};
  plan.outputs = {y->name};
  plan.defines.emplace_back("TRANSPOSED", transposed ? "1" : "0");
  plan.defines.emplace_back("IC_PER_GROUP", std::to_string(in_channels / group));
  plan.defines.emplace_back("OC_PER_GROUP", std::to_string(out_channels / group));
  AddWindowDefines(window, plan);
  plan.weights.push_back({"bias", PackBias(b ? b->data.ToFloats() : std::vector<float>{}, out_channels, 1)});
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  const Phwc4Layout out = LayoutOf(y->shape);
  plan.local_size = LocalSize2D(out.w, out.rows(), limits.max_invocations);
  plan.groups = GroupsOverOutput(graph, y->name, plan.local_size);
  return plan;
}

}  // namespace glpool
