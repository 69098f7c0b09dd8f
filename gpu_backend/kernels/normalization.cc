// LayerNormalization and InstanceNormalization (shaders/normalization.comp).
//
// Both normalize contiguous blocks of logical elements: InstanceNormalization
// each (n, c) plane with per-channel scale and bias, LayerNormalization dims
// [axis, rank) with scale and bias over those dims. A block maps onto PHWC4
// as whole rows (W) and some or all of H, plus all slices and batches when
// axis <= 1; the shader gives each such group one work group.
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildNormalization(const Graph& graph, const Node& node, const KernelLimits& limits) {
  const bool instance = node.op_type == "InstanceNormalization";
  if (node.inputs.size() < (instance ? 3u : 2u) || node.outputs.empty()) {
    return InvalidModelError("missing inputs or outputs");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  if (in->shape != out->shape) return InvalidModelError("output shape differs from the input's");
  const size_t rank = in->shape.size();
  if (rank == 0) return InvalidModelError("scalar input");
  if (instance && rank < 3) return InvalidModelError("input must be N x C x spatial...");
  int64_t axis = 2;
  if (!instance) {
    GLPOOL_ASSIGN_OR_RETURN(axis, NormalizeAxis(node.GetInt("axis", -1), rank));
  }
  int64_t block = 1;
  for (size_t d = static_cast<size_t>(axis); d < rank; ++d) block *= in->shape[d];
  const Phwc4Layout layout = LayoutOf(in->shape);
  // H values per group: all of H once the block starts at or before it,
  // else the folded middle dims from `axis` on (rank >= 5).
  int64_t h_inner = layout.h;
  if (axis >= 2) {
    h_inner = 1;
    for (size_t d = static_cast<size_t>(axis); d + 1 < rank; ++d) h_inner *= in->shape[d];
  }
  KernelPlan plan;
  plan.shader = "normalization";
  plan.inputs = {in->name};
  std::string scalar[2] = {"0", "0"};
  for (size_t i = 1; i <= 2 && i < node.inputs.size(); ++i) {
    if (node.inputs[i].empty()) break;  // B omitted (LayerNormalization)
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* param, RequireTensor(graph, node.inputs[i]));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*param));
    const int64_t size = ElementCount(param->shape);
    if (instance ? param->shape != Shape{in->shape[1]} : (size != block && size != 1)) {
      return InvalidModelError("scale / bias " + ShapeToString(param->shape) + " do not match the normalized dims");
    }
    scalar[i - 1] = size == 1 && block != 1 ? "1" : "0";
    plan.inputs.push_back(param->name);
  }
  for (size_t i = 0; i < node.outputs.size() && i < 3; ++i) {
    if (node.outputs[i].empty()) break;
    plan.outputs.push_back(node.outputs[i]);
  }
  if (node.outputs.size() > plan.outputs.size() && !node.outputs.back().empty()) {
    return UnsupportedError("InvStdDev without Mean has no GPU kernel");
  }
  uint32_t local = 1;
  const int64_t texels = (axis == 0 ? layout.n : 1) * (axis <= 1 ? layout.slices() : 1) * h_inner * layout.w;
  while (local < 64 && local < texels && local * 2 <= limits.max_invocations) local *= 2;
  plan.local_size = {local, 1, 1};
  plan.groups = {static_cast<uint32_t>(axis == 0 ? 1 : layout.n), static_cast<uint32_t>(layout.h / h_inner),
                 static_cast<uint32_t>(axis <= 1 ? 1 : layout.slices())};
  plan.defines = {{"REDUCE_N", axis == 0 ? "1" : "0"},  {"REDUCE_C", axis <= 1 ? "1" : "0"},
                  {"H_INNER", std::to_string(h_inner)}, {"PER_CHANNEL", instance ? "1" : "0"},
                  {"BLOCK", std::to_string(block)},     {"SCALE_SCALAR", scalar[0]},
                  {"BIAS_SCALAR", scalar[1]},           {"EPSILON", GlslFloat(node.GetFloat("epsilon", 1e-5f))}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  return plan;
}

}  // namespace glpool
