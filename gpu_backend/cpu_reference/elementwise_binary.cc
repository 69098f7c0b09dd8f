// Broadcasting binary and variadic elementwise ops: arithmetic, comparison,
// logic and Where. Float32 computes in float; integer dtypes compute in
// int64 and wrap to their dtype, as numpy does.
#include <cmath>

#include "gpu_backend/cpu_reference/broadcast.h"
#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

Status CheckSameDtype(const KernelContext& ctx, const Value& a, const Value& b, size_t index) {
  if (a.dtype != b.dtype) {
    return InvalidModelError(ctx.InputLabel(index) + " is " + DataTypeName(b.dtype) +
                             " but input 0 is " + DataTypeName(a.dtype));
  }
  return Status::Ok();
}

Status CheckComputable(const KernelContext& ctx, const Value& v, size_t index) {
  if (v.dtype == DataType::kFloat32 || IsIntegerOrBool(v.dtype)) return Status::Ok();
  return UnsupportedError(ctx.InputLabel(index) + " is " + DataTypeName(v.dtype) + "; " +
                          ctx.node.op_type + " runs on float32 and integer types only");
}

// Before opset 7, B broadcast only with the "broadcast" attribute set, and
// then aligned at "axis" (default: its trailing dims). Returns the shape B
// takes in numpy terms, or an error when the old rules forbid the pair.
StatusOr<Shape> LegacyOperandShape(const KernelContext& ctx, const Shape& a, const Shape& b) {
  if (ctx.opset >= 7 || a == b) return b;
  if (ctx.node.GetInt("broadcast", 0) == 0) {
    return InvalidModelError("shapes " + ShapeToString(a) + " and " + ShapeToString(b) +
                             " differ and the opset-" + std::to_string(ctx.opset) +
                             " 'broadcast' attribute is not set");
  }
  if (!ctx.node.HasAttribute("axis")) return b;
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 0),
                                                      static_cast<int64_t>(a.size())));
  if (axis + b.size() > a.size()) {
    return InvalidModelError("B " + ShapeToString(b) + " does not fit A " + ShapeToString(a) +
                             " at axis " + std::to_string(axis));
  }
  Shape aligned = b;
  aligned.resize(a.size() - axis, 1);
  return aligned;
}

// The broadcast shape of a and b, honouring the legacy rules; may replace
// b's shape view with its legacy alignment.
StatusOr<Shape> OperandShapes(const KernelContext& ctx, const Shape& a, Shape* b) {
  GLPOOL_ASSIGN_OR_RETURN(*b, LegacyOperandShape(ctx, a, *b));
  return BroadcastShapes(a, *b);
}

// out = op(a, b) with broadcasting. FloatOp: (float, float) -> float;
// IntOp: (int64, int64) -> StatusOr-free int64 (errors are checked before).
template <typename FloatOp, typename IntOp>
Value Combine(const Value& a, const Value& b, const Shape& b_shape, const Shape& shape,
              DataType out_dtype, FloatOp float_op, IntOp int_op) {
  const std::array<std::vector<int64_t>, 2> strides = {BroadcastStrides(a.shape, shape),
                                                       BroadcastStrides(b_shape, shape)};
  Value out;
  out.dtype = out_dtype;
  out.shape = shape;
  const int64_t count = ElementCount(shape);
  if (a.is_floating()) {
    const float* pa = a.floats.data();
    const float* pb = b.floats.data();
    if (IsFloatingType(out_dtype)) {
      out.floats.resize(count);
      float* po = out.floats.data();
      if (a.shape == shape && b_shape == shape) {
        for (int64_t i = 0; i < count; ++i) po[i] = float_op(pa[i], pb[i]);
      } else {
        ForEachBroadcast<2>(shape, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
          po[i] = float_op(pa[o[0]], pb[o[1]]);
        });
      }
    } else {
      out.ints.resize(count);
      ForEachBroadcast<2>(shape, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
        out.ints[i] = static_cast<int64_t>(float_op(pa[o[0]], pb[o[1]]));
      });
    }
  } else {
    out.ints.resize(count);
    ForEachBroadcast<2>(shape, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
      out.ints[i] = WrapToType(out_dtype, int_op(a.ints[o[0]], b.ints[o[1]]));
    });
  }
  return out;
}

