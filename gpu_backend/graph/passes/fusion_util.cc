#include "gpu_backend/graph/passes/fusion_util.h"

#include <set>

namespace glpool {

bool TakesFusedActivation(const std::string& op_type) {
  static const std::set<std::string> kProducers = {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add",
                                                   "Sub",  "Mul",           "Div",  "BatchNormalization"};
  return kProducers.count(op_type) != 0;
}

bool AcceptsFusedActivation(const Node& node) {
  // An output scale or shift applies after the activation: one fused later
  // would run in the wrong order.
  return node.domain.empty() && TakesFusedActivation(node.op_type) && !node.HasAttribute(kFusedActivationAttr) &&
         !node.HasAttribute(kFusedOutputScaleAttr) && !node.HasAttribute(kFusedOutputShiftAttr) &&
         !node.outputs.empty() && !node.outputs[0].empty();
}

bool FuseIntoProducer(Graph& graph, size_t producer_index, const std::string& new_output,
                      const FusedActivation& activation) {
  Node& producer = graph.nodes[producer_index];
  for (size_t k = 1; k < producer.outputs.size(); ++k) {
    if (!producer.outputs[k].empty()) return false;
  }
  const Tensor* out = graph.FindTensor(producer.outputs[0]);
  if (!out || (out->dtype != DataType::kFloat32 && out->dtype != DataType::kFloat16)) return false;
  SetFusedActivation(producer, activation);
  graph.tensors.erase(producer.outputs[0]);
  producer.outputs[0] = new_output;
  return true;
}

}  // namespace glpool
