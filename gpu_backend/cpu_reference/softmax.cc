// Softmax, LogSoftmax and Hardmax. Before opset 13 they flatten the input to
// 2-D at `axis` (default 1) and normalize each row of the flattened matrix;
// from opset 13 they normalize along the single dim `axis` (default -1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

enum class Normalizer { kSoftmax, kLogSoftmax, kHardmax };

Status Normalize(const KernelContext& ctx, std::vector<Value>& outputs, Normalizer kind) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  const bool per_axis = ctx.opset >= 13;
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis,
                          NormalizeAxis(ctx.node.GetInt("axis", per_axis ? -1 : 1), std::max<int64_t>(rank, 1)));
  int64_t outer = 1, length = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < axis) outer *= x->shape[d];
    else if (d == axis || !per_axis) length *= x->shape[d];
    else inner *= x->shape[d];
  }
  Value y = *x;
  const float* in = x->floats.data();
  float* out = y.floats.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * length * inner + i;
      auto at = [&](int64_t k) { return base + k * inner; };
      float max_value = -std::numeric_limits<float>::infinity();
      int64_t arg_max = 0;
      for (int64_t k = 0; k < length; ++k) {
        if (in[at(k)] > max_value) {
          max_value = in[at(k)];
          arg_max = k;
        }
      }
      if (kind == Normalizer::kHardmax) {
        for (int64_t k = 0; k < length; ++k) out[at(k)] = k == arg_max ? 1.0f : 0.0f;
        continue;
      }
      double sum = 0.0;
      for (int64_t k = 0; k < length; ++k) sum += std::exp(static_cast<double>(in[at(k)] - max_value));
      if (kind == Normalizer::kSoftmax) {
        for (int64_t k = 0; k < length; ++k) {
          out[at(k)] = static_cast<float>(std::exp(static_cast<double>(in[at(k)] - max_value)) / sum);
        }
      } else {
        const double log_sum = std::log(sum);
        for (int64_t k = 0; k < length; ++k) {
          out[at(k)] = static_cast<float>(static_cast<double>(in[at(k)] - max_value) - log_sum);
        }
      }
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

}  // namespace

Status RunSoftmax(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Normalize(ctx, outputs, Normalizer::kSoftmax);
}

Status RunLogSoftmax(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Normalize(ctx, outputs, Normalizer::kLogSoftmax);
}

Status RunHardmax(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Normalize(ctx, outputs, Normalizer::kHardmax);
}

}  // namespace cpu_reference
}  // namespace glpool
