// Fuzz target: a serialized ONNX TensorProto, as `glpool run --input X.pb`
// and the ONNX test cases read it (ParseTensorProtoBytes, tensor_proto.h).
// The decoded tensor must hold exactly as many bytes as its shape says.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu_backend/import/tensor_proto.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace glpool;
  // External data is looked up in a folder that does not exist.
  StatusOr<TensorData> tensor = ParseTensorProtoBytes(std::string(reinterpret_cast<const char*>(data), size),
                                                      "<fuzz>.pb", "/nonexistent/glpool-fuzz");
  if (!tensor.ok()) {
    fuzz::CheckCleanError(tensor.status());
    return 0;
  }
  for (int64_t d : tensor->shape) FUZZ_CHECK(d >= 0, "a negative dim in " + ShapeToString(tensor->shape));
  FUZZ_CHECK(tensor->bytes.size() == static_cast<size_t>(tensor->element_count()) * DataTypeSize(tensor->dtype),
             "payload size disagrees with shape " + ShapeToString(tensor->shape));
  return 0;
}
