#include "gpu_backend/runtime/gpu_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "gpu_backend/graph/float16.h"

namespace glpool {
namespace {

template <typename T>
TensorData PackAs(DataType dtype, const Shape& shape, const std::vector<T>& values) {
  TensorData data;
  data.dtype = dtype;
  data.shape = shape;
  data.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(data.bytes.data(), values.data(), data.bytes.size());
  return data;
}

// Rounds every value to a whole number within T's range, or says which one
// does not fit.
template <typename T>
StatusOr<TensorData> WholeNumbers(DataType dtype, const Shape& shape, const std::vector<float>& values,
                                  const std::string& name) {
  std::vector<T> out(values.size());
  const double low = static_cast<double>(std::numeric_limits<T>::lowest());
  const double high = static_cast<double>(std::numeric_limits<T>::max());
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = std::nearbyint(static_cast<double>(values[i]));
    if (!std::isfinite(v) || v < low || v > high) {
      return InternalError("tensor '" + name + "': the GPU computed " + std::to_string(values[i]) +
                           " at element " + std::to_string(i) + ", which does not fit " + DataTypeName(dtype) +
                           " (integer overflow is not emulated on the GPU)");
    }
    out[i] = static_cast<T>(v);
  }
  return PackAs(dtype, shape, out);
}

}  // namespace

StatusOr<std::vector<float>> ToGpuValues(const TensorData& data, const std::string& name) {
  if (data.dtype == DataType::kString || data.dtype == DataType::kUndefined) {
    return UnsupportedError("tensor '" + name + "' is " + DataTypeName(data.dtype) + ", which the GPU cannot hold");
  }
  if (!IsIntegerOrBool(data.dtype)) return data.ToFloats();
  const std::vector<int64_t> whole = data.ToInt64s();
  std::vector<float> values(whole.size());
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i] > kGpuExactIntegerLimit || whole[i] < -kGpuExactIntegerLimit) {
      return InvalidArgumentError("tensor '" + name + "': " + DataTypeName(data.dtype) + " value " +
                                  std::to_string(whole[i]) + " at element " + std::to_string(i) +
                                  " is beyond the GPU's exact whole-number range (+-" +
                                  std::to_string(kGpuExactIntegerLimit) + " in float32 storage)");
    }
    values[i] = static_cast<float>(whole[i]);
  }
  return values;
}

StatusOr<TensorData> FromGpuValues(DataType dtype, const Shape& shape, const std::vector<float>& values,
                                   const std::string& name) {
  switch (dtype) {
    case DataType::kFloat32: return TensorData::FromFloats(shape, values);
    case DataType::kFloat64: return PackAs(dtype, shape, std::vector<double>(values.begin(), values.end()));
    case DataType::kFloat16: {
      std::vector<uint16_t> halves(values.size());
      for (size_t i = 0; i < values.size(); ++i) halves[i] = FloatToHalf(values[i]);
      return PackAs(dtype, shape, halves);
    }
    case DataType::kBool: {
      std::vector<uint8_t> flags(values.size());
      for (size_t i = 0; i < values.size(); ++i) flags[i] = values[i] != 0.0f ? 1 : 0;
      return PackAs(dtype, shape, flags);
    }
    case DataType::kInt8: return WholeNumbers<int8_t>(dtype, shape, values, name);
    case DataType::kUint8: return WholeNumbers<uint8_t>(dtype, shape, values, name);
    case DataType::kInt16: return WholeNumbers<int16_t>(dtype, shape, values, name);
    case DataType::kInt32: return WholeNumbers<int32_t>(dtype, shape, values, name);
    case DataType::kInt64: return WholeNumbers<int64_t>(dtype, shape, values, name);
    case DataType::kUndefined:
    case DataType::kString: break;
  }
  return UnsupportedError("tensor '" + name + "' is " + DataTypeName(dtype) + ", which the GPU cannot return");
}

}  // namespace glpool
