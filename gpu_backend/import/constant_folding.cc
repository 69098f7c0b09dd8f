#include "gpu_backend/import/constant_folding.h"

#include <cmath>
#include <functional>
#include <set>

#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/import/shape_rules.h"
#include "gpu_backend/import/tensor_values.h"

namespace glpool {
namespace {

using Outputs = std::optional<std::vector<TensorData>>;
using Result = StatusOr<Outputs>;

Result Single(TensorData data) { return Outputs(std::vector<TensorData>{std::move(data)}); }

TensorData Empty(DataType dtype, Shape shape) {
  TensorData data;
  data.dtype = dtype;
  data.bytes.assign(static_cast<size_t>(ElementCount(shape)) * DataTypeSize(dtype), 0);
  data.shape = std::move(shape);
  return data;
}

// Calls fn(index, linear) for every element of `shape` in row-major order.
void ForEachIndex(const Shape& shape, const std::function<void(const std::vector<int64_t>&, int64_t)>& fn) {
  const int64_t count = ElementCount(shape);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    fn(index, linear);
    for (size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
}

// Linear index into `shape` of the element `index` (of a broadcast output
// of rank >= shape's rank) maps to.
int64_t BroadcastSource(const Shape& shape, const std::vector<int64_t>& strides, const std::vector<int64_t>& index) {
  const size_t offset = index.size() - shape.size();
  int64_t linear = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] != 1) linear += index[k + offset] * strides[k];
  }
  return linear;
}

TensorData BroadcastTo(const TensorData& in, const Shape& out_shape) {
  TensorData out = Empty(in.dtype, out_shape);
  const size_t size = DataTypeSize(in.dtype);
  const std::vector<int64_t> strides = Strides(in.shape);
  ForEachIndex(out_shape, [&](const std::vector<int64_t>& index, int64_t linear) {
    CopyElement(in, BroadcastSource(in.shape, strides, index), &out, linear, size);
  });
  return out;
}

TensorData Reshaped(const TensorData& in, Shape shape) {
  TensorData out = in;
  out.shape = std::move(shape);
  return out;
}

TensorData CastTo(const TensorData& in, DataType to) {
  if (IsFloatType(to) || IsFloatType(in.dtype)) return TensorFromDoubles(to, in.shape, ToDoubles(in));
  return TensorFromInt64s(to, in.shape, in.ToInt64s());
}

Result Gather(const NodeView& v, const Shape& out_shape) {
  const TensorData& data = v.in(0).data;
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), v.rank(0)));
  const std::vector<int64_t> indices = v.in(1).data.ToInt64s();
  const int64_t axis_dim = data.shape[static_cast<size_t>(axis)];
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < v.rank(0); ++k) {
    if (k < axis) outer *= data.shape[static_cast<size_t>(k)];
    if (k > axis) inner *= data.shape[static_cast<size_t>(k)];
  }
  TensorData out = Empty(data.dtype, out_shape);
  const size_t size = DataTypeSize(data.dtype);
  const int64_t n = static_cast<int64_t>(indices.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = indices[static_cast<size_t>(j)];
      if (idx < 0) idx += axis_dim;
      if (idx < 0 || idx >= axis_dim) {
        return InvalidModelError("Gather index " + std::to_string(indices[static_cast<size_t>(j)]) +
                                 " is out of range for dimension " + std::to_string(axis_dim));
      }
      for (int64_t i = 0; i < inner; ++i) {
        CopyElement(data, (o * axis_dim + idx) * inner + i, &out, (o * n + j) * inner + i, size);
      }
    }
  }
  return Single(std::move(out));
}

Result Slice(const NodeView& v, const Shape& out_shape) {
  GLPOOL_ASSIGN_OR_RETURN(SliceRange range, ReadSlice(v));
  const TensorData& data = v.in(0).data;
  const std::vector<int64_t> strides = Strides(data.shape);
  TensorData out = Empty(data.dtype, out_shape);
  const size_t size = DataTypeSize(data.dtype);
  ForEachIndex(out_shape, [&](const std::vector<int64_t>& index, int64_t linear) {
    int64_t src = 0;
    for (size_t k = 0; k < index.size(); ++k) src += (range.start[k] + index[k] * range.step[k]) * strides[k];
    CopyElement(data, src, &out, linear, size);
  });
  return Single(std::move(out));
}

