// BatchNormalization in inference form (shaders/batch_normalization.comp),
// for graphs whose passes could not fold it into a preceding Conv. With
// constant statistics y = x * a + b, a = scale / sqrt(var + epsilon) and
// b = bias - mean * a computed here once; statistics computed at run time
// are bound as inputs and combined in the shader.
#include <cmath>
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildBatchNormalization(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.size() != 5) return InvalidModelError("needs X, scale, B, mean and var");
  // Training mode reaches here only where LowerTrainingBatchNorm (a default
  // pass) could not rewrite it into ReduceMean, Sub, Mul and an inference BN.
  if (node.outputs.size() > 1 && !node.outputs[1].empty()) {
    return UnsupportedError("training-mode outputs (running mean / var) need the default graph passes "
                            "(LowerTrainingBatchNorm, fp32 tensors only)");
  }
  if (node.GetInt("training_mode", 0) != 0) {
    return UnsupportedError("training_mode needs the default graph passes (LowerTrainingBatchNorm, fp32 tensors only)");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  if (in->shape.size() < 2 || in->shape != out->shape) return InvalidModelError("needs N x C x ... input and output");
  const int64_t channels = in->shape[1];
  const float epsilon = node.GetFloat("epsilon", 1e-5f);
  KernelPlan plan;
  plan.shader = "batch_normalization";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.defines = {{"EPSILON", GlslFloat(epsilon)}};
  bool all_constant = true;
  for (size_t i = 1; i < 5; ++i) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* param, RequireTensor(graph, node.inputs[i]));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*param));
    if (param->shape != Shape{channels}) {
      return InvalidModelError("input " + std::to_string(i) + " needs one value per channel");
    }
    all_constant = all_constant && param->is_constant;
  }
  if (!all_constant) {
    for (size_t i = 1; i < 5; ++i) plan.inputs.push_back(node.inputs[i]);
    plan.defines.emplace_back("RUNTIME", "1");
    plan.weights.push_back({"scale_shift", {0, 0, 0, 0}});  // declared by the shader, unused
    GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
    plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
    return plan;
  }
  std::vector<std::vector<float>> params(4);
  for (size_t i = 0; i < 4; ++i) {
    GLPOOL_ASSIGN_OR_RETURN(params[i], ConstantFloats(graph, node, i + 1));
  }
  const int64_t slices = LayoutOf(in->shape).slices();
  // Scales for every slice, then shifts; padding lanes stay 0.
  KernelWeights weights{"scale_shift", std::vector<float>(static_cast<size_t>(slices * 8), 0.0f)};
  for (int64_t c = 0; c < channels; ++c) {
    const double a = params[0][c] / std::sqrt(static_cast<double>(params[3][c]) + static_cast<double>(epsilon));
    weights.values[c] = static_cast<float>(a);
    weights.values[slices * 4 + c] = static_cast<float>(params[1][c] - params[2][c] * a);
  }
  plan.weights.push_back(std::move(weights));
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
