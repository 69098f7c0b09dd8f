// Shape rules for ops whose output shape follows their inputs' elementwise:
// unary ops, broadcasting binary/variadic ops, normalizations, reductions.
#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/import/shape_rules_table.h"
#include "gpu_backend/import/tensor_proto.h"
#include "gpu_backend/import/tensor_values.h"

namespace glpool {
namespace {

using Types = StatusOr<std::vector<TensorType>>;

Types SameAsInput(const NodeView& v) { return One(v.dtype(0), v.shape(0)); }

StatusOr<Shape> BroadcastAll(const NodeView& v) {
  Shape shape;
  bool first = true;
  for (size_t i = 0; i < v.input_count(); ++i) {
    if (!v.has(i)) continue;
    if (first) {
      shape = v.shape(i);
      first = false;
      continue;
    }
    GLPOOL_ASSIGN_OR_RETURN(shape, BroadcastShapes(shape, v.shape(i)));
  }
  if (first) return InvalidModelError("no inputs");
  return shape;
}

// Before opset 7, Add & co broadcast only with broadcast=1, aligning B at
// `axis` of A; that equals numpy's rule when B ends where A ends.
Status CheckLegacyBroadcast(const NodeView& v) {
  if (v.opset() >= 7 || v.node().GetInt("broadcast", 0) == 0 || !v.node().HasAttribute("axis")) {
    return Status::Ok();
  }
  if (v.input_count() < 2 || !v.has(1)) return Status::Ok();
  const int64_t axis = v.node().GetInt("axis", 0);
  // Compared as rank(0) - rank(1): axis + rank(1) overflows for a hostile
  // axis near 2^63.
  if (axis < 0 || axis != v.rank(0) - v.rank(1)) {
    return UnsupportedError("legacy broadcast at axis " + std::to_string(axis) + " of " + ShapeToString(v.shape(0)) +
                            " with " + ShapeToString(v.shape(1)) + " differs from numpy broadcasting");
  }
  return Status::Ok();
}

Types Broadcast(const NodeView& v) {
  GLPOOL_RETURN_IF_ERROR(CheckLegacyBroadcast(v));
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastAll(v));
  return One(v.dtype(0), shape);
}

Types BroadcastBool(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastAll(v));
  return One(DataType::kBool, shape);
}

Types UnaryBool(const NodeView& v) { return One(DataType::kBool, v.shape(0)); }

Types Where(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastAll(v));
  return One(v.dtype(1), shape);
}

Types Cast(const NodeView& v) {
  const DataType to = DataTypeFromOnnx(static_cast<int32_t>(v.node().GetInt("to", 0)));
  if (to == DataType::kUndefined) return UnsupportedError("Cast to an unsupported data type");
  return One(to, v.shape(0));
}

Types CastLike(const NodeView& v) { return One(v.dtype(1), v.shape(0)); }

Types Dropout(const NodeView& v) {
  return std::vector<TensorType>{{v.dtype(0), v.shape(0)}, {DataType::kBool, v.shape(0)}};
}

Types BatchNormalization(const NodeView& v) {
  // Outputs 1.. exist only in training mode: running/saved mean and var.
  const Shape channels{v.rank(0) > 1 ? v.shape(0)[1] : 1};
  std::vector<TensorType> types{{v.dtype(0), v.shape(0)}};
  for (int i = 0; i < 4; ++i) types.push_back({v.dtype(0), channels});
  return types;
}

Types LayerNormalization(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", -1), v.rank(0)));
  Shape reduced = v.shape(0);
  for (size_t i = static_cast<size_t>(axis); i < reduced.size(); ++i) reduced[i] = 1;
  return std::vector<TensorType>{{v.dtype(0), v.shape(0)}, {DataType::kFloat32, reduced}, {DataType::kFloat32, reduced}};
}

Types Reduce(const NodeView& v) {
  bool from_input = false;
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ReadReduceAxes(v, &from_input));
  const bool keepdims = v.node().GetInt("keepdims", 1) != 0;
  const int64_t rank = v.rank(0);
  std::vector<bool> reduce(static_cast<size_t>(rank), axes.empty());
  if (axes.empty() && from_input && v.node().GetInt("noop_with_empty_axes", 0) != 0) {
    return One(v.dtype(0), v.shape(0));
  }
  for (int64_t axis : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, rank, "reduce axis"));
    reduce[static_cast<size_t>(a)] = true;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    const size_t k = static_cast<size_t>(i);
    if (!reduce[k]) {
      out.push_back(v.shape(0)[k]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return One(v.dtype(0), out);
}

Types ArgReduce(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), v.rank(0)));
  Shape out = v.shape(0);
  if (v.node().GetInt("keepdims", 1) != 0) {
    out[static_cast<size_t>(axis)] = 1;
  } else {
    out.erase(out.begin() + axis);
  }
  return One(DataType::kInt64, out);
}

Types TopK(const NodeView& v) {
  int64_t k = v.node().GetInt("k", -1);
  if (v.opset() >= 10) {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> ks, v.ConstInts(1, "K"));
    if (ks.size() != 1) return InvalidModelError("TopK K must hold one value");
    k = ks[0];
  }
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", -1), v.rank(0)));
  Shape out = v.shape(0);
  if (k < 0 || k > out[static_cast<size_t>(axis)]) return InvalidModelError("TopK K out of range");
  out[static_cast<size_t>(axis)] = k;
  return std::vector<TensorType>{{v.dtype(0), out}, {DataType::kInt64, out}};
}

}  // namespace

void AddElementwiseRules(ShapeRuleTable* t) {
  for (const char* op :
       {"Relu", "Clip", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Selu", "Celu",
        "ThresholdedRelu", "Softplus", "Softsign", "Softmax", "LogSoftmax", "Hardmax", "Sqrt", "Exp", "Log",
        "Erf", "Abs", "Neg", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Identity", "Sin", "Cos", "Tan",
        "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "InstanceNormalization", "LRN",
        "MeanVarianceNormalization", "CumSum", "Trilu", "Shrink", "EyeLike", "Mish", "BitwiseNot", "Gelu",
        "GroupNormalization"}) {
    (*t)[op] = SameAsInput;
  }
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Mod", "BitShift",
                         "PRelu", "BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    (*t)[op] = Broadcast;
  }
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"}) {
    (*t)[op] = BroadcastBool;
  }
  for (const char* op : {"Not", "IsNaN", "IsInf"}) (*t)[op] = UnaryBool;
  for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                         "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    (*t)[op] = Reduce;
  }
  (*t)["Where"] = Where;
  (*t)["Cast"] = Cast;
  (*t)["CastLike"] = CastLike;
  (*t)["Dropout"] = Dropout;
  (*t)["BatchNormalization"] = BatchNormalization;
  (*t)["LayerNormalization"] = LayerNormalization;
  (*t)["ArgMax"] = ArgReduce;
  (*t)["ArgMin"] = ArgReduce;
  (*t)["TopK"] = TopK;
}

}  // namespace glpool
