#include "samples/overlay/visual_output.h"

#include <algorithm>
#include <cmath>

namespace glpool::overlay {

std::optional<VisualOutput> MakeVisualOutput(const std::map<std::string, TensorData>& inputs,
                                             const std::map<std::string, TensorData>& outputs) {
  for (const auto& [input_name, image] : inputs) {
    const Shape& s = image.shape;
    if (s.size() != 4 || s[0] != 1 || s[1] != 3) continue;
    for (const auto& [output_name, mask] : outputs) {
      const Shape& m = mask.shape;
      if (m.size() != 4 || m[0] != 1 || m[1] != 1 || m[2] != s[2] || m[3] != s[3]) continue;
      const int h = static_cast<int>(s[2]), w = static_cast<int>(s[3]);
      const std::vector<float> pixels = image.ToFloats();
      const std::vector<float> values = mask.ToFloats();
      const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
      const float lo = *lo_it, range = std::max(*hi_it - *lo_it, 1e-12f);
      // The input may be normalised (mean/std); stretch it by its own range too.
      const auto [plo_it, phi_it] = std::minmax_element(pixels.begin(), pixels.end());
      const float plo = *plo_it, prange = std::max(*phi_it - *plo_it, 1e-12f);
      VisualOutput out{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h * 4), input_name, output_name};
      const size_t plane = static_cast<size_t>(w) * h;
      for (size_t i = 0; i < plane; ++i) {
        const float a = 0.6f * (values[i] - lo) / range;  // mask strength
        const float tint[3] = {1.0f, 0.25f, 0.1f};
        for (int c = 0; c < 3; ++c) {
          const float base = (pixels[c * plane + i] - plo) / prange;
          const float v = (1 - a) * base + a * tint[c];
          out.rgba[i * 4 + c] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
        }
        out.rgba[i * 4 + 3] = 255;
      }
      return out;
    }
  }
  return std::nullopt;
}

VisualOutput VisualFromRgb(const RgbImage& image, const std::string& input, const std::string& label) {
  VisualOutput out;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.input = input;
  out.mask = label;
  out.rgba.reserve(image.pixels.size() / 3 * 4);
  for (size_t i = 0; i + 2 < image.pixels.size(); i += 3) {
    out.rgba.insert(out.rgba.end(), {image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], 255});
  }
  return out;
}

}  // namespace glpool::overlay
