#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

#include <algorithm>
#include <vector>

namespace glpool {
namespace {

bool IsIdentityLike(const Graph& graph, const Node& node, const std::map<std::string, int>& readers);

// Whether `name` is a constant whose every element is `value`.
bool ConstantOf(const Graph& graph, const std::string& name, double value) {
  const Tensor* t = graph.FindTensor(name);
  if (t == nullptr || !t->is_constant || t->dtype == DataType::kString || ElementCount(t->shape) < 1) return false;
  const std::vector<float> values = t->data.ToFloats();
  return std::all_of(values.begin(), values.end(), [value](float v) { return v == value; });
}

// x * 1, 1 * x, x / 1 and x - 0 with a constant 1 or 0 that neither
// broadcasts x to a larger shape nor changes its type: exactly x (PP-OCRv4
// writes x * Sigmoid(x * 1)). Add is left out: -0 + 0 is +0. Returns x's
// name, or "".
std::string NeutralArithmeticInput(const Graph& graph, const Node& node) {
  if (!node.domain.empty() || node.inputs.size() != 2 || node.outputs.size() != 1 || HasFusedEpilogue(node)) {
    return "";
  }
  const bool commutes = node.op_type == "Mul";
  const double neutral = node.op_type == "Sub" ? 0.0 : 1.0;
  if (node.op_type != "Mul" && node.op_type != "Div" && node.op_type != "Sub") return "";
  for (size_t side = 0; side < (commutes ? 2u : 1u); ++side) {
    const std::string& x = node.inputs[side];
    const Tensor* in = graph.FindTensor(x);
    const Tensor* out = graph.FindTensor(node.outputs[0]);
    if (in != nullptr && out != nullptr && !x.empty() && in->shape == out->shape && in->dtype == out->dtype &&
        ConstantOf(graph, node.inputs[1 - side], neutral)) {
      return x;
    }
  }
  return "";
}

// What an identity-like node copies: an Identity's input, an inference
// Dropout's (when nobody reads its mask), neutral arithmetic's x; "" for
// any other node.
std::string IdentitySource(const Graph& graph, const Node& node, const std::map<std::string, int>& readers) {
  const std::string neutral = NeutralArithmeticInput(graph, node);
  if (!neutral.empty()) return neutral;
  if (!IsIdentityLike(graph, node, readers) || node.inputs.empty()) return "";
  return node.inputs[0];
}

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
    const std::string source = IdentitySource(graph, node, readers);
    if (source.empty() || IsGraphOutput(graph, node.outputs[0])) continue;
    copies[node.outputs[0]] = source;
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
    const std::string in = IdentitySource(graph, node, readers);
    if (in.empty()) {
      ++i;
      continue;
    }
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
