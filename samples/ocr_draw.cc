#include "samples/ocr_draw.h"

#include <algorithm>
#include <cmath>

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
  constexpr uint8_t kGreen[3] = {0, 200, 0};
  // A 2 x 2 dot up and left of (x, y): a side on the image's right or
  // bottom edge (corners are clipped to width and height) stays visible.
  auto dot = [&](double x, double y) {
    const int64_t cx = std::llround(x), cy = std::llround(y);
    for (int64_t py = cy - 1; py <= cy; ++py) {
      for (int64_t px = cx - 1; px <= cx; ++px) {
        if (px < 0 || py < 0 || px >= drawn.width || py >= drawn.height) continue;
        for (int c = 0; c < 3; ++c) drawn.pixels[static_cast<size_t>((py * drawn.width + px) * 3 + c)] = kGreen[c];
      }
    }
  };
  for (const TextBox& box : boxes) {
    for (size_t i = 0; i < 4; ++i) {
      const Point a = box.corners[i], b = box.corners[(i + 1) % 4];
      // Half-pixel steps leave no gap between dots.
      const int64_t steps = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(2 * Distance(a, b))));
      for (int64_t k = 0; k <= steps; ++k) {
        const double f = static_cast<double>(k) / static_cast<double>(steps);
        dot(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
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
