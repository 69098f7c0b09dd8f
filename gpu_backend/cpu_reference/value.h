// Value: a tensor while the CPU reference runs a graph.
//
// The reference computes in fp32, so every floating dtype keeps its numbers
// in `floats` and every integer or bool dtype in `ints` (int64 holds them all
// exactly). `dtype` stays the ONNX type, so converting back to TensorData at
// the graph's edge reproduces it exactly (uint8 wraps as numpy does).
// float16 values are halves held in `floats`: the executor hands them to
// kernels as float32 and rounds float32 results back to half (ONNX's float16
// semantics with float32 accumulation, which the spec allows). float64
// values exist only so Cast can convert them; every other kernel refuses
// them (the executor checks, see registry.h).
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

struct Value {
  DataType dtype = DataType::kUndefined;
  Shape shape;
  std::vector<float> floats;  // when IsFloatingType(dtype)
  std::vector<int64_t> ints;  // when IsIntegerOrBool(dtype)

  int64_t size() const { return ElementCount(shape); }
  bool is_floating() const;
};

bool IsFloatingType(DataType dtype);  // float32, float16, float64

Value MakeFloatValue(Shape shape, std::vector<float> values);
Value MakeIntValue(DataType dtype, Shape shape, std::vector<int64_t> values);

// Fails for string/undefined dtypes and for byte counts that do not match
// the shape (a truncated tensor), naming neither: callers add the tensor name.
StatusOr<Value> ValueFromTensorData(const TensorData& data);
TensorData ValueToTensorData(const Value& value);

// Integer values wrap to their dtype's range (numpy semantics for uint8 etc).
int64_t WrapToType(DataType dtype, int64_t value);

// "float32 1x3x8x8", for error messages.
std::string DescribeValue(const Value& value);

}  // namespace cpu_reference
}  // namespace glpool
