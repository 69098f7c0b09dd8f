// DepthwisePointwiseConv (graph/depthwise_pointwise.h): the depthwise Conv,
// its activation, then the pointwise Conv with the residual, each by the
// reference's own Conv. The executor applies the node's fused activation,
// scale and shift afterwards, as for the pointwise Conv it replaces.
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/depthwise_pointwise.h"

namespace glpool {
namespace cpu_reference {

Status RunDepthwisePointwiseConv(const KernelContext& ctx, std::vector<Value>& outputs) {
  if (ctx.input_count() < 5 || ctx.input_count() > 6) {
    return InvalidModelError("needs X, Wd, Bd, Wp, Bp and an optional residual");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() != 4) return InvalidModelError("X must be N x C x H x W, is " + ShapeToString(x->shape));
  Node depthwise;
  depthwise.op_type = "Conv";
  for (const char* window : kDepthwiseWindowAttrs) {
    if (ctx.node.HasAttribute(window)) depthwise.attributes[window] = ctx.node.attributes.at(window);
  }
  depthwise.attributes["group"] = x->shape[1];
  std::vector<Value> middle(1);
  const KernelContext depthwise_ctx{
      depthwise, ctx.opset, {x, ctx.inputs[kDepthwiseWeightsInput], ctx.inputs[kDepthwiseBiasInput]}};
  GLPOOL_RETURN_IF_ERROR(RunConv(depthwise_ctx, middle));
  if (const std::optional<FusedActivation> activation = GetDepthwiseActivation(ctx.node)) {
    GLPOOL_RETURN_IF_ERROR(ValidateFusedActivation(*activation));
    for (float& v : middle[0].floats) v = ApplyFusedActivation(*activation, v);
  }
  Node pointwise;
  pointwise.op_type = "Conv";
  const Value* residual = ctx.has_input(kDepthwisePointwiseResidualInput)
                              ? ctx.inputs[kDepthwisePointwiseResidualInput]
                              : nullptr;
  return RunConv(KernelContext{pointwise, ctx.opset,
                               {&middle[0], ctx.inputs[kPointwiseWeightsInput], ctx.inputs[kPointwiseBiasInput],
                                nullptr, residual}},
                 outputs);
}

}  // namespace cpu_reference
}  // namespace glpool
