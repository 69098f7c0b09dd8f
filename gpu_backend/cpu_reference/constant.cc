// Ops that make values rather than transform them (Constant,
// ConstantOfShape, Range, Shape, Size) and the dtype conversions (Cast,
// CastLike). These carry the integer shape arithmetic models compute.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/float16.h"

namespace glpool {
namespace cpu_reference {
namespace {

// ONNX TensorProto.DataType numbers, as the Cast "to" attribute uses them.
StatusOr<DataType> FromOnnxType(int64_t onnx_type) {
  switch (onnx_type) {
    case 1: return DataType::kFloat32;
    case 2: return DataType::kUint8;
    case 3: return DataType::kInt8;
    case 5: return DataType::kInt16;
    case 6: return DataType::kInt32;
    case 7: return DataType::kInt64;
    case 9: return DataType::kBool;
    case 10: return DataType::kFloat16;
    case 11: return DataType::kFloat64;
    default:
      return UnsupportedError("casting to ONNX data type " + std::to_string(onnx_type) +
                              " (string, bfloat16, unsigned 16-64 bit...) is not supported");
  }
}

Value ConvertTo(const Value& x, DataType to) {
  Value out;
  out.dtype = to;
  out.shape = x.shape;
  if (IsFloatingType(to)) {
    if (x.is_floating()) {
      out.floats = x.floats;
    } else {
      out.floats.assign(x.ints.begin(), x.ints.end());
    }
    // A float16 value must hold only float16 numbers.
    if (to == DataType::kFloat16) {
      for (float& v : out.floats) v = HalfToFloat(FloatToHalf(v));
    }
    return out;
  }
  if (x.is_floating()) {
    out.ints.resize(x.floats.size());
    for (size_t i = 0; i < x.floats.size(); ++i) {
      const float v = x.floats[i];
      if (to == DataType::kBool) {
        out.ints[i] = v != 0.0f;
      } else {
        // Truncate toward zero; NaN and out-of-range values are undefined in
        // ONNX, clamp them instead of invoking undefined behaviour.
        const double d = std::isnan(v) ? 0.0 : std::fmax(-9.2e18, std::fmin(9.2e18, v));
        out.ints[i] = WrapToType(to, static_cast<int64_t>(d));
      }
    }
    return out;
  }
  out.ints.resize(x.ints.size());
  for (size_t i = 0; i < x.ints.size(); ++i) out.ints[i] = WrapToType(to, x.ints[i]);
  return out;
}

StatusOr<double> ScalarInput(const KernelContext& ctx, size_t index) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* v, ctx.Input(index));
  if (v->size() != 1) return InvalidModelError(ctx.InputLabel(index) + " must be a scalar");
  return v->is_floating() ? static_cast<double>(v->floats[0]) : static_cast<double>(v->ints[0]);
}

}  // namespace

Status RunConstant(const KernelContext& ctx, std::vector<Value>& outputs) {
  const Node& node = ctx.node;
  auto it = node.attributes.find("value");
  if (it != node.attributes.end()) {
    const TensorData* data = std::get_if<TensorData>(&it->second);
    if (!data) return InvalidModelError("attribute 'value' is not a tensor");
    GLPOOL_ASSIGN_OR_RETURN(outputs[0], ValueFromTensorData(*data));
  } else if (node.HasAttribute("value_float")) {
    outputs[0] = MakeFloatValue({}, {node.GetFloat("value_float", 0.0f)});
  } else if (node.HasAttribute("value_floats")) {
    std::vector<float> v = node.GetFloats("value_floats");
    outputs[0] = MakeFloatValue({static_cast<int64_t>(v.size())}, v);
  } else if (node.HasAttribute("value_int")) {
    outputs[0] = MakeIntValue(DataType::kInt64, {}, {node.GetInt("value_int", 0)});
  } else if (node.HasAttribute("value_ints")) {
    std::vector<int64_t> v = node.GetInts("value_ints");
    outputs[0] = MakeIntValue(DataType::kInt64, {static_cast<int64_t>(v.size())}, v);
  } else {
    return UnsupportedError("Constant without a value/value_float(s)/value_int(s) attribute "
                            "(string and sparse constants are not supported)");
  }
  return Status::Ok();
}

Status RunConstantOfShape(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ctx.IntsInput(0));
  for (int64_t d : shape) {
    if (d < 0) return InvalidModelError("shape has a negative dim");
  }
  Value fill = MakeFloatValue({1}, {0.0f});
  auto it = ctx.node.attributes.find("value");
  if (it != ctx.node.attributes.end()) {
    const TensorData* data = std::get_if<TensorData>(&it->second);
    if (!data) return InvalidModelError("attribute 'value' is not a tensor");
    GLPOOL_ASSIGN_OR_RETURN(fill, ValueFromTensorData(*data));
    if (fill.size() != 1) return InvalidModelError("attribute 'value' must hold one element");
  }
  Value out;
  out.dtype = fill.dtype;
  out.shape = shape;
  if (fill.is_floating()) {
    out.floats.assign(ElementCount(shape), fill.floats[0]);
  } else {
    out.ints.assign(ElementCount(shape), fill.ints[0]);
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

Status RunRange(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* start_value, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(double start, ScalarInput(ctx, 0));
  GLPOOL_ASSIGN_OR_RETURN(double limit, ScalarInput(ctx, 1));
  GLPOOL_ASSIGN_OR_RETURN(double delta, ScalarInput(ctx, 2));
  if (delta == 0) return InvalidModelError("delta must not be 0");
  const int64_t count = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  Value out;
  out.dtype = start_value->dtype;
  out.shape = {count};
  for (int64_t i = 0; i < count; ++i) {
    if (start_value->is_floating()) {
      out.floats.push_back(static_cast<float>(start + static_cast<double>(i) * delta));
    } else {
      out.ints.push_back(static_cast<int64_t>(start) + i * static_cast<int64_t>(delta));
    }
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

Status RunShape(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  // start/end (opset 15) select a range of dims, clamped like Slice.
  int64_t start = ctx.node.GetInt("start", 0), end = ctx.node.GetInt("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::min(std::max<int64_t>(start, 0), rank);
  end = std::min(std::max<int64_t>(end, start), rank);
  std::vector<int64_t> dims(x->shape.begin() + start, x->shape.begin() + end);
  outputs[0] = MakeIntValue(DataType::kInt64, {end - start}, dims);
  return Status::Ok();
}

Status RunSize(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  outputs[0] = MakeIntValue(DataType::kInt64, {}, {x->size()});
  return Status::Ok();
}

Status RunCast(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  if (!ctx.node.HasAttribute("to")) return InvalidModelError("Cast needs a 'to' attribute");
  GLPOOL_ASSIGN_OR_RETURN(DataType to, FromOnnxType(ctx.node.GetInt("to", 0)));
  outputs[0] = ConvertTo(*x, to);
  return Status::Ok();
}

Status RunCastLike(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* like, ctx.Input(1));
  outputs[0] = ConvertTo(*x, like->dtype);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
