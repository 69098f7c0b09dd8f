// Quantized ONNX ops: QuantizeLinear, DequantizeLinear (per tensor or per
// axis), DynamicQuantizeLinear, MatMulInteger and QLinearMatMul.
// Integer products accumulate in int64 (exact); rounding is to nearest even
// (ONNX's rule), then saturation to the output type's range.
#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/quantized.h"

namespace glpool {
namespace cpu_reference {
namespace {

// Per-element index into a scale/zero-point of `count` entries along `axis`
// (count 1: per tensor).
struct AxisIndex {
  int64_t count = 1, inner = 1;
  int64_t operator()(int64_t i) const { return count == 1 ? 0 : (i / inner) % count; }
};

StatusOr<AxisIndex> IndexFor(const KernelContext& ctx, const Shape& shape, int64_t count) {
  AxisIndex index;
  if (count == 1) return index;
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 1), static_cast<int64_t>(shape.size())));
  if (shape[static_cast<size_t>(axis)] != count) {
    return InvalidModelError("per-axis scale has " + std::to_string(count) + " entries for axis " +
                             std::to_string(axis) + " of " + ShapeToString(shape));
  }
  index.count = count;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) index.inner *= shape[d];
  return index;
}

StatusOr<std::vector<int64_t>> ZeroPoints(const KernelContext& ctx, size_t input, size_t count, DataType* dtype) {
  if (!ctx.has_input(input)) {
    if (dtype) *dtype = DataType::kUint8;
    return std::vector<int64_t>(count, 0);
  }
  GLPOOL_ASSIGN_OR_RETURN(const Value* zp, ctx.Input(input));
  if (!IsQuantizedType(zp->dtype) && zp->dtype != DataType::kInt32) {
    return UnsupportedError(ctx.InputLabel(input) + " is " + DataTypeName(zp->dtype) + " (uint8 or int8 expected)");
  }
  if (dtype) *dtype = zp->dtype;
  if (zp->ints.size() != count) return InvalidModelError(ctx.InputLabel(input) + " does not match its scale");
  return zp->ints;
}

}  // namespace

Status RunQuantizeLinear(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> scale, ctx.FloatsInput(1));
  if (scale.empty()) return InvalidModelError("empty scale");
  DataType dtype = DataType::kUint8;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> zero, ZeroPoints(ctx, 2, scale.size(), &dtype));
  if (!IsQuantizedType(dtype)) return UnsupportedError("QuantizeLinear to " + std::string(DataTypeName(dtype)));
  GLPOOL_ASSIGN_OR_RETURN(AxisIndex at, IndexFor(ctx, x->shape, static_cast<int64_t>(scale.size())));
  std::vector<int64_t> y(x->floats.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t k = at(static_cast<int64_t>(i));
    // The quotient in float, as the spec's float arithmetic gives it: in
    // double, a quotient float rounds to exactly .5 can land on the other
    // side of it and round to the other integer.
    const float quotient = x->floats[i] / scale[k];
    y[i] = Saturate(dtype, std::nearbyint(static_cast<double>(quotient)) + static_cast<double>(zero[k]));
  }
  outputs[0] = MakeIntValue(dtype, x->shape, std::move(y));
  return Status::Ok();
}

Status RunDequantizeLinear(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  if (!IsQuantizedType(x->dtype) && x->dtype != DataType::kInt32) {
    return UnsupportedError("DequantizeLinear of " + std::string(DataTypeName(x->dtype)));
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> scale, ctx.FloatsInput(1));
  if (scale.empty()) return InvalidModelError("empty scale");
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> zero, ZeroPoints(ctx, 2, scale.size(), nullptr));
  GLPOOL_ASSIGN_OR_RETURN(AxisIndex at, IndexFor(ctx, x->shape, static_cast<int64_t>(scale.size())));
  std::vector<float> y(x->ints.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t k = at(static_cast<int64_t>(i));
    y[i] = static_cast<float>(x->ints[i] - zero[k]) * scale[k];
  }
  outputs[0] = MakeFloatValue(x->shape, std::move(y));
  return Status::Ok();
}

Status RunDynamicQuantizeLinear(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  // The range always includes 0, so 0 quantizes exactly.
  float lo = 0.0f, hi = 0.0f;
  for (float v : x->floats) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const float scale = (hi - lo) / 255.0f;
  const int64_t zero = scale == 0.0f ? 0 : Saturate(DataType::kUint8, std::nearbyint(-lo / scale));
  std::vector<int64_t> y(x->floats.size());
  for (size_t i = 0; i < y.size(); ++i) {
    y[i] = scale == 0.0f ? zero : Saturate(DataType::kUint8, std::nearbyint(x->floats[i] / scale) + zero);
  }
  outputs[0] = MakeIntValue(DataType::kUint8, x->shape, std::move(y));
  if (outputs.size() > 1) outputs[1] = MakeFloatValue({}, {scale});
  if (outputs.size() > 2) outputs[2] = MakeIntValue(DataType::kUint8, {}, {zero});
  return Status::Ok();
}

