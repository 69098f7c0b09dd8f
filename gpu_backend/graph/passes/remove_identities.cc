#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

#include <vector>

namespace glpool {
namespace {

// Dropout at inference is the identity when nobody reads its mask.
bool IsIdentityLike(const Graph& graph, const Node& node, const std::map<std::string, int>& readers) {
  if (node.op_type == "Identity") return node.inputs.size() == 1 && node.outputs.size() == 1;
  if (node.op_type != "Dropout" || node.inputs.empty() || node.outputs.empty()) return false;
  if (node.outputs.size() > 1 && !node.outputs[1].empty()) {
    auto it = readers.find(node.outputs[1]);
    if (it != readers.end() && it->second > 0) return false;
  }
  // training_mode (opset 12+) must be absent or a constant false.
  if (node.inputs.size() > 2 && !node.inputs[2].empty()) {
    const Tensor* mode = graph.FindTensor(node.inputs[2]);
    if (!mode || !mode->is_constant || mode->data.ToInt64s() != std::vector<int64_t>{0}) return false;
  }
  return true;
}

// Every identity whose output is not a graph output, at once: readers of a
// removed output read what it copied, followed through chains of
// identities. A 10,000-node chain costs n log n here, not n^2.
int RemoveInnerIdentities(Graph& graph) {
  const std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, std::string> copies;  // removed output -> its input
  std::set<size_t> drop;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& node = graph.nodes[i];
    if (!IsIdentityLike(graph, node, readers) || node.inputs[0].empty() || IsGraphOutput(graph, node.outputs[0])) {
      continue;
    }
    copies[node.outputs[0]] = node.inputs[0];
    drop.insert(i);
  }
  // The graph is acyclic, so every chain ends; each link walked is pointed
  // at the chain's end (no recursion: chains may be any length), so the
  // whole walk is linear in the links.
  auto source = [&copies](const std::string& name) {
    std::vector<std::map<std::string, std::string>::iterator> path;
    std::string end = name;
    for (auto it = copies.find(end); it != copies.end(); it = copies.find(end)) {
      path.push_back(it);
      end = it->second;
    }
    for (auto& link : path) link->second = end;
    return end;
  };
  for (Node& node : graph.nodes) {
    for (std::string& in : node.inputs) {
      if (!in.empty()) in = source(in);
    }
  }
  for (size_t i : drop) {
    for (const std::string& name : graph.nodes[i].outputs) {
      if (!name.empty()) graph.tensors.erase(name);
    }
  }
  EraseNodes(graph, drop);
  return static_cast<int>(drop.size());
}

}  // namespace

StatusOr<int> RemoveIdentities(Graph& graph) {
  int removed = RemoveInnerIdentities(graph);
  // What is left writes graph outputs: few, each renamed on its own.
  std::map<std::string, int> readers = CountReaders(graph);  // rebuilt after each removal
  for (size_t i = 0; i < graph.nodes.size();) {
    const Node& node = graph.nodes[i];
    if (!IsIdentityLike(graph, node, readers) || node.inputs[0].empty()) {
      ++i;
      continue;
    }
    const std::string in = node.inputs[0];
    const std::string out = node.outputs[0];
    if (!IsGraphOutput(graph, out)) {
      RenameReaders(graph, out, in);
    } else {
      // The output name must survive: the input's producer takes it over.
      const std::map<std::string, size_t> producer = ProducerIndex(graph);
      auto it = producer.find(in);
      if (it == producer.end() || IsGraphOutput(graph, in)) {
        ++i;
        continue;
      }
      for (std::string& name : graph.nodes[it->second].outputs) {
        if (name == in) name = out;
      }
      RenameReaders(graph, in, out);
      graph.tensors[out].name = out;
      graph.tensors.erase(in);
    }
    for (const std::string& name : graph.nodes[i].outputs) {
      if (!name.empty() && name != out) graph.tensors.erase(name);
    }
    if (!IsGraphOutput(graph, out)) graph.tensors.erase(out);
    EraseNodes(graph, {i});
    ++removed;
    readers = CountReaders(graph);
  }
  return removed;
}

}  // namespace glpool
