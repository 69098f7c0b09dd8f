// Unary elementwise math ops. Float32 only, except Neg/Abs/Sign which also
// run on integers and Not which runs on bool.
#include <cmath>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

template <typename FloatOp>
Status Unary(const KernelContext& ctx, std::vector<Value>& outputs, FloatOp op) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  outputs[0] = *x;
  for (float& v : outputs[0].floats) v = op(v);
  return Status::Ok();
}

template <typename FloatOp, typename IntOp>
Status UnaryWithInts(const KernelContext& ctx, std::vector<Value>& outputs, FloatOp float_op,
                     IntOp int_op) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  if (x->dtype != DataType::kBool && IsIntegerOrBool(x->dtype)) {
    outputs[0] = *x;
    for (int64_t& v : outputs[0].ints) v = WrapToType(x->dtype, int_op(v));
    return Status::Ok();
  }
  return Unary(ctx, outputs, float_op);
}

}  // namespace

Status RunNeg(const KernelContext& ctx, std::vector<Value>& outputs) {
  return UnaryWithInts(ctx, outputs, [](float v) { return -v; }, [](int64_t v) { return -v; });
}

Status RunAbs(const KernelContext& ctx, std::vector<Value>& outputs) {
  return UnaryWithInts(ctx, outputs, [](float v) { return std::fabs(v); },
                       [](int64_t v) { return v < 0 ? -v : v; });
}

Status RunSign(const KernelContext& ctx, std::vector<Value>& outputs) {
  return UnaryWithInts(
      ctx, outputs, [](float v) { return v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : 0.0f); },
      [](int64_t v) { return int64_t{v > 0 ? 1 : (v < 0 ? -1 : 0)}; });
}

Status RunReciprocal(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return 1.0f / v; });
}

Status RunSqrt(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::sqrt(v); });
}

Status RunExp(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::exp(v); });
}

Status RunLog(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::log(v); });
}

Status RunErf(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::erf(v); });
}

Status RunFloor(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::floor(v); });
}

Status RunCeil(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::ceil(v); });
}

Status RunRound(const KernelContext& ctx, std::vector<Value>& outputs) {
  // Halves round to even, as numpy.round and ONNX specify.
  return Unary(ctx, outputs, [](float v) { return std::nearbyint(v); });
}

Status RunSin(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::sin(v); });
}

Status RunCos(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::cos(v); });
}

Status RunTan(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::tan(v); });
}

Status RunAsin(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::asin(v); });
}

Status RunAcos(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::acos(v); });
}

Status RunAtan(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::atan(v); });
}

Status RunSinh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::sinh(v); });
}

Status RunCosh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::cosh(v); });
}

Status RunAsinh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::asinh(v); });
}

Status RunAcosh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::acosh(v); });
}

Status RunAtanh(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Unary(ctx, outputs, [](float v) { return std::atanh(v); });
}

Status RunNot(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  if (x->dtype != DataType::kBool) {
    return InvalidModelError(ctx.InputLabel(0) + " must be bool, is " + DataTypeName(x->dtype));
  }
  outputs[0] = *x;
  for (int64_t& v : outputs[0].ints) v = v ? 0 : 1;
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
