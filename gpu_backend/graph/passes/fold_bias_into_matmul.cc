// FoldBiasIntoMatMul (passes.h): the bias Add after a MatMul, as every
// exported linear layer without Gemm writes it (transformers, PP-OCRv4
// rec's head), becomes the MatMul's third input, added as it stores.
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {

StatusOr<int> FoldBiasIntoMatMul(Graph& graph) {
  return FoldIntoProducers(graph, [&](const Node& add, size_t input, Node& matmul) {
    if (!add.domain.empty() || add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1 ||
        HasFusedEpilogue(add)) {
      return false;
    }
    if (!matmul.domain.empty() || matmul.op_type != "MatMul" || matmul.inputs.size() != 2 ||
        HasFusedEpilogue(matmul)) {
      return false;
    }
    const Tensor* y = graph.FindTensor(matmul.outputs[0]);
    const Tensor* sum = graph.FindTensor(add.outputs[0]);
    const Tensor* bias = ConstantFp32(graph, add.inputs[1 - input]);
    if (y == nullptr || sum == nullptr || bias == nullptr || y->shape.empty() || sum->shape != y->shape ||
        y->dtype != DataType::kFloat32 || bias->shape.size() > y->shape.size()) {
      return false;
    }
    // One value per Y's last dim: [N], [1, N], [1, 1, N]...
    for (size_t d = 0; d + 1 < bias->shape.size(); ++d) {
      if (bias->shape[d] != 1) return false;
    }
    if (bias->shape.empty() || bias->shape.back() != y->shape.back()) return false;
    matmul.inputs.push_back(bias->name);
    return true;
  });
}

}  // namespace glpool
