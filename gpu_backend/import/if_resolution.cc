// ResolveIf (see import_state.h): an If whose condition import knows is
// replaced by its taken branch; any other gets its outputs' types from
// both branches, which must agree.
#include <set>

#include "gpu_backend/import/import_state.h"
#include "gpu_backend/import/shape_rules.h"

namespace glpool {
namespace {

StatusOr<const Graph*> Branch(const Node& node, const std::string& key) {
  auto found = node.subgraphs.find(key);
  if (found == node.subgraphs.end() || !found->second) return InvalidModelError("has no " + key);
  const Graph& branch = *found->second;
  if (branch.inputs.size() + 1 != node.inputs.size()) {
    return InternalError(key + " reads " + std::to_string(branch.inputs.size()) + " outer tensors, the node lists " +
                         std::to_string(node.inputs.size() - 1));
  }
  if (branch.outputs.size() != node.outputs.size()) {
    return InvalidModelError(key + " gives " + std::to_string(branch.outputs.size()) + " outputs, the node has " +
                             std::to_string(node.outputs.size()));
  }
  return &branch;
}

// The taken branch's nodes, every name it defines made unique in the outer
// graph under "<If name>/", its inputs bound to the node's, and one Identity
// per output writing the node's output (the passes remove them).
StatusOr<std::vector<Node>> InlineBranch(const Node& node, const Graph& branch, ImportState* state) {
  const std::string prefix = node.name + "/";
  std::map<std::string, std::string> rename;
  for (size_t k = 0; k < branch.inputs.size(); ++k) rename[branch.inputs[k]] = node.inputs[k + 1];
  for (const auto& [name, tensor] : branch.tensors) {
    if (rename.count(name)) continue;
    std::string unique = prefix + name;
    for (int n = 1; state->graph.tensors.count(unique); ++n) unique = prefix + name + "_" + std::to_string(n);
    rename[name] = unique;
    Tensor copy;
    copy.name = unique;
    if (tensor.is_constant) {
      copy = tensor;
      copy.name = unique;
      state->resolved.insert(unique);
    }
    state->graph.tensors.emplace(unique, std::move(copy));
  }
  std::set<std::string> node_names;
  for (const Node& outer : state->graph.nodes) node_names.insert(outer.name);
  auto unique_node = [&](const std::string& base) {
    std::string name = prefix + base;
    for (int n = 1; node_names.count(name); ++n) name = prefix + base + "_" + std::to_string(n);
    node_names.insert(name);
    return name;
  };
  std::vector<Node> inlined;
  for (const Node& inner : branch.nodes) {
    Node copy = inner;
    copy.name = unique_node(inner.name);
    for (std::string& name : copy.inputs) {
      if (!name.empty()) name = rename.at(name);
    }
    for (std::string& name : copy.outputs) {
      if (!name.empty()) name = rename.at(name);
    }
    inlined.push_back(std::move(copy));
  }
  for (size_t j = 0; j < branch.outputs.size(); ++j) {
    if (node.outputs[j].empty()) continue;
    auto source = rename.find(branch.outputs[j]);
    if (source == rename.end()) return InvalidModelError("branch output '" + branch.outputs[j] + "' is undefined");
    Node identity;
    identity.name = unique_node("output_" + std::to_string(j));
    identity.op_type = "Identity";
    identity.inputs = {source->second};
    identity.outputs = {node.outputs[j]};
    inlined.push_back(std::move(identity));
  }
  return inlined;
}

// One branch with its inputs typed as the outer tensors, resolved as a
// graph of its own (folding what it can).
StatusOr<Graph> ResolveBranch(const Node& node, const Graph& branch, const ImportState& state) {
  ImportState sub;
  sub.label = state.label;
  sub.model_dir = state.model_dir;
  sub.options = state.options;
  sub.options.input_shapes.clear();
  sub.graph = branch;
  for (size_t k = 0; k < branch.inputs.size(); ++k) {
    const Tensor* outer = state.graph.FindTensor(node.inputs[k + 1]);
    if (!outer) return InternalError("outer tensor '" + node.inputs[k + 1] + "' is undefined");
    Tensor& inner = sub.graph.tensors[branch.inputs[k]];
    inner.dtype = outer->dtype;
    inner.shape = outer->shape;
    // An outer constant (Slice bounds, Reshape shapes) stays one inside, so
    // the branch's shapes fold; it is still fed by position, with the same
    // value, when the branch runs.
    if (outer->is_constant) {
      inner.is_constant = true;
      inner.data = outer->data;
    }
    sub.resolved.insert(branch.inputs[k]);
  }
  for (const auto& [name, tensor] : sub.graph.tensors) {
    if (tensor.is_constant) sub.resolved.insert(name);
  }
  GLPOOL_RETURN_IF_ERROR(ResolveShapes(&sub));
  return std::move(sub.graph);
}

}  // namespace

StatusOr<IfResolution> ResolveIf(Node& node, ImportState* state) {
  IfResolution result;
  if (node.inputs.empty() || node.inputs[0].empty()) return InvalidModelError("has no condition");
  const Tensor* cond = state->graph.FindTensor(node.inputs[0]);
  if (!cond) return InternalError("condition '" + node.inputs[0] + "' is undefined");
  if (cond->is_constant) {
    if (cond->data.element_count() != 1) {
      return InvalidModelError("condition '" + cond->name + "' has " + std::to_string(cond->data.element_count()) +
                               " elements; If needs one");
    }
    const std::vector<float> value = cond->data.ToFloats();
    const std::string key = value[0] != 0.0f ? "then_branch" : "else_branch";
    GLPOOL_ASSIGN_OR_RETURN(const Graph* branch, Branch(node, key));
    GLPOOL_ASSIGN_OR_RETURN(result.nodes, InlineBranch(node, *branch, state));
    result.inlined = true;
    return result;
  }
  // The condition comes from data: the node stays (the CPU reference runs
  // it; on the GPU, the per-node fallback). The pool is planned before any
  // run, so both branches must give the same dtypes and shapes.
  std::map<std::string, std::shared_ptr<const Graph>> resolved;
  std::vector<const Tensor*> first;
  for (const std::string key : {"then_branch", "else_branch"}) {
    GLPOOL_ASSIGN_OR_RETURN(const Graph* branch, Branch(node, key));
    StatusOr<Graph> done = ResolveBranch(node, *branch, *state);
    if (!done.ok()) return done.status().WithContext(key);
    auto graph = std::make_shared<const Graph>(std::move(done).value());
    for (size_t j = 0; j < graph->outputs.size(); ++j) {
      const Tensor* out = graph->FindTensor(graph->outputs[j]);
      if (!out) return InternalError(key + " output '" + graph->outputs[j] + "' is undefined");
      if (first.size() <= j) {
        first.push_back(out);
        continue;
      }
      const std::string which = "output " + std::to_string(j) + " ('" + node.outputs[j] + "')";
      if (out->dtype != first[j]->dtype) {
        return InvalidModelError("then_branch gives " + std::string(DataTypeName(first[j]->dtype)) + " for " + which +
                                 ", else_branch " + DataTypeName(out->dtype));
      }
      if (out->shape != first[j]->shape) {
        return UnsupportedError("then_branch gives " + ShapeToString(first[j]->shape) + " for " + which +
                                ", else_branch " + ShapeToString(out->shape) +
                                ": with a condition computed from data both branches must give one shape (glpool "
                                "plans every tensor before it runs)");
      }
    }
    resolved[key] = std::move(graph);
  }
  for (size_t j = 0; j < node.outputs.size(); ++j) {
    if (node.outputs[j].empty()) continue;
    Tensor& tensor = state->graph.tensors[node.outputs[j]];
    tensor.dtype = first[j]->dtype;
    tensor.shape = first[j]->shape;
    state->resolved.insert(node.outputs[j]);
  }
  node.subgraphs = std::move(resolved);
  return result;
}

}  // namespace glpool
