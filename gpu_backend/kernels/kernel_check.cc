#include "gpu_backend/kernels/kernel_check.h"

#include <map>

#include "gpu_backend/compile/compile.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildNodeKernel(const Graph& graph, const Node& node, const KernelLimits& limits) {
  const std::string where = "node " + node.name + " (" + node.op_type + ")";
  const KernelEntry* kernel = FindKernel(node.op_type);
  if (kernel == nullptr) return UnsupportedError(where + ": the op has no GPU kernel");
  // Descriptors report what is wrong with the node; which node it is gets
  // added here, once for all of them.
  StatusOr<KernelPlan> plan = kernel->build(graph, node, limits);
  if (!plan.ok()) return plan.status().WithContext(where);
  // The GPU holds floats, integers and bools; float64 only at a Cast, where
  // converting at the graph's edge is exactly the cast.
  const bool cast = node.op_type == "Cast" || node.op_type == "CastLike";
  for (const auto* names : {&plan->inputs, &plan->outputs}) {
    for (const std::string& name : *names) {
      GLPOOL_ASSIGN_OR_RETURN(const Tensor* tensor, RequireTensor(graph, name));
      if (tensor->dtype == DataType::kFloat64 && cast) continue;
      GLPOOL_TRY_CONTEXT(RequireGpuStorable(*tensor), where);
    }
  }
  return plan;
}

Status CheckGpuKernels(const Graph& graph, const KernelRefusalCheck& on_refusal) {
  GLPOOL_ASSIGN_OR_RETURN(CompiledGraph compiled, CompileGraph(graph));
  std::map<std::string, const Node*> nodes;
  for (const Node& node : graph.nodes) nodes[node.name] = &node;
  const KernelLimits minimum;  // GLES 3.1's guaranteed work-group limits
  for (const Task& task : compiled.tasks) {
    auto node = nodes.find(task.node);
    if (node == nodes.end()) return InternalError("task for unknown node '" + task.node + "'");
    Status built = BuildNodeKernel(graph, *node->second, minimum).status();
    if (!built.ok() && on_refusal) built = on_refusal(*node->second, built);
    GLPOOL_RETURN_IF_ERROR(built);
  }
  return Status::Ok();
}

}  // namespace glpool
