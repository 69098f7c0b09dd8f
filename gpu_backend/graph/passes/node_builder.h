// Emits the nodes of one lowering (a node rewritten as ops the GPU already
// runs), naming new tensors and nodes after the node they replace.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_backend/graph/passes/graph_edit.h"

namespace glpool {

class NodeBuilder {
 public:
  // `node_names` holds every node name in the graph; new ones are added.
  NodeBuilder(Graph& graph, const std::string& base, std::set<std::string>& node_names)
      : graph_(graph), base_(base), node_names_(node_names) {}

  std::string NewTensor(const std::string& suffix, const Shape& shape, DataType dtype = DataType::kFloat32) {
    const std::string name = UniqueTensorName(graph_, base_ + "/" + suffix);
    graph_.tensors[name] = Tensor{name, dtype, shape, false, {}};
    return name;
  }

  std::string Constant(const std::string& suffix, TensorData data) {
    const std::string name = UniqueTensorName(graph_, base_ + "/" + suffix);
    AddConstantTensor(graph_, name, std::move(data));
    return name;
  }

  // The new node, valid until the next Add.
  Node& Add(const std::string& op, std::vector<std::string> inputs, const std::string& output) {
    Node node;
    node.op_type = op;
    node.name = base_ + "/" + op;
    for (int i = 1; node_names_.count(node.name); ++i) node.name = base_ + "/" + op + "_" + std::to_string(i);
    node_names_.insert(node.name);
    node.inputs = std::move(inputs);
    node.outputs = {output};
    nodes_.push_back(std::move(node));
    return nodes_.back();
  }

  std::vector<Node> TakeNodes() { return std::move(nodes_); }

 private:
  Graph& graph_;
  std::string base_;
  std::set<std::string>& node_names_;
  std::vector<Node> nodes_;
};

// The driver of a lowering pass: each node `applies` selects is handed to
// `lower` (with every node name in the graph, for new unique ones); a
// non-empty result replaces it in place, an empty one keeps it. Returns how
// many nodes were replaced.
template <typename Applies, typename Lower>
int LowerNodes(Graph& graph, Applies applies, Lower lower) {
  int lowered = 0;
  std::set<std::string> node_names;
  for (const Node& node : graph.nodes) node_names.insert(node.name);
  std::vector<Node> nodes;
  nodes.reserve(graph.nodes.size());
  for (Node& node : graph.nodes) {
    if (applies(node)) {
      std::vector<Node> replacement = lower(node, node_names);
      if (!replacement.empty()) {
        for (Node& r : replacement) nodes.push_back(std::move(r));
        ++lowered;
        continue;
      }
    }
    nodes.push_back(std::move(node));
  }
  graph.nodes = std::move(nodes);
  return lowered;
}

}  // namespace glpool
