#include "gpu_backend/import/tensor_values.h"

#include <algorithm>
#include <cstring>

#include "gpu_backend/graph/float16.h"

namespace glpool {

bool IsFloatType(DataType dtype) {
  return dtype == DataType::kFloat32 || dtype == DataType::kFloat16 || dtype == DataType::kFloat64;
}

std::vector<int64_t> Strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank) {
    return InvalidModelError(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<double> ToDoubles(const TensorData& data) {
  if (data.dtype == DataType::kFloat64) {
    std::vector<double> values(data.bytes.size() / sizeof(double));
    if (!values.empty()) std::memcpy(values.data(), data.bytes.data(), values.size() * sizeof(double));
    return values;
  }
  if (IsFloatType(data.dtype)) {
    std::vector<float> floats = data.ToFloats();
    return std::vector<double>(floats.begin(), floats.end());
  }
  std::vector<int64_t> ints = data.ToInt64s();
  return std::vector<double>(ints.begin(), ints.end());
}

namespace {

template <typename T>
void Store(TensorData* data, size_t index, T value) {
  std::memcpy(data->bytes.data() + index * sizeof(T), &value, sizeof(T));
}

template <typename V>
void StoreAs(TensorData* data, size_t index, V value) {
  switch (data->dtype) {
    case DataType::kFloat32: Store(data, index, static_cast<float>(value)); break;
    case DataType::kFloat16: Store(data, index, FloatToHalf(static_cast<float>(value))); break;
    case DataType::kFloat64: Store(data, index, static_cast<double>(value)); break;
    case DataType::kInt8: Store(data, index, static_cast<int8_t>(value)); break;
    case DataType::kUint8: Store(data, index, static_cast<uint8_t>(value)); break;
    case DataType::kInt16: Store(data, index, static_cast<int16_t>(value)); break;
    case DataType::kInt32: Store(data, index, static_cast<int32_t>(value)); break;
    case DataType::kInt64: Store(data, index, static_cast<int64_t>(value)); break;
    case DataType::kBool: Store(data, index, static_cast<uint8_t>(value != 0)); break;
    case DataType::kUndefined:
    case DataType::kString: break;
  }
}

template <typename V>
TensorData Build(DataType dtype, Shape shape, const std::vector<V>& values) {
  TensorData data;
  data.dtype = dtype;
  data.shape = std::move(shape);
  data.bytes.assign(values.size() * DataTypeSize(dtype), 0);
  for (size_t i = 0; i < values.size(); ++i) StoreAs(&data, i, values[i]);
  return data;
}

}  // namespace

TensorData TensorFromInt64s(DataType dtype, Shape shape, const std::vector<int64_t>& values) {
  return Build(dtype, std::move(shape), values);
}

TensorData TensorFromDoubles(DataType dtype, Shape shape, const std::vector<double>& values) {
  if (!IsFloatType(dtype)) {
    // Casting doubles outside the integer range is undefined; clamp.
    std::vector<int64_t> ints(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      double v = values[i];
      if (!(v == v)) v = 0;
      v = v > 9.2e18 ? 9.2e18 : (v < -9.2e18 ? -9.2e18 : v);
      ints[i] = static_cast<int64_t>(v);
    }
    return Build(dtype, std::move(shape), ints);
  }
  return Build(dtype, std::move(shape), values);
}

}  // namespace glpool
