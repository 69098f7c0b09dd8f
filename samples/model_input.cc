#include "samples/model_input.h"

#include <climits>
#include <random>

#include "common/file_read.h"
#include "gpu_backend/import/onnx_import.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

namespace glpool {
namespace {

constexpr uint64_t kMaxImageFileBytes = uint64_t{1} << 28;  // 256 MiB
constexpr int kMaxImageSide = 16384;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StatusOr<TensorData> LoadImage(const std::string& path, const Tensor& input) {
  if (input.shape.size() != 4 || input.shape[1] != 3) {
    return InvalidArgumentError("image input " + path + ": the model input '" + input.name + "' has shape " +
                                ShapeToString(input.shape) + ", not Nx3xHxW");
  }
  if (input.dtype != DataType::kFloat32) {
    return InvalidArgumentError("image input " + path + ": the model input '" + input.name + "' is " +
                                DataTypeName(input.dtype) + ", not float32");
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::string bytes, ReadWholeFile(path, "image", kMaxImageFileBytes));
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return InvalidArgumentError("image " + path + " is too large");
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  // The header's size first: a small file may claim a picture of gigabytes.
  if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
    return InvalidArgumentError("reading image " + path + ": " + stbi_failure_reason());
  }
  if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide) {
    return InvalidArgumentError("image " + path + " is " + std::to_string(width) + "x" + std::to_string(height) +
                                " pixels; images up to " + std::to_string(kMaxImageSide) + " a side are read");
  }
  unsigned char* pixels = stbi_load_from_memory(data, length, &width, &height, &channels, 3);
  if (pixels == nullptr) return InvalidArgumentError("reading image " + path + ": " + stbi_failure_reason());
  const int64_t n = input.shape[0], out_h = input.shape[2], out_w = input.shape[3];
  std::vector<float> values(static_cast<size_t>(ElementCount(input.shape)));
  // Bilinear resize to the model's input, pixel centres aligned (half-pixel).
  for (int64_t y = 0; y < out_h; ++y) {
    const float sy = std::max(0.0f, (y + 0.5f) * height / out_h - 0.5f);
    const int y0 = std::min(static_cast<int>(sy), height - 1), y1 = std::min(y0 + 1, height - 1);
    const float fy = sy - y0;
    for (int64_t x = 0; x < out_w; ++x) {
      const float sx = std::max(0.0f, (x + 0.5f) * width / out_w - 0.5f);
      const int x0 = std::min(static_cast<int>(sx), width - 1), x1 = std::min(x0 + 1, width - 1);
      const float fx = sx - x0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int yy, int xx) { return pixels[(yy * width + xx) * 3 + c] / 255.0f; };
        const float top = at(y0, x0) * (1 - fx) + at(y0, x1) * fx;
        const float bottom = at(y1, x0) * (1 - fx) + at(y1, x1) * fx;
        for (int64_t b = 0; b < n; ++b) values[((b * 3 + c) * out_h + y) * out_w + x] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  stbi_image_free(pixels);
  return TensorData::FromFloats(input.shape, values);
}

}  // namespace

StatusOr<TensorData> LoadModelInput(const std::string& path, const Tensor& input) {
  // The element count is bounded at import (a graph input holds at most
  // kMaxTensorBytes), so these allocations are too.
  if (path.empty()) {
    if (input.dtype != DataType::kFloat32) {
      // Integer and bool inputs are indices, lengths or masks: a random fill
      // means nothing there, zeros at least stay in range.
      TensorData zeros;
      zeros.dtype = input.dtype;
      zeros.shape = input.shape;
      zeros.bytes.assign(static_cast<size_t>(ElementCount(input.shape)) * DataTypeSize(input.dtype), 0);
      return zeros;
    }
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(ElementCount(input.shape)));
    for (float& v : values) v = uniform(rng);
    return TensorData::FromFloats(input.shape, values);
  }
  if (EndsWith(path, ".pb")) {
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorProtoFile(path));
    if (data.dtype != input.dtype) {
      return InvalidArgumentError("input file " + path + " holds " + DataTypeName(data.dtype) +
                                  " values, the model input '" + input.name + "' is " + DataTypeName(input.dtype));
    }
    if (data.shape != input.shape) {
      return InvalidArgumentError("input file " + path + " holds shape " + ShapeToString(data.shape) +
                                  ", the model input '" + input.name + "' expects " + ShapeToString(input.shape));
    }
    return data;
  }
  return LoadImage(path, input);
}

}  // namespace glpool
