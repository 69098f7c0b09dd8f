#include "samples/mask_png.h"

#include <algorithm>
#include <cmath>
#include <vector>

// Static: this file's copy of the writer cannot clash with another's.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace glpool {

Status WriteMaskPng(const TensorData& mask, const std::string& path) {
  if (mask.shape.size() != 4 || mask.shape[1] != 1) {
    return InvalidArgumentError("a mask PNG needs an Nx1xHxW output, this one is " + ShapeToString(mask.shape));
  }
  constexpr int64_t kMaxSide = 1 << 16;  // PNG writers and viewers stop well before
  if (mask.shape[2] < 1 || mask.shape[3] < 1 || mask.shape[2] > kMaxSide || mask.shape[3] > kMaxSide) {
    return InvalidArgumentError("a mask PNG needs 1 to " + std::to_string(kMaxSide) + " pixels a side, this output is " +
                                ShapeToString(mask.shape));
  }
  const int height = static_cast<int>(mask.shape[2]), width = static_cast<int>(mask.shape[3]);
  const std::vector<float> values = mask.ToFloats();
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height);
  // A NaN or infinity has no grey level: a picture of it would be silently
  // wrong (black where the network failed), so it is an error instead.
  const size_t bad = static_cast<size_t>(
      std::count_if(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(pixels.size()),
                    [](float v) { return !std::isfinite(v); }));
  if (bad > 0) {
    return InvalidArgumentError("the mask holds " + std::to_string(bad) + " NaN or infinite values among its " +
                                std::to_string(pixels.size()) + " pixels; no PNG written");
  }
  for (size_t i = 0; i < pixels.size(); ++i) {
    pixels[i] = static_cast<unsigned char>(std::clamp(values[i], 0.0f, 1.0f) * 255.0f + 0.5f);
  }
  if (stbi_write_png(path.c_str(), width, height, 1, pixels.data(), width) == 0) {
    return InvalidArgumentError("cannot write " + path);
  }
  return Status::Ok();
}

}  // namespace glpool
