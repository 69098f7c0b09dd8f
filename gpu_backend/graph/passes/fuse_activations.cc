#include <limits>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// A Clip bound: attribute before opset 11, optional constant input after.
bool ClipBound(const Graph& graph, const Node& node, size_t index, const char* attr, float fallback, float* value) {
  if (graph.opset < 11) {
    *value = node.GetFloat(attr, fallback);
    return true;
  }
  if (index >= node.inputs.size() || node.inputs[index].empty()) {
    *value = fallback;
    return true;
  }
  const Tensor* bound = graph.FindTensor(node.inputs[index]);
  if (!bound || !bound->is_constant || bound->data.element_count() != 1) return false;
  *value = bound->data.ToFloats()[0];
  return true;
}

// The activation `node` computes, if it is one the attribute can carry.
std::optional<FusedActivation> ActivationOf(const Graph& graph, const Node& node) {
  const std::string& op = node.op_type;
  if (!node.domain.empty() || node.outputs.size() != 1 || node.inputs.empty()) return std::nullopt;
  if (op == "Relu" || op == "Sigmoid" || op == "Tanh" || op == "HardSwish") return FusedActivation{op, {}};
  if (op == "LeakyRelu") return FusedActivation{op, {node.GetFloat("alpha", 0.01f)}};
  if (op == "Elu") return FusedActivation{op, {node.GetFloat("alpha", 1.0f)}};
  if (op == "HardSigmoid") return FusedActivation{op, {node.GetFloat("alpha", 0.2f), node.GetFloat("beta", 0.5f)}};
  if (op == "Clip") {
    float lo = 0, hi = 0;
    if (!ClipBound(graph, node, 1, "min", std::numeric_limits<float>::lowest(), &lo) ||
        !ClipBound(graph, node, 2, "max", std::numeric_limits<float>::max(), &hi)) {
      return std::nullopt;
    }
    return FusedActivation{op, {lo, hi}};
  }
  return std::nullopt;
}

}  // namespace

StatusOr<int> FuseActivations(Graph& graph) {
  int fused = 0;
  // Rebuilt only after a rewrite: cheap on graphs with many activations.
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& node = graph.nodes[i];
    std::optional<FusedActivation> activation = ActivationOf(graph, node);
    if (!activation) continue;
    const std::string& x = node.inputs[0];
    auto it = producer.find(x);
    if (it == producer.end() || readers.at(x) != 1 || IsGraphOutput(graph, x)) continue;
    if (!AcceptsFusedActivation(graph.nodes[it->second])) continue;
    if (!FuseIntoProducer(graph, it->second, node.outputs[0], *activation)) continue;
    EraseNodes(graph, {i});
    --i;
    ++fused;
    readers = CountReaders(graph);
    producer = ProducerIndex(graph);
  }
  return fused;
}

}  // namespace glpool
