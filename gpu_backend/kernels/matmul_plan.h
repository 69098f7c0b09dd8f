// The matrix product plan shared by MatMul and Gemm (shaders/matmul.comp).
#pragma once

#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {

// Y = alpha * op(A) @ op(B) + bias, op = transpose for Gemm's transA/transB.
struct MatMulSpec {
  const Tensor* a = nullptr;
  const Tensor* b = nullptr;
  const Tensor* y = nullptr;
  bool trans_a = false, trans_b = false;  // rank-2 operands only
  float alpha = 1.0f;
  // bias_mode 0: none; 1: one value per output channel (Y's last dim when
  // Y has rank 1 or 2), padded to whole slices; 2: a full [rows][slices * 4]
  // matrix (rank-2 Y); 3: one value per output column along W (Y's last
  // dim at rank 3 and 4), each repeated in a vec4.
  int bias_mode = 0;
  std::vector<float> bias;
};

// Fails Unsupported (with the reason) where PHWC4 cannot express the
// product: any tensor of rank 5 or more (batch dims folded into H).
StatusOr<KernelPlan> BuildMatMulPlan(const Node& node, const MatMulSpec& spec, const KernelLimits& limits);

}  // namespace glpool
