#include "samples/ocr_draw.h"

#include <algorithm>

// Static: this file's copy of the writer cannot clash with another's.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace glpool {

Status WriteBoxesPng(const RgbImage& image, const std::vector<TextBox>& boxes, const std::string& path) {
  if (image.width < 1 || image.height < 1 || image.width > (1 << 16) || image.height > (1 << 16)) {
    return InvalidArgumentError("cannot write " + path + ": a " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + " image is not a PNG's size");
  }
  RgbImage drawn = image;
  constexpr int64_t kLine = 2;
  constexpr uint8_t kGreen[3] = {0, 200, 0};
  auto paint = [&](int64_t x, int64_t y) {
    if (x < 0 || y < 0 || x >= drawn.width || y >= drawn.height) return;
    for (int c = 0; c < 3; ++c) drawn.pixels[static_cast<size_t>((y * drawn.width + x) * 3 + c)] = kGreen[c];
  };
  for (const TextBox& box : boxes) {
    for (int64_t y = box.y0; y < box.y1; ++y) {
      for (int64_t x = box.x0; x < box.x1; ++x) {
        const bool edge = x < box.x0 + kLine || x >= box.x1 - kLine || y < box.y0 + kLine || y >= box.y1 - kLine;
        if (edge) paint(x, y);
      }
    }
  }
  const int width = static_cast<int>(drawn.width), height = static_cast<int>(drawn.height);
  if (stbi_write_png(path.c_str(), width, height, 3, drawn.pixels.data(), width * 3) == 0) {
    return InvalidArgumentError("cannot write the boxes PNG " + path);
  }
  return Status::Ok();
}

}  // namespace glpool