Result Concat(const NodeView& v, const Shape& out_shape) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), static_cast<int64_t>(out_shape.size())));
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= out_shape[static_cast<size_t>(k)];
  TensorData out = Empty(v.dtype(0), out_shape);
  const size_t size = DataTypeSize(out.dtype);
  int64_t written = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < v.input_count(); ++i) {
      if (!v.has(i)) continue;
      const TensorData& in = v.in(i).data;
      if (in.dtype != out.dtype) return InvalidModelError("Concat inputs differ in data type");
      const int64_t chunk = outer ? in.element_count() / outer : 0;
      for (int64_t e = 0; e < chunk; ++e) CopyElement(in, o * chunk + e, &out, written++, size);
    }
  }
  return Single(std::move(out));
}

Result Split(const NodeView& v, const std::vector<TensorType>& types) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), v.rank(0)));
  const TensorData& data = v.in(0).data;
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= data.shape[static_cast<size_t>(k)];
  const int64_t row = outer ? data.element_count() / outer : 0;
  const size_t size = DataTypeSize(data.dtype);
  std::vector<TensorData> outs;
  int64_t offset = 0;
  for (const TensorType& type : types) {
    TensorData out = Empty(data.dtype, type.shape);
    const int64_t chunk = outer ? out.element_count() / outer : 0;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t e = 0; e < chunk; ++e) CopyElement(data, o * row + offset + e, &out, o * chunk + e, size);
    }
    offset += chunk;
    outs.push_back(std::move(out));
  }
  return Outputs(std::move(outs));
}

Result Transpose(const NodeView& v, const Shape& out_shape) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> perm, ReadPerm(v));
  const TensorData& data = v.in(0).data;
  const std::vector<int64_t> strides = Strides(data.shape);
  TensorData out = Empty(data.dtype, out_shape);
  const size_t size = DataTypeSize(data.dtype);
  ForEachIndex(out_shape, [&](const std::vector<int64_t>& index, int64_t linear) {
    int64_t src = 0;
    for (size_t k = 0; k < index.size(); ++k) src += index[k] * strides[static_cast<size_t>(perm[k])];
    CopyElement(data, src, &out, linear, size);
  });
  return Single(std::move(out));
}

Result Tile(const NodeView& v, const Shape& out_shape) {
  const TensorData& data = v.in(0).data;
  const std::vector<int64_t> strides = Strides(data.shape);
  TensorData out = Empty(data.dtype, out_shape);
  const size_t size = DataTypeSize(data.dtype);
  ForEachIndex(out_shape, [&](const std::vector<int64_t>& index, int64_t linear) {
    int64_t src = 0;
    for (size_t k = 0; k < index.size(); ++k) src += (index[k] % data.shape[k]) * strides[k];
    CopyElement(data, src, &out, linear, size);
  });
  return Single(std::move(out));
}

Result ConstantOfShape(const NodeView& v, const TensorType& type) {
  TensorData out = Empty(type.dtype, type.shape);
  auto it = v.node().attributes.find("value");
  if (it != v.node().attributes.end()) {
    const TensorData* value = std::get_if<TensorData>(&it->second);
    if (!value || value->element_count() != 1) return InvalidModelError("ConstantOfShape value must hold one element");
    const size_t size = DataTypeSize(value->dtype);
    for (int64_t i = 0; i < out.element_count(); ++i) CopyElement(*value, 0, &out, i, size);
  }
  return Single(std::move(out));
}

// Integer results wrap modulo 2^64 as ONNX Runtime's (and numpy's) int64
// arithmetic does; computed in uint64, where wrapping is defined.
int64_t Wrapped(uint64_t value) { return static_cast<int64_t>(value); }

Result Range(const NodeView& v, const TensorType& type) {
  const int64_t count = type.shape[0];
  if (IsFloatType(type.dtype)) {
    const double start = ToDoubles(v.in(0).data)[0], delta = ToDoubles(v.in(2).data)[0];
    std::vector<double> values(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) values[static_cast<size_t>(i)] = start + static_cast<double>(i) * delta;
    return Single(TensorFromDoubles(type.dtype, type.shape, values));
  }
  const int64_t start = v.in(0).data.ToInt64s()[0], delta = v.in(2).data.ToInt64s()[0];
  std::vector<int64_t> values(static_cast<size_t>(count));
  // In unsigned arithmetic: RangeCount's count comes from a double, so for
  // a hostile start/delta the last value may lie past int64; it wraps as
  // the int types of the spec do instead of overflowing.
  for (int64_t i = 0; i < count; ++i) {
    values[static_cast<size_t>(i)] =
        Wrapped(static_cast<uint64_t>(start) + static_cast<uint64_t>(i) * static_cast<uint64_t>(delta));
  }
  return Single(TensorFromInt64s(type.dtype, type.shape, values));
}

