// FuseOutputScaleShift (passes.h): a Mul or Add by a scalar constant after
// a node that takes fused activations becomes that node's output scale or
// shift (graph.h kFusedOutputScaleAttr, kFusedOutputShiftAttr).
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> FuseOutputScaleShift(Graph& graph) {
  int fused = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& op = graph.nodes[i];
    if (!op.domain.empty() || (op.op_type != "Mul" && op.op_type != "Add") || op.inputs.size() != 2 ||
        op.outputs.size() != 1 || op.HasAttribute(kFusedActivationAttr) ||
        op.HasAttribute(kFusedOutputScaleAttr) || op.HasAttribute(kFusedOutputShiftAttr)) {
      continue;
    }
    for (size_t side = 0; side < 2; ++side) {
      const std::string& x = op.inputs[side];
      float factor = 0;
      if (!ScalarFp32(graph, op.inputs[1 - side], &factor)) continue;
      auto it = producer.find(x);
      if (it == producer.end() || readers.at(x) != 1 || IsGraphOutput(graph, x)) continue;
      Node& node = graph.nodes[it->second];
      if (!node.domain.empty() || !TakesFusedActivation(node.op_type) || node.outputs.size() != 1) continue;
      const Tensor* out = graph.FindTensor(x);
      const Tensor* result = graph.FindTensor(op.outputs[0]);
      // A scalar constant cannot broadcast x to a larger shape; the dtypes
      // must be float (the attribute is applied in float).
      if (!out || !result || out->shape != result->shape || out->dtype != result->dtype ||
          (out->dtype != DataType::kFloat32 && out->dtype != DataType::kFloat16)) {
        continue;
      }
      float scale = node.GetFloat(kFusedOutputScaleAttr, 1.0f);
      float shift = node.GetFloat(kFusedOutputShiftAttr, 0.0f);
      if (op.op_type == "Mul") {
        scale *= factor;
        shift *= factor;
      } else {
        shift += factor;
      }
      node.attributes[kFusedOutputScaleAttr] = scale;
      node.attributes[kFusedOutputShiftAttr] = shift;
      graph.tensors.erase(x);
      node.outputs[0] = op.outputs[0];
      EraseNodes(graph, {i});
      --i;
      ++fused;
      readers = CountReaders(graph);
      producer = ProducerIndex(graph);
      break;
    }
  }
  return fused;
}

}  // namespace glpool
