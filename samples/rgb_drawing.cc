#include "samples/rgb_drawing.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include <stb_image_write.h>

namespace glpool {
namespace {

void Put(RgbImage& image, int64_t x, int64_t y, Rgb color) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  const size_t at = static_cast<size_t>((y * image.width + x) * 3);
  for (int c = 0; c < 3; ++c) image.pixels[at + static_cast<size_t>(c)] = color[static_cast<size_t>(c)];
}

}  // namespace

void DrawBoxOutline(RgbImage& image, float left, float top, float right, float bottom, Rgb color, int thickness) {
  const int64_t x0 = std::llround(std::max(0.0f, left)), y0 = std::llround(std::max(0.0f, top));
  const int64_t x1 = std::llround(std::min(static_cast<float>(image.width - 1), right));
  const int64_t y1 = std::llround(std::min(static_cast<float>(image.height - 1), bottom));
  if (x1 < x0 || y1 < y0) return;
  for (int t = 0; t < thickness; ++t) {
    for (int64_t x = x0; x <= x1; ++x) {
      Put(image, x, y0 + t, color);
      Put(image, x, y1 - t, color);
    }
    for (int64_t y = y0; y <= y1; ++y) {
      Put(image, x0 + t, y, color);
      Put(image, x1 - t, y, color);
    }
  }
}

void DrawDot(RgbImage& image, float x, float y, float radius, Rgb color) {
  const int64_t r = static_cast<int64_t>(std::ceil(radius));
  const int64_t cx = std::llround(x), cy = std::llround(y);
  for (int64_t dy = -r; dy <= r; ++dy) {
    for (int64_t dx = -r; dx <= r; ++dx) {
      if (static_cast<float>(dx * dx + dy * dy) <= radius * radius) Put(image, cx + dx, cy + dy, color);
    }
  }
}

void BlendMask(RgbImage& image, const std::vector<float>& mask, Rgb tint) {
  const size_t pixels = std::min(mask.size(), static_cast<size_t>(image.width * image.height));
  for (size_t i = 0; i < pixels; ++i) {
    const float keep = std::clamp(mask[i], 0.0f, 1.0f);
    for (size_t c = 0; c < 3; ++c) {
      uint8_t& v = image.pixels[i * 3 + c];
      // Background: a third of the photo under a tint, so the cut-out reads
      // at a glance and the scene stays recognisable.
      const float background = 0.35f * v + 0.65f * tint[c];
      v = static_cast<uint8_t>(std::lround(keep * v + (1 - keep) * background));
    }
  }
}

Status WriteRgbPng(const RgbImage& image, const std::string& path) {
  if (image.width <= 0 || image.height <= 0 || image.width > INT32_MAX / 3 || image.height > INT32_MAX) {
    return InvalidArgumentError(path + ": cannot write a " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + " image");
  }
  const int width = static_cast<int>(image.width), height = static_cast<int>(image.height);
  if (stbi_write_png(path.c_str(), width, height, 3, image.pixels.data(), width * 3) == 0) {
    return InvalidArgumentError(path + ": cannot write the PNG (is the folder there and writable?)");
  }
  return Status::Ok();
}

}  // namespace glpool
