// Value-level helpers shared by the shape rules and the constant folder:
// dtype-independent reads/writes of constant tensors, broadcasting, axes.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

bool IsFloatType(DataType dtype);

// Row-major strides of `shape` (elements).
std::vector<int64_t> Strides(const Shape& shape);

// Maps `axis` in [-rank, rank) to [0, rank); kInvalidModel otherwise.
StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const std::string& what = "axis");

// Reads every element as double (exact for integers up to 2^53).
std::vector<double> ToDoubles(const TensorData& data);

// Builds a tensor of `dtype` from values, converting each (bool: != 0).
TensorData TensorFromInt64s(DataType dtype, Shape shape, const std::vector<int64_t>& values);
TensorData TensorFromDoubles(DataType dtype, Shape shape, const std::vector<double>& values);

// Copies element `from` of `src` to element `to` of `dst` (same dtype).
inline void CopyElement(const TensorData& src, int64_t from, TensorData* dst, int64_t to, size_t size) {
  for (size_t b = 0; b < size; ++b) {
    dst->bytes[static_cast<size_t>(to) * size + b] = src.bytes[static_cast<size_t>(from) * size + b];
  }
}

}  // namespace glpool
