// Fuzz target: image bytes (PNG, JPEG, BMP through stb_image; others refused) as
// `glpool run --input IMAGE` reads them (samples/image_input.h), resized to
// a small model input. The first byte picks the input's H and W so the
// resize sees shapes both smaller and larger than the image.
#include <cstddef>
#include <cstdint>
#include <string>

#include "samples/image_input.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace glpool;
  if (size == 0) return 0;
  InputSpec input;
  input.name = "image";
  input.dtype = DataType::kFloat32;
  input.shape = {1 + (data[0] & 1), 3, 1 + ((data[0] >> 1) & 15), 1 + ((data[0] >> 5) & 7)};
  // A smaller pixel limit than the command's: the limit's check is what is
  // under test, and large decodes would make each input take milliseconds.
  constexpr uint64_t kFuzzMaxPixels = uint64_t{1} << 16;
  // Every resize mode, chosen by the input's length.
  ImagePreprocess preprocess;
  preprocess.resize = static_cast<ResizeMode>(size % 3);
  preprocess.bgr = (size / 3) % 2 == 1;
  StatusOr<TensorData> tensor = DecodeImageInput(std::string(reinterpret_cast<const char*>(data) + 1, size - 1),
                                                 "<fuzz>", input, preprocess, kFuzzMaxPixels);
  if (!tensor.ok()) {
    fuzz::CheckCleanError(tensor.status());
    return 0;
  }
  FUZZ_CHECK(tensor->shape == input.shape, "decoded shape " + ShapeToString(tensor->shape));
  const float* values = reinterpret_cast<const float*>(tensor->bytes.data());
  for (int64_t i = 0; i < tensor->element_count(); ++i) {
    FUZZ_CHECK(values[i] >= 0.0f && values[i] <= 1.0f, "a pixel value outside [0, 1]");
  }
  return 0;
}
