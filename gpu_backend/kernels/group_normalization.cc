// GroupNormalization (shaders/group_normalization.comp): statistics per
// batch item and group of C / num_groups channels over every spatial
// position. Work groups own chunks of lcm(C / num_groups, 4) channels, whole
// groups and whole PHWC4 slices at once, so each output texel has one
// writer. scale and bias hold one value per group (opset 18) or per channel
// (opset 21).
#include <numeric>
#include <string>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildGroupNormalization(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() != 3 || node.outputs.size() != 1) return InvalidModelError("needs X, scale, bias and Y");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  if (in->shape != out->shape) return InvalidModelError("output shape differs from the input's");
  if (in->shape.size() < 2) return InvalidModelError("X must be N x C x ..., is " + ShapeToString(in->shape));
  const int64_t channels = in->shape[1];
  const int64_t groups = node.GetInt("num_groups", 0);
  if (groups <= 0 || channels % groups != 0) {
    return InvalidModelError("num_groups " + std::to_string(groups) + " does not divide " +
                             std::to_string(channels) + " channels");
  }
  const bool per_group = graph.opset < 21;
  for (size_t i = 1; i <= 2; ++i) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* param, RequireTensor(graph, node.inputs[i]));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*param));
    if (param->shape != Shape{per_group ? groups : channels}) {
      return InvalidModelError(std::string(i == 1 ? "scale " : "bias ") + ShapeToString(param->shape) + " must be [" +
                               std::to_string(per_group ? groups : channels) + "] at opset " +
                               std::to_string(graph.opset));
    }
  }
  const int64_t group_channels = channels / groups;
  const int64_t chunk_channels = std::lcm(group_channels, int64_t{4});
  const int64_t chunk_slices = chunk_channels / 4;
  const Phwc4Layout layout = LayoutOf(in->shape);
  const int64_t chunks = (layout.slices() + chunk_slices - 1) / chunk_slices;
  if (layout.n > 65535 || chunks > 65535) {
    return UnsupportedError("more than 65535 batch items or channel chunks in " + ShapeToString(in->shape));
  }
  uint32_t local = 1;
  const int64_t texels = chunk_slices * layout.h * layout.w;
  while (local < 64 && local < texels && local * 2 <= limits.max_invocations) local *= 2;
  KernelPlan plan;
  plan.shader = "group_normalization";
  plan.inputs = {in->name, node.inputs[1], node.inputs[2]};
  plan.outputs = {out->name};
  plan.local_size = {local, 1, 1};
  plan.groups = {static_cast<uint32_t>(layout.n), static_cast<uint32_t>(chunks), 1};
  plan.defines = {{"GROUP_CHANNELS", std::to_string(group_channels)},
                  {"CHUNK_SLICES", std::to_string(chunk_slices)},
                  {"PER_GROUP", per_group ? "1" : "0"},
                  {"EPSILON", GlslFloat(node.GetFloat("epsilon", 1e-5f))}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  return plan;
}

}  // namespace glpool
