#include <cmath>

#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

namespace {

// x * gate(x), where `is_gate` accepts the gate node: the Mul and the gate
// go and x's producer gets `activation`.
template <typename IsGate>
int FuseSelfGated(Graph& graph, IsGate is_gate, const FusedActivation& activation) {
  int fused = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& mul = graph.nodes[i];
    if (mul.op_type != "Mul" || mul.inputs.size() != 2 || mul.outputs.size() != 1) continue;
    // One Mul input is the gate of the other.
    for (int side = 0; side < 2; ++side) {
      const std::string& gate = mul.inputs[static_cast<size_t>(side)];
      const std::string& x = mul.inputs[static_cast<size_t>(1 - side)];
      auto gate_it = producer.find(gate);
      auto x_it = producer.find(x);
      if (gate_it == producer.end() || x_it == producer.end()) continue;
      const Node& g = graph.nodes[gate_it->second];
      if (!g.domain.empty() || g.inputs.size() != 1 || g.inputs[0] != x || g.outputs.size() != 1 || !is_gate(g)) {
        continue;
      }
      if (readers.at(gate) != 1 || readers.at(x) != 2 || IsGraphOutput(graph, x) || IsGraphOutput(graph, gate)) {
        continue;
      }
      if (!AcceptsFusedActivation(graph.nodes[x_it->second])) continue;
      const size_t hs_index = gate_it->second;
      if (!FuseIntoProducer(graph, x_it->second, mul.outputs[0], activation)) continue;
      graph.tensors.erase(gate);
      EraseNodes(graph, {hs_index, i});
      i = hs_index < i ? hs_index : i;
      --i;
      ++fused;
      producer = ProducerIndex(graph);
      readers = CountReaders(graph);
      break;
    }
  }
  return fused;
}

}  // namespace

StatusOr<int> FuseHardSwishPattern(Graph& graph) {
  return FuseSelfGated(
      graph,
      [](const Node& g) {
        return g.op_type == "HardSigmoid" && std::fabs(g.GetFloat("alpha", 0.2f) - 1.0f / 6.0f) <= 1e-6f &&
               std::fabs(g.GetFloat("beta", 0.5f) - 0.5f) <= 1e-6f;
      },
      FusedActivation{"HardSwish", {}});
}

StatusOr<int> FuseSwishPattern(Graph& graph) {
  return FuseSelfGated(graph, [](const Node& g) { return g.op_type == "Sigmoid"; }, FusedActivation{"Swish", {}});
}

}  // namespace glpool