// Elementwise ops over broadcast inputs: integers exact in int64, floats
// in double, results stored in `out_dtype`.
using IntFn = std::function<StatusOr<int64_t>(const std::vector<int64_t>&)>;
using FloatFn = std::function<double(const std::vector<double>&)>;

Result Elementwise(const NodeView& v, const TensorType& type, const IntFn& int_fn, const FloatFn& float_fn,
                   size_t first_input = 0) {
  std::vector<const TensorData*> ins;
  for (size_t i = first_input; i < v.input_count(); ++i) {
    if (v.has(i)) ins.push_back(&v.in(i).data);
  }
  if (ins.empty()) return Outputs();
  const bool use_float = IsFloatType(ins[0]->dtype) || (int_fn == nullptr);
  if (use_float && !float_fn) return Outputs();
  std::vector<std::vector<int64_t>> ints;
  std::vector<std::vector<double>> floats;
  std::vector<std::vector<int64_t>> strides;
  for (const TensorData* in : ins) {
    if (use_float) {
      floats.push_back(ToDoubles(*in));
    } else {
      ints.push_back(in->ToInt64s());
    }
    strides.push_back(Strides(in->shape));
  }
  std::vector<int64_t> int_out(use_float ? 0 : static_cast<size_t>(ElementCount(type.shape)));
  std::vector<double> float_out(use_float ? static_cast<size_t>(ElementCount(type.shape)) : 0);
  std::vector<int64_t> int_args(ins.size());
  std::vector<double> float_args(ins.size());
  Status status;
  ForEachIndex(type.shape, [&](const std::vector<int64_t>& index, int64_t linear) {
    for (size_t i = 0; i < ins.size(); ++i) {
      const size_t src = static_cast<size_t>(BroadcastSource(ins[i]->shape, strides[i], index));
      if (use_float) {
        float_args[i] = floats[i][src];
      } else {
        int_args[i] = ints[i][src];
      }
    }
    if (use_float) {
      float_out[static_cast<size_t>(linear)] = float_fn(float_args);
    } else if (status.ok()) {
      StatusOr<int64_t> value = int_fn(int_args);
      if (value.ok()) {
        int_out[static_cast<size_t>(linear)] = *value;
      } else {
        status = value.status();
      }
    }
  });
  GLPOOL_RETURN_IF_ERROR(status);
  if (use_float) return Single(TensorFromDoubles(type.dtype, type.shape, float_out));
  return Single(TensorFromInt64s(type.dtype, type.shape, int_out));
}

