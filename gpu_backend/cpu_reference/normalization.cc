// BatchNormalization (inference and training mode), InstanceNormalization
// and LayerNormalization. Statistics accumulate in double.
#include <cmath>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

StatusOr<const Value*> PerChannel(const KernelContext& ctx, size_t index, int64_t channels) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* v, ctx.FloatInput(index));
  if (v->size() != channels) {
    return InvalidModelError(ctx.InputLabel(index) + " " + ShapeToString(v->shape) + " must hold " +
                             std::to_string(channels) + " values, one per channel");
  }
  return v;
}

// Mean and population variance of `count` consecutive values.
void MeanVariance(const float* v, int64_t count, double* mean, double* variance) {
  double sum = 0.0, sum_sq = 0.0;
  for (int64_t i = 0; i < count; ++i) sum += v[i];
  *mean = count ? sum / static_cast<double>(count) : 0.0;
  for (int64_t i = 0; i < count; ++i) sum_sq += (v[i] - *mean) * (v[i] - *mean);
  *variance = count ? sum_sq / static_cast<double>(count) : 0.0;
}

}  // namespace

Status RunBatchNormalization(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() < 2) return InvalidModelError("X " + ShapeToString(x->shape) + " has no channel dim");
  if (ctx.opset < 9 && ctx.node.GetInt("spatial", 1) == 0) {
    return UnsupportedError("non-spatial BatchNormalization (spatial=0) is not supported");
  }
  const int64_t batch = x->shape[0], channels = x->shape[1];
  const int64_t plane = batch * channels != 0 ? x->size() / (batch * channels) : 0;
  GLPOOL_ASSIGN_OR_RETURN(const Value* scale, PerChannel(ctx, 1, channels));
  GLPOOL_ASSIGN_OR_RETURN(const Value* bias, PerChannel(ctx, 2, channels));
  GLPOOL_ASSIGN_OR_RETURN(const Value* mean, PerChannel(ctx, 3, channels));
  GLPOOL_ASSIGN_OR_RETURN(const Value* var, PerChannel(ctx, 4, channels));
  const double epsilon = ctx.node.GetFloat("epsilon", 1e-5f);
  // training_mode (opset 14+) normalizes with the batch's own statistics and
  // also returns updated running statistics.
  const bool training = ctx.opset >= 14 && ctx.node.GetInt("training_mode", 0) != 0;
  const double momentum = ctx.node.GetFloat("momentum", 0.9f);
  std::vector<double> use_mean(channels), use_var(channels);
  for (int64_t c = 0; c < channels; ++c) {
    use_mean[c] = mean->floats[c];
    use_var[c] = var->floats[c];
    if (!training) continue;
    double sum = 0.0, sum_sq = 0.0;
    for (int64_t n = 0; n < batch; ++n) {
      const float* p = x->floats.data() + (n * channels + c) * plane;
      for (int64_t i = 0; i < plane; ++i) sum += p[i];
    }
    const double count = static_cast<double>(batch * plane);
    use_mean[c] = sum / count;
    for (int64_t n = 0; n < batch; ++n) {
      const float* p = x->floats.data() + (n * channels + c) * plane;
      for (int64_t i = 0; i < plane; ++i) sum_sq += (p[i] - use_mean[c]) * (p[i] - use_mean[c]);
    }
    use_var[c] = sum_sq / count;
  }
  Value y = *x;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const double k = scale->floats[c] / std::sqrt(use_var[c] + epsilon);
      const double shift = bias->floats[c] - use_mean[c] * k;
      float* p = y.floats.data() + (n * channels + c) * plane;
      for (int64_t i = 0; i < plane; ++i) p[i] = static_cast<float>(p[i] * k + shift);
    }
  }
  outputs[0] = std::move(y);
  if (training) {
    std::vector<float> running_mean(channels), running_var(channels);
    for (int64_t c = 0; c < channels; ++c) {
      running_mean[c] = static_cast<float>(mean->floats[c] * momentum + use_mean[c] * (1 - momentum));
      running_var[c] = static_cast<float>(var->floats[c] * momentum + use_var[c] * (1 - momentum));
    }
    if (outputs.size() > 1) outputs[1] = MakeFloatValue(mean->shape, running_mean);
    if (outputs.size() > 2) outputs[2] = MakeFloatValue(var->shape, running_var);
  } else if (outputs.size() > 1 && ctx.opset < 14) {
    return UnsupportedError("BatchNormalization training outputs before opset 14 are not supported");
  }
  return Status::Ok();
}

Status RunInstanceNormalization(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() < 3) {
    return InvalidModelError("input must be N x C x spatial..., is " + ShapeToString(x->shape));
  }
  const int64_t batch = x->shape[0], channels = x->shape[1];
  const int64_t plane = batch * channels != 0 ? x->size() / (batch * channels) : 0;
  GLPOOL_ASSIGN_OR_RETURN(const Value* scale, PerChannel(ctx, 1, channels));
  GLPOOL_ASSIGN_OR_RETURN(const Value* bias, PerChannel(ctx, 2, channels));
  const double epsilon = ctx.node.GetFloat("epsilon", 1e-5f);
  Value y = *x;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      float* p = y.floats.data() + (n * channels + c) * plane;
      double mean, variance;
      MeanVariance(p, plane, &mean, &variance);
      const double k = scale->floats[c] / std::sqrt(variance + epsilon);
      for (int64_t i = 0; i < plane; ++i) p[i] = static_cast<float>((p[i] - mean) * k + bias->floats[c]);
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

Status RunLayerNormalization(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* scale, ctx.FloatInput(1));
  const Value* bias = nullptr;
  if (ctx.has_input(2)) {
    GLPOOL_ASSIGN_OR_RETURN(bias, ctx.FloatInput(2));
  }
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  int64_t axis = ctx.node.GetInt("axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return InvalidModelError("axis is out of range for rank " + std::to_string(rank));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= x->shape[d];
  // Scale and B broadcast over the normalized dims: their element count
  // either matches them or is 1.
  if ((scale->size() != inner && scale->size() != 1) ||
      (bias && bias->size() != inner && bias->size() != 1)) {
    return InvalidModelError("Scale " + ShapeToString(scale->shape) +
                             " or B must match the normalized dims of X " + ShapeToString(x->shape));
  }
  const double epsilon = ctx.node.GetFloat("epsilon", 1e-5f);
  Value y = *x;
  Shape stat_shape = x->shape;
  for (int64_t d = axis; d < rank; ++d) stat_shape[d] = 1;
  std::vector<float> means(outer), inv_std(outer);
  for (int64_t o = 0; o < outer; ++o) {
    float* p = y.floats.data() + o * inner;
    double mean, variance;
    MeanVariance(p, inner, &mean, &variance);
    const double inv = 1.0 / std::sqrt(variance + epsilon);
    means[o] = static_cast<float>(mean);
    inv_std[o] = static_cast<float>(inv);
    for (int64_t i = 0; i < inner; ++i) {
      const float s = scale->floats[scale->size() == 1 ? 0 : i];
      const float b = bias ? bias->floats[bias->size() == 1 ? 0 : i] : 0.0f;
      p[i] = static_cast<float>((p[i] - mean) * inv * s + b);
    }
  }
  outputs[0] = std::move(y);
  if (outputs.size() > 1) outputs[1] = MakeFloatValue(stat_shape, means);
  if (outputs.size() > 2) outputs[2] = MakeFloatValue(stat_shape, inv_std);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
