// Values crossing the graph's edge: the GPU stores every tensor as floats
// (float32, or half where the executor chose fp16), so integer and bool
// tensors travel as whole numbers in float32 storage. These conversions are
// exact or they fail: an integer beyond float32's whole-number range, or a
// result that does not fit its declared type, is an error naming the tensor,
// never a silently rounded value.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Every integer up to this magnitude is exact in float32 storage.
inline constexpr int64_t kGpuExactIntegerLimit = int64_t{1} << 24;

// The values the GPU stores for `data` (graph input or constant `name`).
// float64 rounds to float32 (exactly Cast's double->float; only Cast
// accepts float64 tensors); integers must lie within kGpuExactIntegerLimit.
StatusOr<std::vector<float>> ToGpuValues(const TensorData& data, const std::string& name);

// A result read back from the GPU as `dtype`: floats as they are (float16
// and float64 exactly), integers rounded to the nearest whole number and
// checked against the type's range, bools as value != 0.
StatusOr<TensorData> FromGpuValues(DataType dtype, const Shape& shape, const std::vector<float>& values,
                                   const std::string& name);

}  // namespace glpool
