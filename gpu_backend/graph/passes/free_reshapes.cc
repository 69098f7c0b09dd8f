#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> MarkFreeReshapes(Graph& graph) {
  int marked = 0;
  for (Node& node : graph.nodes) {
    const std::string& op = node.op_type;
    if (!node.domain.empty() || (op != "Reshape" && op != "Flatten" && op != "Squeeze" && op != "Unsqueeze")) continue;
    if (node.inputs.empty() || node.outputs.size() != 1 || node.HasAttribute(kAliasAttr)) continue;
    const Tensor* in = graph.FindTensor(node.inputs[0]);
    const Tensor* out = graph.FindTensor(node.outputs[0]);
    if (!in || !out || in->is_constant || in->dtype != out->dtype) continue;
    if (LayoutOf(in->shape) != LayoutOf(out->shape)) continue;
    node.attributes[kAliasAttr] = int64_t{1};
    ++marked;
  }
  return marked;
}

}  // namespace glpool
