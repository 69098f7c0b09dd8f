// FuseGatedSkip (passes.h): x + x * gate, gate a channel gate of x, is
// x * (gate + 1): the gate's producer adds the 1 (its fused output shift)
// and the Add becomes that Mul, so x is read once and the full-size product
// is never written (PP-OCRv4 det's RSE blocks end this way). The Mul that
// is left may then fuse into a Conv that reads it (FuseChannelGateIntoConv).
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool IsFloat32(const Tensor* t) { return t != nullptr && t->dtype == DataType::kFloat32; }

// The plain product x * gate (either order) that `mul` computes, gate a
// channel gate of x: its gate's name, else "".
std::string GateOf(const Graph& graph, const Node& mul, const std::string& x) {
  if (!IsBinaryOfTwo(mul, "Mul") || HasFusedEpilogue(mul)) return "";
  const std::string gate = OtherInput(mul, x);
  const Tensor* g = graph.FindTensor(gate);
  const Tensor* full = graph.FindTensor(x);
  if (gate.empty() || !IsFloat32(g) || !IsFloat32(full) ||
      !IsChannelGateShape(g->shape, full->shape)) {
    return "";
  }
  return gate;
}

}  // namespace

StatusOr<int> FuseGatedSkip(Graph& graph) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& add = graph.nodes[i];
    if (!IsBinaryOfTwo(add, "Add")) continue;
    const Tensor* y = graph.FindTensor(add.outputs[0]);
    for (size_t side = 0; side < 2; ++side) {
      // Copies: the Add's inputs are rewritten below.
      const std::string x = add.inputs[side];
      const std::string product = add.inputs[1 - side];
      const Tensor* full = graph.FindTensor(x);
      auto mul_at = producer.find(product);
      // The product is read by this Add alone and x keeps its shape (no
      // broadcast of x by the Add).
      if (!IsFloat32(y) || full == nullptr || full->shape != y->shape || mul_at == producer.end() ||
          OnlyReader(graph, readers, product) != static_cast<long>(i)) {
        continue;
      }
      const std::string gate = GateOf(graph, graph.nodes[mul_at->second], x);
      if (gate.empty()) continue;
      // The gate's producer adds the 1: it must take a fused output shift
      // and its output must be read by the Mul alone.
      auto gate_at = producer.find(gate);
      if (gate_at == producer.end() || OnlyReader(graph, readers, gate) != static_cast<long>(mul_at->second)) {
        continue;
      }
      Node& gate_node = graph.nodes[gate_at->second];
      if (!gate_node.domain.empty() || !TakesFusedActivation(gate_node.op_type) || gate_node.outputs.size() != 1) {
        continue;
      }
      gate_node.attributes[kFusedOutputShiftAttr] = gate_node.GetFloat(kFusedOutputShiftAttr, 0.0f) + 1.0f;
      // The Add becomes x * (gate + 1), keeping its output and its fused
      // activation, scale and shift.
      Node& target = graph.nodes[i];
      target.op_type = "Mul";
      target.inputs = {x, gate};
      graph.tensors.erase(product);
      EraseNodes(graph, {mul_at->second});
      ++fused;
      --i;  // the Mul stood before the Add, which is now at i - 1
      readers = CountReaders(graph);
      producer = ProducerIndex(graph);
      break;
    }
  }
  return fused;
}

}  // namespace glpool
