#include "gpu_backend/cpu_reference/kernel.h"

namespace glpool {
namespace cpu_reference {

std::string KernelContext::InputLabel(size_t index) const {
  std::string label = "input " + std::to_string(index);
  if (index < node.inputs.size() && !node.inputs[index].empty()) {
    label += " ('" + node.inputs[index] + "')";
  }
  return label;
}

StatusOr<const Value*> KernelContext::Input(size_t index) const {
  if (!has_input(index)) return InvalidModelError(InputLabel(index) + " is required but missing");
  return inputs[index];
}

StatusOr<const Value*> KernelContext::FloatInput(size_t index) const {
  GLPOOL_ASSIGN_OR_RETURN(const Value* value, Input(index));
  if (value->dtype != DataType::kFloat32) {
    return UnsupportedError(InputLabel(index) + " is " + DataTypeName(value->dtype) + "; " +
                            node.op_type + " runs on float32 only in the CPU reference");
  }
  return value;
}

StatusOr<std::vector<int64_t>> KernelContext::IntsInput(size_t index) const {
  GLPOOL_ASSIGN_OR_RETURN(const Value* value, Input(index));
  if (!IsIntegerOrBool(value->dtype)) {
    return InvalidModelError(InputLabel(index) + " must be an integer tensor, is " +
                             DataTypeName(value->dtype));
  }
  return value->ints;
}

StatusOr<std::vector<float>> KernelContext::FloatsInput(size_t index) const {
  GLPOOL_ASSIGN_OR_RETURN(const Value* value, Input(index));
  if (!value->is_floating()) {
    return InvalidModelError(InputLabel(index) + " must be a float tensor, is " +
                             DataTypeName(value->dtype));
  }
  return value->floats;
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return InvalidModelError("axis " + std::to_string(axis) + " is out of range for rank " +
                             std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> StridesOf(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

}  // namespace cpu_reference
}  // namespace glpool
