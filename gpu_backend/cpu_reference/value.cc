#include "gpu_backend/cpu_reference/value.h"

#include <cstring>

#include "gpu_backend/graph/float16.h"

namespace glpool {
namespace cpu_reference {
namespace {

template <typename T>
T LoadAt(const uint8_t* bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void StoreAt(uint8_t* bytes, int64_t index, T value) {
  std::memcpy(bytes + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

bool IsFloatingType(DataType dtype) {
  return dtype == DataType::kFloat32 || dtype == DataType::kFloat16 ||
         dtype == DataType::kFloat64;
}

bool Value::is_floating() const { return IsFloatingType(dtype); }

Value MakeFloatValue(Shape shape, std::vector<float> values) {
  Value value;
  value.dtype = DataType::kFloat32;
  value.shape = std::move(shape);
  value.floats = std::move(values);
  return value;
}

Value MakeIntValue(DataType dtype, Shape shape, std::vector<int64_t> values) {
  Value value;
  value.dtype = dtype;
  value.shape = std::move(shape);
  value.ints = std::move(values);
  return value;
}

int64_t WrapToType(DataType dtype, int64_t v) {
  switch (dtype) {
    case DataType::kInt8: return static_cast<int8_t>(v);
    case DataType::kUint8: return static_cast<uint8_t>(v);
    case DataType::kInt16: return static_cast<int16_t>(v);
    case DataType::kInt32: return static_cast<int32_t>(v);
    case DataType::kBool: return v != 0 ? 1 : 0;
    default: return v;
  }
}

StatusOr<Value> ValueFromTensorData(const TensorData& data) {
  const size_t element_size = DataTypeSize(data.dtype);
  if (element_size == 0) {
    return UnsupportedError(std::string("tensors of dtype ") + DataTypeName(data.dtype) +
                            " are not supported by the CPU reference");
  }
  for (int64_t d : data.shape) {
    if (d < 0) return InvalidArgumentError("shape " + ShapeToString(data.shape) + " is not static");
  }
  const int64_t count = data.element_count();
  if (data.bytes.size() != static_cast<size_t>(count) * element_size) {
    return InvalidArgumentError("holds " + std::to_string(data.bytes.size()) + " bytes, " +
                                DataTypeName(data.dtype) + " " + ShapeToString(data.shape) +
                                " needs " + std::to_string(count * element_size));
  }
  Value value;
  value.dtype = data.dtype;
  value.shape = data.shape;
  const uint8_t* bytes = data.bytes.data();
  if (IsFloatingType(data.dtype)) {
    value.floats.resize(count);
    for (int64_t i = 0; i < count; ++i) {
      switch (data.dtype) {
        case DataType::kFloat32: value.floats[i] = LoadAt<float>(bytes, i); break;
        case DataType::kFloat16: value.floats[i] = HalfToFloat(LoadAt<uint16_t>(bytes, i)); break;
        default: value.floats[i] = static_cast<float>(LoadAt<double>(bytes, i)); break;
      }
    }
    return value;
  }
  value.ints.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    switch (data.dtype) {
      case DataType::kInt8: value.ints[i] = LoadAt<int8_t>(bytes, i); break;
      case DataType::kUint8: value.ints[i] = LoadAt<uint8_t>(bytes, i); break;
      case DataType::kInt16: value.ints[i] = LoadAt<int16_t>(bytes, i); break;
      case DataType::kInt32: value.ints[i] = LoadAt<int32_t>(bytes, i); break;
      case DataType::kBool: value.ints[i] = LoadAt<uint8_t>(bytes, i) != 0; break;
      default: value.ints[i] = LoadAt<int64_t>(bytes, i); break;
    }
  }
  return value;
}

TensorData ValueToTensorData(const Value& value) {
  TensorData data;
  data.dtype = value.dtype;
  data.shape = value.shape;
  const int64_t count = value.size();
  data.bytes.resize(static_cast<size_t>(count) * DataTypeSize(value.dtype));
  uint8_t* bytes = data.bytes.data();
  for (int64_t i = 0; i < count; ++i) {
    switch (value.dtype) {
      case DataType::kFloat32: StoreAt<float>(bytes, i, value.floats[i]); break;
      case DataType::kFloat16: StoreAt<uint16_t>(bytes, i, FloatToHalf(value.floats[i])); break;
      case DataType::kFloat64: StoreAt<double>(bytes, i, value.floats[i]); break;
      case DataType::kInt8: StoreAt<int8_t>(bytes, i, static_cast<int8_t>(value.ints[i])); break;
      case DataType::kUint8: StoreAt<uint8_t>(bytes, i, static_cast<uint8_t>(value.ints[i])); break;
      case DataType::kInt16: StoreAt<int16_t>(bytes, i, static_cast<int16_t>(value.ints[i])); break;
      case DataType::kInt32: StoreAt<int32_t>(bytes, i, static_cast<int32_t>(value.ints[i])); break;
      case DataType::kInt64: StoreAt<int64_t>(bytes, i, value.ints[i]); break;
      case DataType::kBool: StoreAt<uint8_t>(bytes, i, value.ints[i] != 0); break;
      default: break;
    }
  }
  return data;
}

std::string DescribeValue(const Value& value) {
  return std::string(DataTypeName(value.dtype)) + " " + ShapeToString(value.shape);
}

}  // namespace cpu_reference
}  // namespace glpool