Result Arithmetic(const NodeView& v, const TensorType& type) {
  const std::string& op = v.node().op_type;
  IntFn int_fn;
  FloatFn float_fn;
  using I = const std::vector<int64_t>&;
  using F = const std::vector<double>&;
  if (op == "Add" || op == "Sum") {
    int_fn = [](I a) -> StatusOr<int64_t> {
      uint64_t s = 0;
      for (int64_t x : a) s += static_cast<uint64_t>(x);
      return Wrapped(s);
    };
    float_fn = [](F a) { double s = 0; for (double x : a) s += x; return s; };
  } else if (op == "Sub") {
    int_fn = [](I a) -> StatusOr<int64_t> { return Wrapped(static_cast<uint64_t>(a[0]) - static_cast<uint64_t>(a[1])); };
    float_fn = [](F a) { return a[0] - a[1]; };
  } else if (op == "Mul") {
    int_fn = [](I a) -> StatusOr<int64_t> { return Wrapped(static_cast<uint64_t>(a[0]) * static_cast<uint64_t>(a[1])); };
    float_fn = [](F a) { return a[0] * a[1]; };
  } else if (op == "Div") {
    int_fn = [](I a) -> StatusOr<int64_t> {
      if (a[1] == 0) return InvalidModelError("integer division by zero");
      if (a[1] == -1) return Wrapped(0 - static_cast<uint64_t>(a[0]));  // INT64_MIN / -1 wraps
      return a[0] / a[1];
    };
    float_fn = [](F a) { return a[0] / a[1]; };
  } else if (op == "Mod") {
    const bool fmod = v.node().GetInt("fmod", 0) != 0;
    int_fn = [fmod](I a) -> StatusOr<int64_t> {
      if (a[1] == 0) return InvalidModelError("integer modulo by zero");
      if (a[1] == -1) return int64_t{0};  // INT64_MIN % -1 would trap
      int64_t r = a[0] % a[1];
      if (!fmod && r != 0 && ((r < 0) != (a[1] < 0))) r += a[1];  // sign of the divisor, like Python
      return r;
    };
    float_fn = [](F a) { return std::fmod(a[0], a[1]); };
  } else if (op == "Pow") {
    float_fn = [](F a) { return std::pow(a[0], a[1]); };
    int_fn = [](I a) -> StatusOr<int64_t> {
      const double p = std::pow(static_cast<double>(a[0]), static_cast<double>(a[1]));
      if (!(p >= -9.2233720368547758e18 && p < 9.2233720368547758e18)) {
        return UnsupportedError("integer Pow " + std::to_string(a[0]) + "^" + std::to_string(a[1]) +
                                " does not fit int64");
      }
      return static_cast<int64_t>(p);
    };
  } else if (op == "Min" || op == "Max") {
    const bool is_min = op == "Min";
    int_fn = [is_min](I a) -> StatusOr<int64_t> {
      int64_t r = a[0];
      for (int64_t x : a) r = is_min ? std::min(r, x) : std::max(r, x);
      return r;
    };
    float_fn = [is_min](F a) {
      double r = a[0];
      for (double x : a) r = is_min ? std::min(r, x) : std::max(r, x);
      return r;
    };
  } else if (op == "Neg") {
    int_fn = [](I a) -> StatusOr<int64_t> { return Wrapped(0 - static_cast<uint64_t>(a[0])); };
    float_fn = [](F a) { return -a[0]; };
  } else if (op == "Abs") {
    int_fn = [](I a) -> StatusOr<int64_t> { return a[0] < 0 ? Wrapped(0 - static_cast<uint64_t>(a[0])) : a[0]; };
    float_fn = [](F a) { return std::fabs(a[0]); };
  } else if (op == "Relu") {
    int_fn = [](I a) -> StatusOr<int64_t> { return a[0] < 0 ? 0 : a[0]; };
    float_fn = [](F a) { return a[0] < 0 ? 0.0 : a[0]; };
  } else if (op == "Floor" || op == "Ceil" || op == "Sqrt" || op == "Reciprocal") {
    if (op == "Floor") float_fn = [](F a) { return std::floor(a[0]); };
    if (op == "Ceil") float_fn = [](F a) { return std::ceil(a[0]); };
    if (op == "Sqrt") float_fn = [](F a) { return std::sqrt(a[0]); };
    if (op == "Reciprocal") float_fn = [](F a) { return 1.0 / a[0]; };
    if (!IsFloatType(v.dtype(0))) return Outputs();
  } else {
    return Outputs();
  }
  return Elementwise(v, type, int_fn, float_fn);
}

Result Comparison(const NodeView& v, const TensorType& type) {
  const std::string& op = v.node().op_type;
  std::function<bool(double, double)> cmp;
  if (op == "Equal") cmp = [](double a, double b) { return a == b; };
  if (op == "Less") cmp = [](double a, double b) { return a < b; };
  if (op == "Greater") cmp = [](double a, double b) { return a > b; };
  if (op == "LessOrEqual") cmp = [](double a, double b) { return a <= b; };
  if (op == "GreaterOrEqual") cmp = [](double a, double b) { return a >= b; };
  if (op == "And") cmp = [](double a, double b) { return a != 0 && b != 0; };
  if (op == "Or") cmp = [](double a, double b) { return a != 0 || b != 0; };
  if (op == "Not") return Elementwise(v, type, nullptr, [](const std::vector<double>& a) { return a[0] == 0 ? 1.0 : 0.0; });
  if (!cmp) return Outputs();
  // Integers compare exactly in int64; doubles would merge values above 2^53.
  return Elementwise(
      v, type,
      [&](const std::vector<int64_t>& a) -> StatusOr<int64_t> {
        if (op == "Equal") return a[0] == a[1];
        if (op == "Less") return a[0] < a[1];
        if (op == "Greater") return a[0] > a[1];
        if (op == "LessOrEqual") return a[0] <= a[1];
        if (op == "GreaterOrEqual") return a[0] >= a[1];
        return cmp(static_cast<double>(a[0]), static_cast<double>(a[1]));
      },
      [&](const std::vector<double>& a) { return cmp(a[0], a[1]) ? 1.0 : 0.0; });
}

