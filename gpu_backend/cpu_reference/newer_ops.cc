// Ops ONNX opsets 18-20 added that exporters emit: Mish (18), Gelu (20),
// GroupNormalization (18: scale and bias per group; 21: per channel).
// Statistics accumulate in double (stash_type 1, float32 or wider).
#include <cmath>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {

Status RunGelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const std::string approximate = ctx.node.GetString("approximate", "none");
  if (approximate != "none" && approximate != "tanh") {
    return InvalidModelError("Gelu approximate must be 'none' or 'tanh', is '" + approximate + "'");
  }
  Value y = *x;
  for (float& v : y.floats) {
    const double d = v;
    if (approximate == "tanh") {
      const double k = 0.79788456080286535588;  // sqrt(2 / pi)
      v = static_cast<float>(0.5 * d * (1.0 + std::tanh(k * (d + 0.044715 * d * d * d))));
    } else {
      v = static_cast<float>(0.5 * d * (1.0 + std::erf(d / std::sqrt(2.0))));
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

Status RunMish(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  Value y = *x;
  for (float& v : y.floats) {
    const double d = v;
    const double softplus = d > 20.0 ? d : std::log1p(std::exp(d));
    v = static_cast<float>(d * std::tanh(softplus));
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

Status RunGroupNormalization(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* scale, ctx.FloatInput(1));
  GLPOOL_ASSIGN_OR_RETURN(const Value* bias, ctx.FloatInput(2));
  if (x->shape.size() < 2) return InvalidModelError("X must be N x C x ..., is " + ShapeToString(x->shape));
  const int64_t batch = x->shape[0], channels = x->shape[1];
  const int64_t groups = ctx.node.GetInt("num_groups", 0);
  if (groups <= 0 || channels % groups != 0) {
    return InvalidModelError("num_groups " + std::to_string(groups) + " does not divide " +
                             std::to_string(channels) + " channels");
  }
  // Opset 18 scales per group, 21 per channel.
  const int64_t params = ctx.opset >= 21 ? channels : groups;
  if (scale->size() != params || bias->size() != params) {
    return InvalidModelError("scale " + ShapeToString(scale->shape) + " and bias " + ShapeToString(bias->shape) +
                             " must hold " + std::to_string(params) + " values (opset " +
                             std::to_string(ctx.opset) + ")");
  }
  const int64_t group_channels = channels / groups;
  const int64_t plane = batch * channels != 0 ? x->size() / (batch * channels) : 0;
  const int64_t count = group_channels * plane;
  const double epsilon = ctx.node.GetFloat("epsilon", 1e-5f);
  Value y = *x;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      float* p = y.floats.data() + (n * channels + g * group_channels) * plane;
      double sum = 0.0;
      for (int64_t i = 0; i < count; ++i) sum += p[i];
      const double mean = count ? sum / static_cast<double>(count) : 0.0;
      double squares = 0.0;
      for (int64_t i = 0; i < count; ++i) squares += (p[i] - mean) * (p[i] - mean);
      const double inv_std = 1.0 / std::sqrt((count ? squares / static_cast<double>(count) : 0.0) + epsilon);
      for (int64_t i = 0; i < count; ++i) {
        const int64_t k = ctx.opset >= 21 ? g * group_channels + i / plane : g;
        p[i] = static_cast<float>((p[i] - mean) * inv_std * scale->floats[k] + bias->floats[k]);
      }
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
