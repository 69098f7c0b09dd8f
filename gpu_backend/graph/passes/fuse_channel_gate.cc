// FuseChannelGateIntoConv (passes.h): a squeeze-and-excitation gate,
// x * gate with gate [1 or N, C, 1, 1], read by a Conv alone, is applied by
// the Conv as it loads x (MobileNetV3, EfficientNet, RegNetY and PP-LCNet
// end every such block this way): one task and one full-size tensor fewer.
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// Whether `gate` is an fp32 channel gate for x of shape `x` (graph.h).
bool IsChannelGate(const Tensor* gate, const Shape& x) {
  return gate != nullptr && gate->dtype == DataType::kFloat32 && IsChannelGateShape(gate->shape, x);
}

}  // namespace

StatusOr<int> FuseChannelGateIntoConv(Graph& graph) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& conv = graph.nodes[i];
    if (!conv.domain.empty() || conv.op_type != "Conv" || conv.inputs.size() < 2 || conv.inputs.size() > 3) continue;
    // The Conv kernel with packed constant weights and a 2-D window.
    const Tensor* x = graph.FindTensor(conv.inputs[0]);
    if (!HasConstantConvWeights(graph, conv) || x == nullptr || x->shape.size() != 4) continue;
    auto it = producer.find(conv.inputs[0]);
    if (it == producer.end() || readers.at(conv.inputs[0]) != 1 || IsGraphOutput(graph, conv.inputs[0])) continue;
    const Node& mul = graph.nodes[it->second];
    if (!mul.domain.empty() || mul.op_type != "Mul" || mul.inputs.size() != 2 || mul.outputs.size() != 1 ||
        HasFusedEpilogue(mul)) {
      continue;
    }
    std::string full, gate;
    for (int side = 0; side < 2 && gate.empty(); ++side) {
      const Tensor* a = graph.FindTensor(mul.inputs[static_cast<size_t>(side)]);
      const Tensor* g = graph.FindTensor(mul.inputs[static_cast<size_t>(1 - side)]);
      if (a != nullptr && a->shape == x->shape && a->dtype == DataType::kFloat32 && IsChannelGate(g, x->shape)) {
        full = a->name;
        gate = g->name;
      }
    }
    if (gate.empty() || full == gate) continue;
    Node& target = graph.nodes[i];
    const std::string gone = target.inputs[0];
    target.inputs[0] = full;
    target.inputs.resize(3);  // B, or "" when it has none
    target.inputs.push_back(gate);
    graph.tensors.erase(gone);
    EraseNodes(graph, {it->second});
    ++fused;
    --i;  // the Mul stood before the Conv, which is now at i - 1: go on after it
    readers = CountReaders(graph);
    producer = ProducerIndex(graph);
  }
  return fused;
}

}  // namespace glpool
