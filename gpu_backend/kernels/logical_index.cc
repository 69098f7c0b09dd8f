#include "gpu_backend/kernels/logical_index.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace glpool {

int Phwc4AxisOf(size_t d, size_t rank) {
  if (rank == 1) return 1;
  if (d == 0) return 0;
  if (d == 1) return 1;
  if (d + 1 == rank) return 3;
  return 2;
}

std::string GlslIntArray(const std::vector<int64_t>& values, size_t length, int64_t fill) {
  std::string text = "int[" + std::to_string(length) + "](";
  for (size_t i = 0; i < length; ++i) {
    text += (i ? ", " : "") + std::to_string(i < values.size() ? values[i] : fill);
  }
  return text + ")";
}

std::string GlslFloat(double value) {
  const double largest = std::numeric_limits<float>::max();
  if (std::isnan(value)) value = 0.0;
  if (value > largest) value = largest;
  if (value < -largest) value = -largest;
  char text[64];
  snprintf(text, sizeof text, "%.9g", value);
  std::string literal = text;
  if (literal.find_first_of(".eE") == std::string::npos) literal += ".0";
  return literal;
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return InvalidModelError("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + r : axis;
}

bool HasInput(const Node& node, size_t index) { return index < node.inputs.size() && !node.inputs[index].empty(); }

namespace {

StatusOr<const TensorData*> ConstantData(const Graph& graph, const Node& node, size_t index) {
  const Tensor* tensor = graph.FindTensor(node.inputs[index]);
  if (tensor == nullptr) {
    return InvalidModelError("unknown tensor '" + node.inputs[index] + "'");
  }
  if (!tensor->is_constant) {
    return UnsupportedError("input " + std::to_string(index) + " ('" + tensor->name +
                            "') must be a constant for the GPU kernel");
  }
  return &tensor->data;
}

}  // namespace

StatusOr<std::vector<int64_t>> ConstantInts(const Graph& graph, const Node& node, size_t index,
                                            std::vector<int64_t> absent) {
  if (!HasInput(node, index)) return absent;
  GLPOOL_ASSIGN_OR_RETURN(const TensorData* data, ConstantData(graph, node, index));
  return data->ToInt64s();
}

StatusOr<std::vector<float>> ConstantFloats(const Graph& graph, const Node& node, size_t index,
                                            std::vector<float> absent) {
  if (!HasInput(node, index)) return absent;
  GLPOOL_ASSIGN_OR_RETURN(const TensorData* data, ConstantData(graph, node, index));
  return data->ToFloats();
}

Status RequireGpuStorable(const Tensor& tensor) {
  switch (tensor.dtype) {
    case DataType::kFloat32:
    case DataType::kFloat16:
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kBool: return Status::Ok();
    default: break;
  }
  return UnsupportedError("tensor '" + tensor.name + "' is " + DataTypeName(tensor.dtype) +
                          "; the GPU holds float32, float16, integers and bools");
}

Status CheckIndexable(const Shape& shape) {
  if (ElementCount(shape) >= (int64_t(1) << 31) - 4) {
    return UnsupportedError(ShapeToString(shape) + " has too many elements for 32-bit shader indexing");
  }
  return Status::Ok();
}

}  // namespace glpool
