#include <cmath>

#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> FuseHardSwishPattern(Graph& graph) {
  int fused = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& mul = graph.nodes[i];
    if (mul.op_type != "Mul" || mul.inputs.size() != 2 || mul.outputs.size() != 1) continue;
    // One Mul input is HardSigmoid(the other).
    for (int side = 0; side < 2; ++side) {
      const std::string& gate = mul.inputs[static_cast<size_t>(side)];
      const std::string& x = mul.inputs[static_cast<size_t>(1 - side)];
      auto gate_it = producer.find(gate);
      auto x_it = producer.find(x);
      if (gate_it == producer.end() || x_it == producer.end()) continue;
      const Node& hs = graph.nodes[gate_it->second];
      if (hs.op_type != "HardSigmoid" || hs.inputs.size() != 1 || hs.inputs[0] != x) continue;
      if (std::fabs(hs.GetFloat("alpha", 0.2f) - 1.0f / 6.0f) > 1e-6f ||
          std::fabs(hs.GetFloat("beta", 0.5f) - 0.5f) > 1e-6f) {
        continue;
      }
      if (readers.at(gate) != 1 || readers.at(x) != 2 || IsGraphOutput(graph, x) || IsGraphOutput(graph, gate)) {
        continue;
      }
      if (!AcceptsFusedActivation(graph.nodes[x_it->second])) continue;
      const size_t hs_index = gate_it->second;
      if (!FuseIntoProducer(graph, x_it->second, mul.outputs[0], FusedActivation{"HardSwish", {}})) continue;
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

}  // namespace glpool
