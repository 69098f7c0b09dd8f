// What the quantized ops (QuantizeLinear, QLinearMatMul, ConvInteger,
// QLinearConv...) share: ONNX's 8-bit types and saturation into them.
#pragma once

#include <cmath>
#include <cstdint>

#include "gpu_backend/graph/graph.h"

namespace glpool::cpu_reference {

inline bool IsQuantizedType(DataType dtype) { return dtype == DataType::kUint8 || dtype == DataType::kInt8; }

// `value` clamped into uint8's [0, 255] or int8's [-128, 127] (the caller
// rounds first, as each op's spec says).
inline int64_t Saturate(DataType dtype, double value) {
  const double lo = dtype == DataType::kUint8 ? 0 : -128, hi = dtype == DataType::kUint8 ? 255 : 127;
  return static_cast<int64_t>(std::fmin(std::fmax(value, lo), hi));
}

}  // namespace glpool::cpu_reference
