#include <algorithm>
#include <cstdio>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {

uint32_t DivideRoundUp(uint64_t value, uint32_t divisor) {
  return static_cast<uint32_t>((value + divisor - 1) / divisor);
}

std::array<uint32_t, 3> GroupsOverOutput(const Graph& graph, const std::string& output,
                                         std::array<uint32_t, 3> local) {
  const Tensor* tensor = graph.FindTensor(output);
  const Phwc4Layout layout = tensor ? LayoutOf(tensor->shape) : Phwc4Layout{};
  return {DivideRoundUp(layout.w, local[0]), DivideRoundUp(layout.rows(), local[1]),
          DivideRoundUp(layout.slices(), local[2])};
}

StatusOr<const Tensor*> RequireTensor(const Graph& graph, const std::string& name) {
  const Tensor* tensor = graph.FindTensor(name);
  if (tensor == nullptr) {
    return InvalidModelError("unknown tensor '" + name + "'");
  }
  return tensor;
}

Status AddFusedActivationDefines(const Node& node, KernelPlan& plan) {
  if (node.HasAttribute(kFusedOutputScaleAttr) || node.HasAttribute(kFusedOutputShiftAttr)) {
    plan.defines.emplace_back("ACT_SCALE", GlslFloat(node.GetFloat(kFusedOutputScaleAttr, 1.0f)));
    plan.defines.emplace_back("ACT_SHIFT", GlslFloat(node.GetFloat(kFusedOutputShiftAttr, 0.0f)));
  }
  return AddActivationDefines(GetFusedActivation(node), "FUSED_ACTIVATION", "ACT_P", plan);
}

Status AddActivationDefines(const std::optional<FusedActivation>& activation, const std::string& code_define,
                            const std::string& param_prefix, KernelPlan& plan) {
  if (!activation) return Status::Ok();
  // The numbering of the shader preamble's glpool_activation.
  static const std::vector<std::string> kCodes = {"",        "Relu",        "Clip",      "Sigmoid", "Tanh",
                                                  "HardSigmoid", "HardSwish", "LeakyRelu", "Elu",
                                                  "Swish"};
  GLPOOL_RETURN_IF_ERROR(ValidateFusedActivation(*activation));
  auto code = std::find(kCodes.begin(), kCodes.end(), activation->type);
  if (code == kCodes.end() || code == kCodes.begin()) {
    return UnsupportedError("fused activation " + activation->type + " has no GPU kernel");
  }
  plan.defines.emplace_back(code_define, std::to_string(code - kCodes.begin()));
  for (size_t i = 0; i < activation->params.size() && i < 2; ++i) {
    // An open Clip bound is infinite.
    plan.defines.emplace_back(param_prefix + std::to_string(i), GlslFloat(activation->params[i]));
  }
  return Status::Ok();
}

}  // namespace glpool
