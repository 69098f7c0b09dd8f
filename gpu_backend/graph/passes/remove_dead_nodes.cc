#include <set>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> RemoveDeadNodes(Graph& graph) {
  std::set<std::string> needed(graph.outputs.begin(), graph.outputs.end());
  std::set<size_t> dead;
  for (size_t i = graph.nodes.size(); i-- > 0;) {
    const Node& node = graph.nodes[i];
    bool live = false;
    for (const std::string& out : node.outputs) live = live || (!out.empty() && needed.count(out));
    if (!live) {
      dead.insert(i);
      continue;
    }
    for (const std::string& in : node.inputs) {
      if (!in.empty()) needed.insert(in);
    }
  }
  EraseNodes(graph, dead);
  std::set<std::string> referenced(graph.inputs.begin(), graph.inputs.end());
  referenced.insert(graph.outputs.begin(), graph.outputs.end());
  for (const Node& node : graph.nodes) {
    referenced.insert(node.inputs.begin(), node.inputs.end());
    referenced.insert(node.outputs.begin(), node.outputs.end());
  }
  for (auto it = graph.tensors.begin(); it != graph.tensors.end();) {
    it = referenced.count(it->first) ? std::next(it) : graph.tensors.erase(it);
  }
  return static_cast<int>(dead.size());
}

}  // namespace glpool
