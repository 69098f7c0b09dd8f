// FoldReshapesIntoTransposes (passes.h): a copying reshape next to a
// Transpose becomes a relabelling of the Transpose's input or output shape.
#include <set>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// A reshape that needs a copy of its own: MarkFreeReshapes left it alone
// (the layout changes) and it moves a computed, not a constant, tensor.
bool IsCopyingReshape(const Graph& graph, const Node& node) {
  const std::string& op = node.op_type;
  if (!node.domain.empty() || (op != "Reshape" && op != "Flatten" && op != "Squeeze" && op != "Unsqueeze")) {
    return false;
  }
  if (node.inputs.empty() || node.outputs.size() != 1 || node.HasAttribute(kAliasAttr)) return false;
  const Tensor* in = graph.FindTensor(node.inputs[0]);
  const Tensor* out = graph.FindTensor(node.outputs[0]);
  return in && out && !in->is_constant && in->dtype == out->dtype &&
         ElementCount(in->shape) == ElementCount(out->shape);
}

}  // namespace

StatusOr<int> FoldReshapesIntoTransposes(Graph& graph) {
  const std::map<std::string, int> readers = CountReaders(graph);
  const std::map<std::string, size_t> producer = ProducerIndex(graph);
  // The single node reading each tensor read once.
  std::map<std::string, size_t> only_reader;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    for (const std::string& in : graph.nodes[n].inputs) {
      auto it = readers.find(in);
      if (!in.empty() && it != readers.end() && it->second == 1) only_reader[in] = n;
    }
  }
  std::set<size_t> drop;
  int folded = 0;
  for (size_t t = 0; t < graph.nodes.size(); ++t) {
    Node& transpose = graph.nodes[t];
    if (!transpose.domain.empty() || transpose.op_type != "Transpose" || transpose.inputs.size() != 1 ||
        transpose.outputs.size() != 1 || transpose.HasAttribute(kReadInputAsAttr) ||
        transpose.HasAttribute(kWriteOutputAsAttr)) {
      continue;
    }
    // Before: x -> reshape -> y -> Transpose, y read by the Transpose only.
    const std::string y = transpose.inputs[0];
    auto from = producer.find(y);
    if (from != producer.end() && !drop.count(from->second) && readers.at(y) == 1 && !IsGraphOutput(graph, y) &&
        IsCopyingReshape(graph, graph.nodes[from->second])) {
      const Node& reshape = graph.nodes[from->second];
      transpose.attributes[kReadInputAsAttr] = graph.FindTensor(y)->shape;
      transpose.inputs[0] = reshape.inputs[0];
      drop.insert(from->second);
      ++folded;
    }
    // After: Transpose -> z -> reshape -> w, z read by the reshape only.
    const std::string z = transpose.outputs[0];
    auto to = only_reader.find(z);
    if (to != only_reader.end() && !IsGraphOutput(graph, z) && IsCopyingReshape(graph, graph.nodes[to->second]) &&
        graph.nodes[to->second].inputs[0] == z) {
      const Node& reshape = graph.nodes[to->second];
      const std::string w = reshape.outputs[0];
      transpose.attributes[kWriteOutputAsAttr] = graph.FindTensor(w)->shape;
      transpose.outputs[0] = w;
      drop.insert(to->second);
      ++folded;
    }
  }
  EraseNodes(graph, drop);
  return folded;
}

}  // namespace glpool