// Arithmetic on same-dtype inputs whose result has that dtype; folds left
// over any number of inputs (Max/Min/Sum take one or more).
template <typename FloatOp, typename IntOp>
Status Arithmetic(const KernelContext& ctx, std::vector<Value>& outputs, FloatOp float_op,
                  IntOp int_op, bool int_division = false) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* first, ctx.Input(0));
  GLPOOL_RETURN_IF_ERROR(CheckComputable(ctx, *first, 0));
  Value acc = *first;
  for (size_t k = 1; k < ctx.input_count(); ++k) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* next, ctx.Input(k));
    GLPOOL_RETURN_IF_ERROR(CheckSameDtype(ctx, *first, *next, k));
    if (int_division && !next->is_floating()) {
      for (int64_t v : next->ints) {
        if (v == 0) return InvalidArgumentError("integer division by zero in " + ctx.InputLabel(k));
      }
    }
    Shape next_shape = next->shape;
    GLPOOL_ASSIGN_OR_RETURN(Shape shape, OperandShapes(ctx, acc.shape, &next_shape));
    acc = Combine(acc, *next, next_shape, shape, first->dtype, float_op, int_op);
  }
  outputs[0] = std::move(acc);
  return Status::Ok();
}

template <typename FloatCmp, typename IntCmp>
Status Comparison(const KernelContext& ctx, std::vector<Value>& outputs, FloatCmp float_cmp,
                  IntCmp int_cmp) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* b, ctx.Input(1));
  GLPOOL_RETURN_IF_ERROR(CheckComputable(ctx, *a, 0));
  GLPOOL_RETURN_IF_ERROR(CheckSameDtype(ctx, *a, *b, 1));
  Shape b_shape = b->shape;
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, OperandShapes(ctx, a->shape, &b_shape));
  outputs[0] = Combine(
      *a, *b, b_shape, shape, DataType::kBool,
      [&](float x, float y) { return float_cmp(x, y) ? 1.0f : 0.0f; },
      [&](int64_t x, int64_t y) { return int_cmp(x, y) ? int64_t{1} : int64_t{0}; });
  return Status::Ok();
}

template <typename Logic>
Status Logical(const KernelContext& ctx, std::vector<Value>& outputs, Logic logic) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* b, ctx.Input(1));
  if (a->dtype != DataType::kBool || b->dtype != DataType::kBool) {
    return InvalidModelError(ctx.node.op_type + " needs bool inputs, has " +
                             DataTypeName(a->dtype) + " and " + DataTypeName(b->dtype));
  }
  Shape b_shape = b->shape;
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, OperandShapes(ctx, a->shape, &b_shape));
  outputs[0] = Combine(
      *a, *b, b_shape, shape, DataType::kBool, [](float, float) { return 0.0f; },
      [&](int64_t x, int64_t y) { return logic(x != 0, y != 0) ? int64_t{1} : int64_t{0}; });
  return Status::Ok();
}

}  // namespace

Status RunAdd(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Arithmetic(ctx, outputs, [](float a, float b) { return a + b; },
                    [](int64_t a, int64_t b) { return a + b; });
}

Status RunSub(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Arithmetic(ctx, outputs, [](float a, float b) { return a - b; },
                    [](int64_t a, int64_t b) { return a - b; });
}

Status RunMul(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Arithmetic(ctx, outputs, [](float a, float b) { return a * b; },
                    [](int64_t a, int64_t b) { return a * b; });
}

Status RunDiv(const KernelContext& ctx, std::vector<Value>& outputs) {
  // Integer division truncates toward zero (C and ONNX Runtime semantics).
  return Arithmetic(ctx, outputs, [](float a, float b) { return a / b; },
                    [](int64_t a, int64_t b) { return a / b; }, /*int_division=*/true);
}

