// Concat along any axis (shaders/concat.comp), up to 7 non-empty inputs per
// node: the shader binds each input to its own image unit or SSBO, and GLES
// 3.1 only guarantees a handful of those (glslang validates against 8).
#include <string>
#include <vector>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

constexpr size_t kMaxConcatInputs = 7;

}  // namespace

StatusOr<KernelPlan> BuildConcat(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.empty() || node.outputs.size() != 1) return InvalidModelError("needs inputs and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  const size_t rank = out->shape.size();
  if (rank == 0) return InvalidModelError("cannot concatenate scalars");
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(node.GetInt("axis", 0), rank));
  KernelPlan plan;
  plan.shader = "concat";
  plan.outputs = {out->name};
  std::vector<int64_t> offsets = {0};
  for (const std::string& name : node.inputs) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, name));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
    if (in->shape.size() != rank) return InvalidModelError("input ranks differ");
    for (size_t d = 0; d < rank; ++d) {
      if (d != static_cast<size_t>(axis) && in->shape[d] != out->shape[d]) {
        return InvalidModelError("input " + ShapeToString(in->shape) + " does not fit output " +
                                 ShapeToString(out->shape));
      }
    }
    if (in->shape[axis] == 0) continue;  // contributes nothing
    plan.inputs.push_back(in->name);
    offsets.push_back(offsets.back() + in->shape[axis]);
  }
  if (offsets.back() != out->shape[axis]) return InvalidModelError("input sizes do not add up to the output");
  if (plan.inputs.size() > kMaxConcatInputs) {
    return UnsupportedError(std::to_string(plan.inputs.size()) + " inputs; the GPU kernel takes at most " +
                            std::to_string(kMaxConcatInputs));
  }
  if (plan.inputs.empty()) return UnsupportedError("every input is empty");
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(out->shape));
  const int phwc4_axis = Phwc4AxisOf(static_cast<size_t>(axis), rank);
  int mode = 0;
  if (phwc4_axis == 1) {
    mode = 1;
    for (size_t j = 1; j < plan.inputs.size(); ++j) {
      if (offsets[j] % 4 != 0) mode = 2;
    }
  }
  // Dims after the concat axis that fold into the same PHWC4 axis (only the
  // middle dims of rank >= 5 fold).
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < rank; ++d) {
    if (Phwc4AxisOf(d, rank) == phwc4_axis) inner *= out->shape[d];
  }
  plan.defines = {{"MODE", std::to_string(mode)},
                  {"AXIS", std::to_string(phwc4_axis)},
                  {"INNER", std::to_string(inner)},
                  {"OUT_DIM", std::to_string(out->shape[axis])},
                  {"NUM_INPUTS", std::to_string(plan.inputs.size())},
                  {"OFFSETS", GlslIntArray(offsets, 8, offsets.back())}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
