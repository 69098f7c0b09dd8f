// Tensors as they cross the API on the CPU: a dtype, a logical shape
// (row-major, NCHW for images) and the raw little-endian bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/status.h"

namespace glpool {

enum class DataType {
  kUndefined,
  kFloat32,
  kFloat16,
  kFloat64,
  kInt8,
  kUint8,
  kInt16,
  kInt32,
  kInt64,
  kBool,
  kString,
};

GLPOOL_API const char* DataTypeName(DataType type);  // "float32", "int64", ...
// Bytes per element; 0 for kUndefined and kString.
GLPOOL_API size_t DataTypeSize(DataType type);
// int8..int64, uint8 and bool: the types whose values are whole numbers.
GLPOOL_API bool IsIntegerOrBool(DataType type);

using Shape = std::vector<int64_t>;
GLPOOL_API int64_t ElementCount(const Shape& shape);
GLPOOL_API std::string ShapeToString(const Shape& shape);  // "1x3x224x224", "scalar"

// The size limits every tensor glpool holds must meet (docs/limits.md): at
// most 2^40 elements (zero dims aside, the others' product too) and 4 GiB.
// kUnsupported naming `what` with the bytes it would need; call it before
// allocating a tensor of a shape that came from outside.
inline constexpr int64_t kMaxShapeElements = int64_t{1} << 40;
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 32;
GLPOOL_API Status CheckTensorSize(const std::string& what, const Shape& shape, DataType dtype);

// One tensor's contents: `bytes` holds ElementCount(shape) elements of
// `dtype`, little-endian, row-major. Session::Run takes and returns these.
struct GLPOOL_API TensorData {
  DataType dtype = DataType::kUndefined;
  Shape shape;
  std::vector<uint8_t> bytes;

  int64_t element_count() const { return ElementCount(shape); }
  // Converting reads; any numeric dtype converts.
  std::vector<float> ToFloats() const;
  std::vector<int64_t> ToInt64s() const;
  static TensorData FromFloats(Shape shape, const std::vector<float>& values);
  static TensorData FromInt64s(Shape shape, const std::vector<int64_t>& values);
};

// `values` as a tensor of float type `dtype`: float32, float16 (each value
// rounded to the nearest half, ties to even; beyond half's range it becomes
// infinity, as a cast does) or float64. kInvalidArgument for other types.
GLPOOL_API StatusOr<TensorData> FloatsAsTensor(DataType dtype, Shape shape, const std::vector<float>& values);

// "1x3x224x224" (also "1,3,224,224"; "scalar" or "" for rank 0).
GLPOOL_API StatusOr<Shape> ParseShapeText(const std::string& text);

// Reads a serialized ONNX TensorProto file (.pb, as in ONNX test data sets).
GLPOOL_API StatusOr<TensorData> LoadTensorFile(const std::string& path);
// Writes `data` as a serialized TensorProto named `name` (LoadTensorFile and
// ONNX tools read it back).
GLPOOL_API Status SaveTensorFile(const TensorData& data, const std::string& name, const std::string& path);

}  // namespace glpool
