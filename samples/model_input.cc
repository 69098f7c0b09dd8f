#include "samples/model_input.h"

#include <random>

#include <algorithm>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

namespace glpool {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StatusOr<TensorData> LoadImage(const std::string& path, const std::string& name, const Shape& shape) {
  if (shape.size() != 4 || shape[1] != 3) {
    return InvalidArgumentError("image input " + path + ": the model input '" + name + "' has shape " +
                                ShapeToString(shape) + ", not Nx3xHxW");
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &width, &height, &channels, 3);
  if (pixels == nullptr) return InvalidArgumentError("reading image " + path + ": " + stbi_failure_reason());
  const int64_t n = shape[0], out_h = shape[2], out_w = shape[3];
  std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
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
  return TensorData::FromFloats(shape, values);
}

}  // namespace

StatusOr<TensorData> LoadModelInput(const std::string& path, const std::string& name, const Shape& shape) {
  if (path.empty()) {
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(ElementCount(shape)));
    for (float& v : values) v = uniform(rng);
    return TensorData::FromFloats(shape, values);
  }
  if (EndsWith(path, ".pb")) {
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, LoadTensorFile(path));
    if (data.shape != shape) {
      return InvalidArgumentError("input file " + path + " holds shape " + ShapeToString(data.shape) +
                                  ", the model input '" + name + "' expects " + ShapeToString(shape));
    }
    return data;
  }
  return LoadImage(path, name, shape);
}

}  // namespace glpool
