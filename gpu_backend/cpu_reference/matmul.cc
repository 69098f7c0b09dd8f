// Gemm and MatMul. Products accumulate in (i, k, j) order so the inner loop
// walks rows of B and Y contiguously.
#include "gpu_backend/cpu_reference/broadcast.h"
#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

// y[M x N] += a[M x K] * b[K x N], all row-major.
void MultiplyAccumulate(const float* a, const float* b, float* y, int64_t M, int64_t K,
                        int64_t N) {
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t k = 0; k < K; ++k) {
      const float av = a[i * K + k];
      const float* b_row = b + k * N;
      float* y_row = y + i * N;
      for (int64_t j = 0; j < N; ++j) y_row[j] += av * b_row[j];
    }
  }
}

std::vector<float> Transposed(const Value& m) {
  const int64_t rows = m.shape[0], cols = m.shape[1];
  std::vector<float> t(m.floats.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = m.floats[r * cols + c];
  return t;
}

}  // namespace

Status RunGemm(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* b, ctx.FloatInput(1));
  const Value* c = nullptr;
  if (ctx.has_input(2)) {
    GLPOOL_ASSIGN_OR_RETURN(c, ctx.FloatInput(2));
  }
  if (a->shape.size() != 2 || b->shape.size() != 2) {
    return InvalidModelError("A " + ShapeToString(a->shape) + " and B " +
                             ShapeToString(b->shape) + " must be matrices");
  }
  const bool trans_a = ctx.node.GetInt("transA", 0) != 0;
  const bool trans_b = ctx.node.GetInt("transB", 0) != 0;
  const float alpha = ctx.node.GetFloat("alpha", 1.0f), beta = ctx.node.GetFloat("beta", 1.0f);
  const int64_t M = trans_a ? a->shape[1] : a->shape[0];
  const int64_t K = trans_a ? a->shape[0] : a->shape[1];
  const int64_t KB = trans_b ? b->shape[1] : b->shape[0];
  const int64_t N = trans_b ? b->shape[0] : b->shape[1];
  if (K != KB) {
    return InvalidModelError("A " + ShapeToString(a->shape) + " and B " + ShapeToString(b->shape) +
                             " do not multiply (transA " + std::to_string(trans_a) + ", transB " +
                             std::to_string(trans_b) + ")");
  }
  const std::vector<float> a_rows = trans_a ? Transposed(*a) : a->floats;
  const std::vector<float> b_rows = trans_b ? Transposed(*b) : b->floats;
  Value y = MakeFloatValue({M, N}, std::vector<float>(M * N, 0.0f));
  MultiplyAccumulate(a_rows.data(), b_rows.data(), y.floats.data(), M, K, N);
  for (float& v : y.floats) v *= alpha;
  if (c) {
    GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(c->shape, y.shape));
    if (shape != y.shape) {
      return InvalidModelError("C " + ShapeToString(c->shape) + " does not broadcast to " +
                               ShapeToString(y.shape));
    }
    const std::array<std::vector<int64_t>, 1> strides = {BroadcastStrides(c->shape, y.shape)};
    ForEachBroadcast<1>(y.shape, strides, [&](int64_t i, const std::array<int64_t, 1>& o) {
      y.floats[i] += beta * c->floats[o[0]];
    });
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

Status RunMatMul(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* b, ctx.FloatInput(1));
  if (a->shape.empty() || b->shape.empty()) return InvalidModelError("MatMul inputs must not be scalars");
  // numpy.matmul: a 1-D operand gains a unit dim that the result drops.
  Shape sa = a->shape, sb = b->shape;
  if (sa.size() == 1) sa.insert(sa.begin(), 1);
  if (sb.size() == 1) sb.push_back(1);
  const int64_t M = sa[sa.size() - 2], K = sa.back(), N = sb.back();
  if (sb[sb.size() - 2] != K) {
    return InvalidModelError("A " + ShapeToString(a->shape) + " and B " +
                             ShapeToString(b->shape) + " do not multiply");
  }
  const Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  GLPOOL_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(batch_a, batch_b));
  Shape out_shape = batch;
  out_shape.push_back(M);
  out_shape.push_back(N);
  Value y = MakeFloatValue(out_shape, std::vector<float>(ElementCount(out_shape), 0.0f));
  const std::array<std::vector<int64_t>, 2> strides = {BroadcastStrides(batch_a, batch),
                                                       BroadcastStrides(batch_b, batch)};
  ForEachBroadcast<2>(batch, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
    MultiplyAccumulate(a->floats.data() + o[0] * M * K, b->floats.data() + o[1] * K * N,
                       y.floats.data() + i * M * N, M, K, N);
  });
  if (a->shape.size() == 1) out_shape.erase(out_shape.end() - 2);
  if (b->shape.size() == 1) out_shape.pop_back();
  y.shape = out_shape;
  // The folded bias (graph.h): one value per column of Y's last dim.
  if (ctx.node.inputs.size() > 2 && !ctx.node.inputs[2].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* bias, ctx.FloatInput(2));
    const int64_t columns = out_shape.empty() ? 1 : out_shape.back();
    if (ElementCount(bias->shape) != columns) {
      return InvalidModelError("MatMul bias " + ShapeToString(bias->shape) + " does not have one value per column of " +
                               ShapeToString(out_shape));
    }
    for (size_t i = 0; i < y.floats.size(); ++i) y.floats[i] += bias->floats[i % static_cast<size_t>(columns)];
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
