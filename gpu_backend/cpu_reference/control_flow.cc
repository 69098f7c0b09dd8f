// If: runs the branch the condition picks as a graph of its own (the
// importer made each branch self-contained: graph.h, Node::subgraphs), fed
// the outer tensors the node lists after its condition. Here both in a
// CPU-reference run and as the GPU's per-node fallback for an If whose
// condition comes from data; an If decided at import never reaches it.
#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {

Status RunIf(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* cond, ctx.Input(0));
  if (cond->size() != 1) {
    return InvalidModelError("condition " + ctx.InputLabel(0) + " has " + std::to_string(cond->size()) +
                             " elements; If needs one");
  }
  const bool take_then = cond->is_floating() ? cond->floats[0] != 0.0f : cond->ints[0] != 0;
  const char* key = take_then ? "then_branch" : "else_branch";
  auto found = ctx.node.subgraphs.find(key);
  if (found == ctx.node.subgraphs.end() || !found->second) {
    return InvalidModelError(std::string("has no ") + key + " to run");
  }
  const Graph& branch = *found->second;
  if (branch.inputs.size() + 1 != ctx.input_count()) {
    return InternalError(std::string(key) + " reads " + std::to_string(branch.inputs.size()) +
                         " outer tensors, the node passes " + std::to_string(ctx.input_count() - 1));
  }
  if (branch.outputs.size() != outputs.size()) {
    return InvalidModelError(std::string(key) + " gives " + std::to_string(branch.outputs.size()) +
                             " outputs, the node has " + std::to_string(outputs.size()));
  }
  std::map<std::string, TensorData> feeds;
  for (size_t k = 0; k < branch.inputs.size(); ++k) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* value, ctx.Input(k + 1));
    feeds[branch.inputs[k]] = ValueToTensorData(*value);
  }
  StatusOr<std::map<std::string, TensorData>> results = RunGraph(branch, feeds);
  if (!results.ok()) return results.status().WithContext(key);
  for (size_t j = 0; j < outputs.size(); ++j) {
    StatusOr<Value> value = ValueFromTensorData(results->at(branch.outputs[j]));
    if (!value.ok()) return value.status().WithContext(std::string(key) + " output '" + branch.outputs[j] + "'");
    outputs[j] = std::move(value).value();
  }
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
