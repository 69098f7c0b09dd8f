// Softmax, LogSoftmax and Hardmax (shaders/softmax.comp), with both semantics:
// before opset 13 the input is flattened to 2-D at `axis` (default 1) and
// each row of dims [axis, rank) is normalised; from 13 on only `axis`
// (default -1) is.
#include <string>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildSoftmax(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) return InvalidModelError("needs one input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  if (in->shape != out->shape) return InvalidModelError("output shape differs from the input's");
  const size_t rank = in->shape.size();
  if (rank == 0) return UnsupportedError("scalar input");
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  const bool flatten = graph.opset < 13;
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(node.GetInt("axis", flatten ? 1 : -1), rank));
  const size_t first = static_cast<size_t>(axis);
  const size_t end = flatten ? rank : first + 1;
  int64_t reduced = 1, inner = 1;
  bool channels_only = true;
  const size_t channel = rank == 1 ? 0 : 1;
  for (size_t d = 0; d < rank; ++d) {
    if (d >= first && d < end) {
      reduced *= in->shape[d];
      if (d != channel && in->shape[d] != 1) channels_only = false;
    } else if (d >= end) {
      inner *= in->shape[d];
    }
  }
  if (first > channel || end <= channel) channels_only = false;
  KernelPlan plan;
  plan.shader = "softmax";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.defines = {{"LOG", node.op_type == "LogSoftmax" ? "1" : "0"},
                  {"HARD", node.op_type == "Hardmax" ? "1" : "0"},
                  {"CHANNELS", channels_only ? "1" : "0"},
                  {"REDUCED", std::to_string(reduced)},
                  {"INNER", std::to_string(inner)}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  if (channels_only) plan.groups[2] = 1;  // one invocation per position writes every slice
  return plan;
}

}  // namespace glpool