Status RunMod(const KernelContext& ctx, std::vector<Value>& outputs) {
  // fmod=1: the remainder takes the dividend's sign (C's fmod); fmod=0
  // (integers only, as ONNX requires): the divisor's sign, as in Python.
  const bool c_fmod = ctx.node.GetInt("fmod", 0) != 0;
  GLPOOL_ASSIGN_OR_RETURN(const Value* a, ctx.Input(0));
  if (a->is_floating() && !c_fmod) return InvalidModelError("Mod of floats needs fmod=1");
  return Arithmetic(
      ctx, outputs, [](float x, float y) { return std::fmod(x, y); },
      [c_fmod](int64_t x, int64_t y) {
        const int64_t r = x % y;
        return (!c_fmod && r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
      },
      /*int_division=*/true);
}

Status RunMax(const KernelContext& ctx, std::vector<Value>& outputs) {
  // NaN propagates, as in numpy.maximum.
  return Arithmetic(
      ctx, outputs, [](float a, float b) { return std::isnan(a) || a > b ? a : b; },
      [](int64_t a, int64_t b) { return a > b ? a : b; });
}

Status RunMin(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Arithmetic(
      ctx, outputs, [](float a, float b) { return std::isnan(a) || a < b ? a : b; },
      [](int64_t a, int64_t b) { return a < b ? a : b; });
}

Status RunSum(const KernelContext& ctx, std::vector<Value>& outputs) { return RunAdd(ctx, outputs); }

Status RunMean(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_RETURN_IF_ERROR(ctx.FloatInput(0).status());
  GLPOOL_RETURN_IF_ERROR(RunAdd(ctx, outputs));
  const float count = static_cast<float>(ctx.input_count());
  for (float& v : outputs[0].floats) v /= count;
  return Status::Ok();
}

Status RunPow(const KernelContext& ctx, std::vector<Value>& outputs) {
  // The base decides the output dtype; the exponent may have another type.
  GLPOOL_ASSIGN_OR_RETURN(const Value* base, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* exponent, ctx.Input(1));
  GLPOOL_RETURN_IF_ERROR(CheckComputable(ctx, *base, 0));
  GLPOOL_RETURN_IF_ERROR(CheckComputable(ctx, *exponent, 1));
  Shape exponent_shape = exponent->shape;
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, OperandShapes(ctx, base->shape, &exponent_shape));
  const std::array<std::vector<int64_t>, 2> strides = {BroadcastStrides(base->shape, shape),
                                                       BroadcastStrides(exponent_shape, shape)};
  auto read = [](const Value& v, int64_t i) {
    return v.is_floating() ? static_cast<double>(v.floats[i]) : static_cast<double>(v.ints[i]);
  };
  Value out;
  out.dtype = base->dtype;
  out.shape = shape;
  const int64_t count = ElementCount(shape);
  if (base->is_floating()) {
    out.floats.resize(count);
  } else {
    out.ints.resize(count);
  }
  ForEachBroadcast<2>(shape, strides, [&](int64_t i, const std::array<int64_t, 2>& o) {
    if (base->is_floating()) {
      out.floats[i] = std::pow(base->floats[o[0]], static_cast<float>(read(*exponent, o[1])));
    } else {
      out.ints[i] = WrapToType(out.dtype, static_cast<int64_t>(std::pow(read(*base, o[0]),
                                                                        read(*exponent, o[1]))));
    }
  });
  outputs[0] = std::move(out);
  return Status::Ok();
}

Status RunEqual(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Comparison(ctx, outputs, [](float a, float b) { return a == b; },
                    [](int64_t a, int64_t b) { return a == b; });
}

Status RunGreater(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Comparison(ctx, outputs, [](float a, float b) { return a > b; },
                    [](int64_t a, int64_t b) { return a > b; });
}

Status RunGreaterOrEqual(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Comparison(ctx, outputs, [](float a, float b) { return a >= b; },
                    [](int64_t a, int64_t b) { return a >= b; });
}

Status RunLess(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Comparison(ctx, outputs, [](float a, float b) { return a < b; },
                    [](int64_t a, int64_t b) { return a < b; });
}

Status RunLessOrEqual(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Comparison(ctx, outputs, [](float a, float b) { return a <= b; },
                    [](int64_t a, int64_t b) { return a <= b; });
}

Status RunAnd(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Logical(ctx, outputs, [](bool a, bool b) { return a && b; });
}

Status RunOr(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Logical(ctx, outputs, [](bool a, bool b) { return a || b; });
}

Status RunXor(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Logical(ctx, outputs, [](bool a, bool b) { return a != b; });
}

Status RunWhere(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* cond, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(1));
  GLPOOL_ASSIGN_OR_RETURN(const Value* y, ctx.Input(2));
  if (cond->dtype != DataType::kBool) {
    return InvalidModelError(ctx.InputLabel(0) + " must be bool, is " + DataTypeName(cond->dtype));
  }
  GLPOOL_RETURN_IF_ERROR(CheckComputable(ctx, *x, 1));
  GLPOOL_RETURN_IF_ERROR(CheckSameDtype(ctx, *x, *y, 2));
  GLPOOL_ASSIGN_OR_RETURN(Shape xy, BroadcastShapes(x->shape, y->shape));
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(cond->shape, xy));
  const std::array<std::vector<int64_t>, 3> strides = {BroadcastStrides(cond->shape, shape),
                                                       BroadcastStrides(x->shape, shape),
                                                       BroadcastStrides(y->shape, shape)};
  Value out;
  out.dtype = x->dtype;
  out.shape = shape;
  const int64_t count = ElementCount(shape);
  if (x->is_floating()) {
    out.floats.resize(count);
  } else {
    out.ints.resize(count);
  }
  ForEachBroadcast<3>(shape, strides, [&](int64_t i, const std::array<int64_t, 3>& o) {
    const bool pick_x = cond->ints[o[0]] != 0;
    if (x->is_floating()) {
      out.floats[i] = pick_x ? x->floats[o[1]] : y->floats[o[2]];
    } else {
      out.ints[i] = pick_x ? x->ints[o[1]] : y->ints[o[2]];
    }
  });
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
