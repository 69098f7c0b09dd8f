// Add, Sub, Mul, Div, Pow with broadcasting (shaders/elementwise_binary.comp).
#include <map>

#include "gpu_backend/kernels/broadcast_map.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

StatusOr<KernelPlan> BuildElementwiseBinary(const Graph& graph, const Node& node, const KernelLimits&) {
  static const std::map<std::string, int> kOps = {{"Add", 0}, {"Sub", 1}, {"Mul", 2}, {"Div", 3}, {"Pow", 4}};
  if (node.inputs.size() != 2 || node.outputs.size() != 1) {
    return InvalidModelError("node " + node.name + " (" + node.op_type + ") needs two inputs and one output");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* a, RequireTensor(graph, node, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* b, RequireTensor(graph, node, node.inputs[1]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node, node.outputs[0]));
  KernelPlan plan;
  plan.shader = "elementwise_binary";
  plan.inputs = {a->name, b->name};
  plan.outputs = {out->name};
  plan.defines.emplace_back("OP", std::to_string(kOps.at(node.op_type)));
  const Tensor* operands[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    auto map = MapBroadcast(operands[i]->shape, out->shape);
    if (!map.ok()) return map.status().WithContext("node " + node.name + " (" + node.op_type + ")");
    const std::string prefix = "IN" + std::to_string(i);
    plan.defines.emplace_back(prefix + "_SAME", map->same ? "1" : "0");
    plan.defines.emplace_back(prefix + "_MAP", map->Glsl());
  }
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