namespace {

// (A - a_zero)(B - b_zero) in int64: A is [..., M, K], B is [K, N] or has
// A's batch dims; a_zero is per tensor or per row (M), b_zero per tensor or
// per column (N).
StatusOr<Value> IntegerProduct(const KernelContext& ctx, size_t a_index, size_t a_zero_index, size_t b_index,
                               size_t b_zero_index) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.Input(a_index));
  GLPOOL_ASSIGN_OR_RETURN(const Value* b, ctx.Input(b_index));
  if (!IsQuantizedType(a->dtype) || !IsQuantizedType(b->dtype)) {
    return UnsupportedError("integer product of " + std::string(DataTypeName(a->dtype)) + " and " +
                            DataTypeName(b->dtype) + " (uint8 or int8 expected)");
  }
  if (a->shape.size() < 2 || b->shape.size() < 2) return UnsupportedError("integer product of rank-1 operands");
  const int64_t M = a->shape[a->shape.size() - 2], K = a->shape.back(), N = b->shape.back();
  if (b->shape[b->shape.size() - 2] != K) {
    return InvalidModelError(ShapeToString(a->shape) + " and " + ShapeToString(b->shape) + " do not multiply");
  }
  const int64_t batches = ElementCount(a->shape) / std::max<int64_t>(M * K, 1);
  const bool shared_b = b->shape.size() == 2;
  if (!shared_b && ElementCount(b->shape) != batches * K * N) {
    return UnsupportedError("integer product with broadcast batch dims " + ShapeToString(a->shape) + " x " +
                            ShapeToString(b->shape));
  }
  std::vector<int64_t> a_zero(1, 0), b_zero(1, 0);
  if (ctx.has_input(a_zero_index)) a_zero = ctx.inputs[a_zero_index]->ints;
  if (ctx.has_input(b_zero_index)) b_zero = ctx.inputs[b_zero_index]->ints;
  if ((a_zero.size() != 1 && static_cast<int64_t>(a_zero.size()) != M) ||
      (b_zero.size() != 1 && static_cast<int64_t>(b_zero.size()) != N)) {
    return InvalidModelError("zero points must be per tensor, per row of A or per column of B");
  }
  Shape shape(a->shape.begin(), a->shape.end() - 1);
  shape.push_back(N);
  std::vector<int64_t> y(static_cast<size_t>(batches * M * N), 0);
  for (int64_t batch = 0; batch < batches; ++batch) {
    const int64_t* ab = a->ints.data() + batch * M * K;
    const int64_t* bb = b->ints.data() + (shared_b ? 0 : batch * K * N);
    for (int64_t i = 0; i < M; ++i) {
      const int64_t az = a_zero[a_zero.size() == 1 ? 0 : static_cast<size_t>(i)];
      for (int64_t k = 0; k < K; ++k) {
        const int64_t av = ab[i * K + k] - az;
        for (int64_t j = 0; j < N; ++j) {
          y[static_cast<size_t>((batch * M + i) * N + j)] +=
              av * (bb[k * N + j] - b_zero[b_zero.size() == 1 ? 0 : static_cast<size_t>(j)]);
        }
      }
    }
  }
  return MakeIntValue(DataType::kInt32, shape, std::move(y));
}

}  // namespace

Status RunMatMulInteger(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(Value y, IntegerProduct(ctx, 0, 2, 1, 3));
  for (int64_t v : y.ints) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return InvalidModelError("MatMulInteger result " + std::to_string(v) + " overflows int32");
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

// Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
Status RunQLinearMatMul(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(Value product, IntegerProduct(ctx, 0, 2, 3, 5));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> a_scale, ctx.FloatsInput(1));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> b_scale, ctx.FloatsInput(4));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> y_scale, ctx.FloatsInput(6));
  GLPOOL_ASSIGN_OR_RETURN(const Value* y_zero, ctx.Input(7));
  const int64_t N = product.shape.back();
  if (a_scale.size() != 1 || y_scale.size() != 1 || y_zero->ints.size() != 1 ||
      (b_scale.size() != 1 && static_cast<int64_t>(b_scale.size()) != N) || !IsQuantizedType(y_zero->dtype)) {
    return UnsupportedError("QLinearMatMul needs per-tensor a and y scales and a uint8/int8 y zero point");
  }
  std::vector<int64_t> y(product.ints.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const float bs = b_scale[b_scale.size() == 1 ? 0 : i % static_cast<size_t>(N)];
    const double real = static_cast<double>(product.ints[i]) * a_scale[0] * bs / y_scale[0];
    y[i] = Saturate(y_zero->dtype, std::nearbyint(real) + static_cast<double>(y_zero->ints[0]));
  }
  outputs[0] = MakeIntValue(y_zero->dtype, product.shape, std::move(y));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
