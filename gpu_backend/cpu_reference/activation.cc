// Activation ops (one ONNX op each) and the fused-activation mapping.
#include "gpu_backend/cpu_reference/activation.h"

#include <algorithm>
#include <cmath>

#include "gpu_backend/cpu_reference/broadcast.h"
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/fused_activation.h"

namespace glpool {
namespace cpu_reference {

float Activation::operator()(float x) const {
  switch (kind) {
    case ActivationKind::kRelu: return x > 0.0f ? x : 0.0f;
    case ActivationKind::kClip: return x < a ? a : (x > b ? b : x);
    case ActivationKind::kSigmoid: return 1.0f / (1.0f + std::exp(-x));
    case ActivationKind::kTanh: return std::tanh(x);
    case ActivationKind::kHardSigmoid: return std::max(0.0f, std::min(1.0f, a * x + b));
    case ActivationKind::kHardSwish:
      return x * std::max(0.0f, std::min(1.0f, x / 6.0f + 0.5f));
    case ActivationKind::kLeakyRelu: return x >= 0.0f ? x : a * x;
    case ActivationKind::kElu: return x >= 0.0f ? x : a * (std::exp(x) - 1.0f);
    case ActivationKind::kSelu: return x > 0.0f ? b * x : b * (a * std::exp(x) - a);
    case ActivationKind::kCelu: return std::max(0.0f, x) + std::min(0.0f, a * (std::exp(x / a) - 1.0f));
    case ActivationKind::kSoftplus: return x > 20.0f ? x : std::log1p(std::exp(x));
    case ActivationKind::kSoftsign: return x / (1.0f + std::fabs(x));
    case ActivationKind::kThresholdedRelu: return x > a ? x : 0.0f;
    case ActivationKind::kSwish: return x * (1.0f / (1.0f + std::exp(-x)));
  }
  return x;
}

void ApplyActivation(const Activation& activation, std::vector<float>& values) {
  // Relu dominates real networks; give it a loop the compiler vectorizes.
  if (activation.kind == ActivationKind::kRelu) {
    for (float& v : values) v = v > 0.0f ? v : 0.0f;
    return;
  }
  for (float& v : values) v = activation(v);
}

Status ReadFusedActivation(const Node& node, bool* present, Activation* activation) {
  std::optional<FusedActivation> fused = GetFusedActivation(node);
  *present = fused.has_value();
  if (!fused) return Status::Ok();
  GLPOOL_RETURN_IF_ERROR(ValidateFusedActivation(*fused));
  const std::vector<float>& p = fused->params;
  const std::string& t = fused->type;
  if (t == "Relu") *activation = {ActivationKind::kRelu};
  else if (t == "Clip") *activation = {ActivationKind::kClip, p[0], p[1]};
  else if (t == "Sigmoid") *activation = {ActivationKind::kSigmoid};
  else if (t == "Tanh") *activation = {ActivationKind::kTanh};
  else if (t == "HardSigmoid") *activation = {ActivationKind::kHardSigmoid, p[0], p[1]};
  else if (t == "HardSwish") *activation = {ActivationKind::kHardSwish};
  else if (t == "LeakyRelu") *activation = {ActivationKind::kLeakyRelu, p[0]};
  else if (t == "Elu") *activation = {ActivationKind::kElu, p[0]};
  else if (t == "Swish") *activation = {ActivationKind::kSwish};
  else return UnsupportedError("fused activation '" + t + "' is not known to the CPU reference");
  return Status::Ok();
}

namespace {

Status Apply(const KernelContext& ctx, std::vector<Value>& outputs, Activation activation) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  outputs[0] = *x;
  ApplyActivation(activation, outputs[0].floats);
  return Status::Ok();
}

// A scalar Clip bound: an attribute before opset 11, an optional input after.
StatusOr<float> ClipBound(const KernelContext& ctx, size_t input, const char* attr, float fallback) {
  if (ctx.opset < 11) return ctx.node.GetFloat(attr, fallback);
  if (!ctx.has_input(input)) return fallback;
  GLPOOL_ASSIGN_OR_RETURN(const Value* v, ctx.Input(input));
  if (v->size() != 1) return InvalidModelError(ctx.InputLabel(input) + " must be a scalar");
  return v->is_floating() ? v->floats[0] : static_cast<float>(v->ints[0]);
}

}  // namespace

Status RunRelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kRelu});
}

