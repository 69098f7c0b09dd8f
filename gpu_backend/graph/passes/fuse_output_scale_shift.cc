// FuseOutputScaleShift (passes.h): a Mul or Add by a scalar constant after
// a node that takes fused activations becomes that node's output scale or
// shift (graph.h kFusedOutputScaleAttr, kFusedOutputShiftAttr).
#include "gpu_backend/graph/passes/fusion_util.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> FuseOutputScaleShift(Graph& graph) {
  return FoldIntoProducers(graph, [&graph](const Node& op, size_t side, Node& node) {
    if (!op.domain.empty() || (op.op_type != "Mul" && op.op_type != "Add") || op.inputs.size() != 2 ||
        op.outputs.size() != 1 || HasFusedEpilogue(op)) {
      return false;
    }
    float factor = 0;
    if (!ScalarFp32(graph, op.inputs[1 - side], &factor)) return false;
    if (!node.domain.empty() || !TakesFusedActivation(node.op_type)) return false;
    const Tensor* out = graph.FindTensor(op.inputs[side]);
    const Tensor* result = graph.FindTensor(op.outputs[0]);
    // A scalar constant cannot broadcast x to a larger shape; the dtypes
    // must be float (the attribute is applied in float).
    if (!out || !result || out->shape != result->shape || out->dtype != result->dtype ||
        (out->dtype != DataType::kFloat32 && out->dtype != DataType::kFloat16)) {
      return false;
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
    return true;
  });
}

}  // namespace glpool
