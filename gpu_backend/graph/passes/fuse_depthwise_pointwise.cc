// FuseDepthwiseIntoPointwise (passes.h): a depthwise Conv whose output only
// a pointwise Conv reads becomes one DepthwisePointwiseConv
// (graph/depthwise_pointwise.h). MobileNets, MnasNet, ShuffleNet and
// PP-LCNet (PP-OCR) are made of such pairs; their depthwise outputs are the
// largest tensors those networks store.
#include <string>

#include "gpu_backend/graph/depthwise_pointwise.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool AllEqual(const std::vector<int64_t>& values, int64_t value) {
  for (int64_t v : values) {
    if (v != value) return false;
  }
  return true;
}

// A 4-D fp32 tensor, or null.
const Tensor* Float4D(const Graph& graph, const std::string& name) {
  const Tensor* t = graph.FindTensor(name);
  return t != nullptr && t->dtype == DataType::kFloat32 && t->shape.size() == 4 ? t : nullptr;
}

constexpr size_t kConvGateInput = 3, kConvResidualInput = 4;  // graph.h

// Whether `conv` is a 1x1, stride-1, unpadded, ungrouped Conv with constant
// weights and no channel gate (a residual comes along).
bool IsPointwise(const Graph& graph, const Node& conv) {
  if (!conv.domain.empty() || conv.op_type != "Conv" || conv.inputs.size() < 2 || conv.inputs.size() > 5 ||
      conv.outputs.size() != 1 || !HasConstantConvWeights(graph, conv)) {
    return false;
  }
  if (conv.inputs.size() > kConvGateInput && !conv.inputs[kConvGateInput].empty()) return false;
  const Tensor* x = Float4D(graph, conv.inputs[0]);
  const Tensor* y = Float4D(graph, conv.outputs[0]);
  const Tensor* w = graph.FindTensor(conv.inputs[1]);
  if (x == nullptr || y == nullptr || w->dtype != DataType::kFloat32 ||
      w->shape != Shape{y->shape[1], x->shape[1], 1, 1}) {
    return false;
  }
  const std::string auto_pad = conv.GetString("auto_pad", "NOTSET");
  return conv.GetInt("group", 1) == 1 && AllEqual(conv.GetInts("strides"), 1) && AllEqual(conv.GetInts("pads"), 0) &&
         (auto_pad == "NOTSET" || auto_pad.empty() || auto_pad == "VALID") && y->shape[2] == x->shape[2] &&
         y->shape[3] == x->shape[3];
}

// Whether `conv` is a 2-D depthwise Conv (one input channel per output
// channel, no multiplier) with constant weights, no gate or residual, and
// no fused output scale or shift (its fused activation comes along).
bool IsDepthwise(const Graph& graph, const Node& conv) {
  if (!conv.domain.empty() || conv.op_type != "Conv" || conv.inputs.size() < 2 || conv.inputs.size() > 3 ||
      conv.outputs.size() != 1 || !HasConstantConvWeights(graph, conv) ||
      conv.HasAttribute(kFusedOutputScaleAttr) || conv.HasAttribute(kFusedOutputShiftAttr)) {
    return false;
  }
  const Tensor* x = Float4D(graph, conv.inputs[0]);
  const Tensor* y = Float4D(graph, conv.outputs[0]);
  const Tensor* w = graph.FindTensor(conv.inputs[1]);
  if (x == nullptr || y == nullptr || w->dtype != DataType::kFloat32 || w->shape.size() != 4) return false;
  const int64_t channels = x->shape[1];
  return conv.GetInt("group", 1) == channels && y->shape[1] == channels && w->shape[0] == channels &&
         w->shape[1] == 1 && y->shape[0] == x->shape[0];
}

}  // namespace

StatusOr<int> FuseDepthwiseIntoPointwise(Graph& graph, const std::set<std::string>& keep) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& pointwise = graph.nodes[i];
    if (!IsPointwise(graph, pointwise)) continue;
    const std::string middle = pointwise.inputs[0];  // a copy: the node is replaced below
    auto it = producer.find(middle);
    if (it == producer.end() || keep.count(middle) != 0 ||
        OnlyReader(graph, readers, middle) != static_cast<long>(i) || !IsDepthwise(graph, graph.nodes[it->second])) {
      continue;
    }
    const size_t depthwise_index = it->second;
    const Node& depthwise = graph.nodes[depthwise_index];
    const Shape& dw_weights = graph.FindTensor(depthwise.inputs[1])->shape;
    const int64_t outputs = graph.FindTensor(pointwise.outputs[0])->shape[1];
    if (dw_weights[2] * dw_weights[3] * DepthwiseComputations(outputs) > kMaxFusedTapRecomputes) continue;
    Node merged;
    merged.name = pointwise.name;
    merged.op_type = kDepthwisePointwiseOp;
    merged.inputs = {depthwise.inputs[0], depthwise.inputs[1],
                     depthwise.inputs.size() > 2 ? depthwise.inputs[2] : std::string(), pointwise.inputs[1],
                     pointwise.inputs.size() > 2 ? pointwise.inputs[2] : std::string()};
    if (pointwise.inputs.size() > kConvResidualInput && !pointwise.inputs[kConvResidualInput].empty()) {
      merged.inputs.push_back(pointwise.inputs[kConvResidualInput]);
    }
    merged.outputs = pointwise.outputs;
    CopyDepthwiseAttributes(depthwise, merged);
    CopyFusedEpilogue(pointwise, merged);
    graph.nodes[i] = std::move(merged);
    graph.tensors.erase(middle);
    EraseNodes(graph, {depthwise_index});
    ++fused;
    --i;  // the depthwise Conv stood before: the merged node is now at i - 1
    readers = CountReaders(graph);
    producer = ProducerIndex(graph);
  }
  return fused;
}

}  // namespace glpool