Result Where(const NodeView& v, const TensorType& type) {
  const TensorData cond = BroadcastTo(v.in(0).data, type.shape);
  const TensorData x = BroadcastTo(v.in(1).data, type.shape);
  const TensorData y = BroadcastTo(v.in(2).data, type.shape);
  if (x.dtype != y.dtype) return InvalidModelError("Where branches differ in data type");
  const std::vector<int64_t> c = cond.ToInt64s();
  TensorData out = Empty(x.dtype, type.shape);
  const size_t size = DataTypeSize(x.dtype);
  for (int64_t i = 0; i < out.element_count(); ++i) CopyElement(c[static_cast<size_t>(i)] ? x : y, i, &out, i, size);
  return Single(std::move(out));
}

const std::set<std::string>& FoldableOps() {
  static const std::set<std::string> ops = {
      "Shape", "Size", "Identity", "Dropout", "Cast", "Gather", "Slice", "Concat", "Split", "Squeeze",
      "Unsqueeze", "Reshape", "Flatten", "Transpose", "Expand", "Tile", "ConstantOfShape", "Range", "Add",
      "Sub", "Mul", "Div", "Mod", "Pow", "Min", "Max", "Sum", "Neg", "Abs", "Floor", "Ceil", "Sqrt",
      "Reciprocal", "Relu", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Not", "And", "Or",
      "Where"};
  return ops;
}

}  // namespace

bool IsFoldableOp(const std::string& op_type) { return FoldableOps().count(op_type) != 0; }

bool CanFoldNode(const Graph& graph, const Node& node) {
  if (!node.domain.empty() || !FoldableOps().count(node.op_type) || node.inputs.empty()) return false;
  if (node.op_type == "Shape" || node.op_type == "Size") return true;
  for (const std::string& name : node.inputs) {
    if (name.empty()) continue;
    const Tensor* tensor = graph.FindTensor(name);
    if (!tensor || !tensor->is_constant) return false;
  }
  return true;
}

StatusOr<std::optional<std::vector<TensorData>>> FoldNode(const Graph& graph, const Node& node) {
  if (!CanFoldNode(graph, node)) return Outputs();
  GLPOOL_ASSIGN_OR_RETURN(std::vector<TensorType> types, InferNodeTypes(graph, node));
  for (size_t i = 0; i < types.size(); ++i) {
    if (!node.outputs[i].empty() && ElementCount(types[i].shape) > kMaxFoldElements) return Outputs();
  }
  const NodeView v(graph, node);
  const std::string& op = node.op_type;
  const TensorType& type = types[0];
  if (op == "Shape") {
    const int64_t rank = v.rank(0);
    int64_t start = node.GetInt("start", 0);
    if (start < 0) start += rank;
    start = std::max<int64_t>(0, std::min(start, rank));
    std::vector<int64_t> dims(v.shape(0).begin() + start, v.shape(0).begin() + start + type.shape[0]);
    return Single(TensorData::FromInt64s(type.shape, dims));
  }
  if (op == "Size") return Single(TensorData::FromInt64s({}, {ElementCount(v.shape(0))}));
  if (op == "Dropout") {
    if (node.outputs.size() > 1 && !node.outputs[1].empty()) return Outputs();
    return Single(v.in(0).data);
  }
  if (op == "Identity") return Single(v.in(0).data);
  if (op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze") {
    return Single(Reshaped(v.in(0).data, type.shape));
  }
  if (op == "Cast") return Single(CastTo(v.in(0).data, type.dtype));
  if (op == "Gather") return Gather(v, type.shape);
  if (op == "Slice") return Slice(v, type.shape);
  if (op == "Concat") return Concat(v, type.shape);
  if (op == "Split") return Split(v, types);
  if (op == "Transpose") return Transpose(v, type.shape);
  if (op == "Expand") return Single(BroadcastTo(v.in(0).data, type.shape));
  if (op == "Tile") return Tile(v, type.shape);
  if (op == "ConstantOfShape") return ConstantOfShape(v, type);
  if (op == "Range") return Range(v, type);
  if (op == "Where") return Where(v, type);
  if (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual" ||
      op == "Not" || op == "And" || op == "Or") {
    return Comparison(v, type);
  }
  return Arithmetic(v, type);
}

}  // namespace glpool
