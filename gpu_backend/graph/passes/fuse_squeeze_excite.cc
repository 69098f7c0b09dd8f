// FuseSqueezeExcite (passes.h): a squeeze-and-excitation block's gate,
// GlobalAveragePool -> 1x1 Conv (+ activation) -> 1x1 Conv (+ activation),
// becomes one SqueezeExcite node (graph.h): three tasks become one, whose
// work (a small plane's mean and two matrix-vector products) is less than
// what each task costs to start on llvmpipe. MobileNetV3, EfficientNet,
// RegNetY and PP-LCNet have one per block.
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// Whether `conv` is a dense 1x1 Conv with constant weights over a [N, C, 1,
// 1] input (what follows a global pool) that has no gate or residual and no
// fused output scale or shift.
bool IsVectorConv(const Graph& graph, const Node& conv) {
  if (!conv.domain.empty() || conv.op_type != "Conv" || conv.inputs.size() < 2 || conv.inputs.size() > 3 ||
      conv.outputs.size() != 1 || conv.GetInt("group", 1) != 1 || conv.HasAttribute(kFusedOutputScaleAttr) ||
      conv.HasAttribute(kFusedOutputShiftAttr)) {
    return false;
  }
  const Tensor* x = graph.FindTensor(conv.inputs[0]);
  const Tensor* w = graph.FindTensor(conv.inputs[1]);
  const Tensor* y = graph.FindTensor(conv.outputs[0]);
  if (x == nullptr || y == nullptr || !HasConstantConvWeights(graph, conv)) return false;
  const auto vector_shape = [](const Shape& s) { return s.size() == 4 && s[2] == 1 && s[3] == 1; };
  return x->dtype == DataType::kFloat32 && y->dtype == DataType::kFloat32 && vector_shape(x->shape) &&
         vector_shape(y->shape) && w->shape.size() == 4 && w->shape[2] == 1 && w->shape[3] == 1 &&
         w->shape[1] == x->shape[1] && w->shape[0] == y->shape[1] && y->shape[0] == x->shape[0];
}

std::string BiasOf(const Node& conv) { return conv.inputs.size() == 3 ? conv.inputs[2] : ""; }

}  // namespace

StatusOr<int> FuseSqueezeExcite(Graph& graph) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& pool = graph.nodes[i];
    if (!pool.domain.empty() || pool.op_type != "GlobalAveragePool" || pool.inputs.size() != 1 ||
        pool.outputs.size() != 1 || HasFusedEpilogue(pool)) {
      continue;
    }
    const Tensor* x = graph.FindTensor(pool.inputs[0]);
    if (x == nullptr || x->dtype != DataType::kFloat32 || x->shape.size() != 4 ||
        x->shape[2] * x->shape[3] > kSqueezeExciteMaxPlane) {
      continue;
    }
    const long first = OnlyReader(graph, readers, pool.outputs[0]);
    if (first < 0 || !IsVectorConv(graph, graph.nodes[static_cast<size_t>(first)])) continue;
    const Node& squeeze = graph.nodes[static_cast<size_t>(first)];
    const long second = OnlyReader(graph, readers, squeeze.outputs[0]);
    if (second < 0 || !IsVectorConv(graph, graph.nodes[static_cast<size_t>(second)])) continue;
    const Node& excite = graph.nodes[static_cast<size_t>(second)];
    const int64_t hidden = graph.FindTensor(squeeze.outputs[0])->shape[1];
    if ((x->shape[1] + 3) / 4 + (hidden + 3) / 4 > kSqueezeExciteMaxSharedSlices) continue;
    Node merged;
    merged.name = excite.name;
    merged.op_type = "SqueezeExcite";
    merged.inputs = {pool.inputs[0], squeeze.inputs[1], BiasOf(squeeze), excite.inputs[1], BiasOf(excite)};
    merged.outputs = excite.outputs;
    merged.attributes = excite.attributes;  // its fused activation (no scale or shift: IsVectorConv)
    for (const char* key : {"group", "kernel_shape", "strides", "pads", "dilations", "auto_pad"}) {
      merged.attributes.erase(key);
    }
    if (squeeze.HasAttribute(kFusedActivationAttr)) {
      merged.attributes[kHiddenActivationAttr] = squeeze.attributes.at(kFusedActivationAttr);
      merged.attributes[kHiddenActivationParamsAttr] =
          squeeze.HasAttribute(kFusedActivationParamsAttr) ? squeeze.attributes.at(kFusedActivationParamsAttr)
                                                           : AttributeValue(std::vector<float>{});
    }
    const std::string pooled = pool.outputs[0], between = squeeze.outputs[0];
    // The merged node takes the second Conv's place: every input it reads
    // (the pool's) is computed before the pool.
    graph.nodes[static_cast<size_t>(second)] = std::move(merged);
    EraseNodes(graph, {i, static_cast<size_t>(first)});
    graph.tensors.erase(pooled);
    graph.tensors.erase(between);
    ++fused;
    --i;  // the node now at i follows the removed pool
    readers = CountReaders(graph);
  }
  return fused;
}

}  // namespace glpool
