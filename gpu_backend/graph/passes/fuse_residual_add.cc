// FuseResidualAddIntoConv (passes.h): a residual connection, Add(conv(x),
// skip) with skip the shape of the Conv's output, becomes the Conv's fifth
// input, added to each output before its fused activation. ResNets,
// MobileNetV2/V3, EfficientNet, MnasNet and PP-LCNet end most blocks this
// way: one task fewer per block (on llvmpipe a task costs tens of
// microseconds before it computes anything) and one full-size tensor fewer.
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

constexpr size_t kResidualInput = 4;  // graph.h: X, W, B, gate, residual

// Whether `conv` is a Conv the conv kernel runs (constant weights, a
// 2-D window) that computes its output and nothing after it, with no
// residual yet.
bool IsPlainConv(const Graph& graph, const Node& conv) {
  if (!conv.domain.empty() || conv.op_type != "Conv" || conv.inputs.size() < 2 ||
      conv.inputs.size() > kResidualInput || conv.outputs.size() != 1 || HasFusedEpilogue(conv)) {
    return false;
  }
  const Tensor* x = graph.FindTensor(conv.inputs[0]);
  return x != nullptr && x->shape.size() == 4 && HasConstantConvWeights(graph, conv);
}

}  // namespace

StatusOr<int> FuseResidualAddIntoConv(Graph& graph) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& add = graph.nodes[i];
    if (!IsBinaryOfTwo(add, "Add")) continue;
    const Tensor* y = graph.FindTensor(add.outputs[0]);
    if (y == nullptr || y->dtype != DataType::kFloat32 || y->shape.size() != 4) continue;
    // Of the two inputs, the Conv output read by this Add alone; when both
    // are, the later one (the other is then computed before it either way).
    long conv_index = -1;
    size_t conv_side = 0;
    for (size_t side = 0; side < 2; ++side) {
      const Tensor* t = graph.FindTensor(add.inputs[side]);
      if (t == nullptr || t->shape != y->shape || t->dtype != DataType::kFloat32) {
        conv_index = -1;
        break;  // a broadcast or another dtype: no plain residual
      }
      auto it = producer.find(add.inputs[side]);
      if (it == producer.end() || OnlyReader(graph, readers, add.inputs[side]) != static_cast<long>(i) ||
          !IsPlainConv(graph, graph.nodes[it->second])) {
        continue;
      }
      if (static_cast<long>(it->second) > conv_index) {
        conv_index = static_cast<long>(it->second);
        conv_side = side;
      }
    }
    if (conv_index < 0) continue;
    // The Conv takes the Add's place: its inputs and the skip are all
    // computed by then.
    Node merged = graph.nodes[static_cast<size_t>(conv_index)];
    const std::string gone = merged.outputs[0];
    merged.inputs.resize(kResidualInput, "");  // B and the gate, or "" for each absent one
    merged.inputs.push_back(add.inputs[1 - conv_side]);
    merged.outputs = add.outputs;
    CopyFusedEpilogue(add, merged);
    graph.nodes[i] = std::move(merged);
    graph.tensors.erase(gone);
    EraseNodes(graph, {static_cast<size_t>(conv_index)});
    ++fused;
    --i;  // the Conv stood before the Add: the merged node is now at i - 1
    readers = CountReaders(graph);
    producer = ProducerIndex(graph);
  }
  return fused;
}

}  // namespace glpool
