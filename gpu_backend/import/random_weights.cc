#include "gpu_backend/import/random_weights.h"

#include <cmath>
#include <cstring>

#include "gpu_backend/graph/float16.h"

namespace glpool {
namespace {

uint64_t HashName(const std::string& name) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

TensorData Fill(const std::string& name, DataType dtype, const Shape& shape, float low, float high) {
  TensorData data;
  data.dtype = dtype;
  data.shape = shape;
  const int64_t count = ElementCount(shape);
  const size_t size = DataTypeSize(dtype);
  data.bytes.assign(static_cast<size_t>(count) * size, 0);
  const bool is_float = dtype == DataType::kFloat32 || dtype == DataType::kFloat16 ||
                        dtype == DataType::kFloat64;
  if (!is_float) return data;
  uint64_t state = HashName(name);
  if (dtype == DataType::kFloat32) {
    // The common case, hot for big graph-only models: two values per draw.
    const float scale = (high - low) / 16777216.0f;
    float* out = reinterpret_cast<float*>(data.bytes.data());
    for (int64_t i = 0; i < count; i += 2) {
      const uint64_t bits = SplitMix64(state);
      out[i] = low + static_cast<float>(bits >> 40) * scale;
      if (i + 1 < count) out[i + 1] = low + static_cast<float>((bits >> 8) & 0xffffffu) * scale;
    }
    return data;
  }
  for (int64_t i = 0; i < count; ++i) {
    const double unit = static_cast<double>(SplitMix64(state) >> 11) * (1.0 / 9007199254740992.0);
    const double value = low + (high - low) * unit;
    uint8_t* out = data.bytes.data() + static_cast<size_t>(i) * size;
    if (dtype == DataType::kFloat16) {
      const uint16_t h = FloatToHalf(static_cast<float>(value));
      std::memcpy(out, &h, sizeof(h));
    } else {
      std::memcpy(out, &value, sizeof(value));
    }
  }
  return data;
}

}  // namespace

TensorData RandomTensorData(const std::string& name, DataType dtype, const Shape& shape) {
  double bound = 0.1;
  if (shape.size() >= 2) {
    // In double: dims after an empty first one may be huge (the tensor is
    // still empty), and their int64 product would overflow.
    double fan_in = 1;
    for (size_t i = 1; i < shape.size(); ++i) fan_in *= static_cast<double>(shape[i]);
    if (fan_in > 0) bound = 1.0 / std::sqrt(fan_in);
  }
  return Fill(name, dtype, shape, static_cast<float>(-bound), static_cast<float>(bound));
}

TensorData RandomTensorDataInRange(const std::string& name, DataType dtype, const Shape& shape,
                                   float low, float high) {
  return Fill(name, dtype, shape, low, high);
}

}  // namespace glpool