Status RunClip(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  if (IsIntegerOrBool(x->dtype) && x->dtype != DataType::kBool && ctx.opset >= 11) {
    // Integer Clip (opset 12+ allows it): bounds default to the type's range.
    std::vector<int64_t> lo = {INT64_MIN}, hi = {INT64_MAX};
    if (ctx.has_input(1)) {
      GLPOOL_ASSIGN_OR_RETURN(lo, ctx.IntsInput(1));
    }
    if (ctx.has_input(2)) {
      GLPOOL_ASSIGN_OR_RETURN(hi, ctx.IntsInput(2));
    }
    if (lo.size() != 1 || hi.size() != 1) return InvalidModelError("Clip bounds must be scalars");
    outputs[0] = *x;
    for (int64_t& v : outputs[0].ints) v = std::min(std::max(v, lo[0]), hi[0]);
    return Status::Ok();
  }
  GLPOOL_ASSIGN_OR_RETURN(float lo, ClipBound(ctx, 1, "min", -INFINITY));
  GLPOOL_ASSIGN_OR_RETURN(float hi, ClipBound(ctx, 2, "max", INFINITY));
  return Apply(ctx, outputs, {ActivationKind::kClip, lo, hi});
}

Status RunSigmoid(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kSigmoid});
}

Status RunTanh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kTanh});
}

Status RunHardSigmoid(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs,
               {ActivationKind::kHardSigmoid, ctx.node.GetFloat("alpha", 0.2f),
                ctx.node.GetFloat("beta", 0.5f)});
}

Status RunHardSwish(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kHardSwish});
}

Status RunLeakyRelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kLeakyRelu, ctx.node.GetFloat("alpha", 0.01f)});
}

Status RunElu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kElu, ctx.node.GetFloat("alpha", 1.0f)});
}

Status RunSelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs,
               {ActivationKind::kSelu, ctx.node.GetFloat("alpha", 1.67326319217681884765625f),
                ctx.node.GetFloat("gamma", 1.05070102214813232421875f)});
}

Status RunCelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kCelu, ctx.node.GetFloat("alpha", 1.0f)});
}

Status RunSoftplus(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kSoftplus});
}

Status RunSoftsign(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kSoftsign});
}

Status RunThresholdedRelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Apply(ctx, outputs, {ActivationKind::kThresholdedRelu, ctx.node.GetFloat("alpha", 1.0f)});
}

Status RunPRelu(const KernelContext& ctx, std::vector<Value>& outputs) {
  // The slope broadcasts to X. Before opset 7 it was per-channel without
  // numpy rules; a rank-1 slope of C then aligns with axis 1.
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* slope, ctx.FloatInput(1));
  Shape slope_shape = slope->shape;
  if (ctx.opset < 7 && slope_shape.size() == 1 && x->shape.size() > 2 &&
      slope_shape[0] == x->shape[1]) {
    slope_shape.resize(x->shape.size() - 1, 1);
  }
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(x->shape, slope_shape));
  if (shape != x->shape) {
    return InvalidModelError("slope " + ShapeToString(slope->shape) + " does not broadcast to X " +
                             ShapeToString(x->shape));
  }
  const std::array<std::vector<int64_t>, 2> strides = {BroadcastStrides(x->shape, shape),
                                                       BroadcastStrides(slope_shape, shape)};
  Value out = *x;
  ForEachBroadcast<2>(shape, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
    const float v = x->floats[o[0]];
    out.floats[i] = v >= 0.0f ? v : v * slope->floats[o[1]];
  });
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
