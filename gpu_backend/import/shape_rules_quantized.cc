// Shape rules for the quantized ops the CPU reference implements
// (cpu_reference/quantize.cc). ONNX's own inference is not run for the
// integer products (onnx_node_inference.cc), so every dim is checked here.
#include "gpu_backend/import/shape_rules_table.h"

namespace glpool {
namespace {

using Types = StatusOr<std::vector<TensorType>>;

Types QuantizeLinear(const NodeView& v) {
  const DataType dtype = v.has(2) ? v.dtype(2) : DataType::kUint8;
  if (dtype != DataType::kUint8 && dtype != DataType::kInt8) {
    return UnsupportedError("QuantizeLinear to " + std::string(DataTypeName(dtype)) + " (uint8 or int8 supported)");
  }
  return One(dtype, v.shape(0));
}

Types DequantizeLinear(const NodeView& v) { return One(DataType::kFloat32, v.shape(0)); }

Types DynamicQuantizeLinear(const NodeView& v) {
  return std::vector<TensorType>{
      {DataType::kUint8, v.shape(0)}, {DataType::kFloat32, {}}, {DataType::kUint8, {}}};
}

// A [..., M, K] times B [K, N] or B with A's batch dims: [..., M, N].
StatusOr<Shape> IntegerProductShape(const NodeView& v, size_t a, size_t b) {
  if (!v.has(a) || !v.has(b)) return InvalidModelError(v.node().op_type + " needs both operands");
  const Shape& sa = v.shape(a);
  const Shape& sb = v.shape(b);
  if (sa.size() < 2 || sb.size() < 2) return UnsupportedError(v.node().op_type + " of rank-1 operands");
  if (sb[sb.size() - 2] != sa.back() || (sb.size() != 2 && Shape(sb.begin(), sb.end() - 2) != Shape(sa.begin(), sa.end() - 2))) {
    return InvalidModelError(v.node().op_type + " operands " + ShapeToString(sa) + " and " + ShapeToString(sb) +
                             " do not multiply (B must be 2-D or share A's batch dims)");
  }
  Shape out(sa.begin(), sa.end() - 1);
  out.push_back(sb.back());
  return out;
}

Types MatMulInteger(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, IntegerProductShape(v, 0, 1));
  return One(DataType::kInt32, shape);
}

Types QLinearMatMul(const NodeView& v) {
  if (v.input_count() < 8 || !v.has(7)) return InvalidModelError("QLinearMatMul needs 8 inputs");
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, IntegerProductShape(v, 0, 3));
  return One(v.dtype(7), shape);
}

}  // namespace

void AddQuantizedRules(ShapeRuleTable* t) {
  (*t)["QuantizeLinear"] = QuantizeLinear;
  (*t)["DequantizeLinear"] = DequantizeLinear;
  (*t)["DynamicQuantizeLinear"] = DynamicQuantizeLinear;
  (*t)["MatMulInteger"] = MatMulInteger;
  (*t)["QLinearMatMul"] = QLinearMatMul;
}

}  // namespace glpool
