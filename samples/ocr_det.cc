#include "samples/ocr_det.h"

#include <algorithm>
#include <cmath>

namespace glpool {
namespace {

// One 8-connected component of the thresholded map: its bounding box in map
// pixels (inclusive) found by an explicit-stack flood fill.
struct Component {
  int64_t x0, y0, x1, y1;
};

std::vector<Component> Components(const std::vector<uint8_t>& text, int64_t width, int64_t height) {
  std::vector<uint8_t> seen(text.size(), 0);
  std::vector<Component> components;
  std::vector<int64_t> stack;
  for (int64_t start = 0; start < width * height; ++start) {
    if (!text[static_cast<size_t>(start)] || seen[static_cast<size_t>(start)]) continue;
    Component c{start % width, start / width, start % width, start / width};
    seen[static_cast<size_t>(start)] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const int64_t at = stack.back();
      stack.pop_back();
      const int64_t x = at % width, y = at / width;
      c.x0 = std::min(c.x0, x);
      c.x1 = std::max(c.x1, x);
      c.y0 = std::min(c.y0, y);
      c.y1 = std::max(c.y1, y);
      for (int64_t dy = -1; dy <= 1; ++dy) {
        for (int64_t dx = -1; dx <= 1; ++dx) {
          const int64_t nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const size_t next = static_cast<size_t>(ny * width + nx);
          if (text[next] && !seen[next]) {
            seen[next] = 1;
            stack.push_back(ny * width + nx);
          }
        }
      }
    }
    components.push_back(c);
  }
  return components;
}

}  // namespace

std::pair<int64_t, int64_t> DetInputSize(int64_t width, int64_t height, int64_t limit_side) {
  const double ratio = std::min(1.0, static_cast<double>(limit_side) / static_cast<double>(std::max(width, height)));
  auto round32 = [&](int64_t side) {
    return std::max<int64_t>(32, static_cast<int64_t>(std::lround(side * ratio / 32.0)) * 32);
  };
  return {round32(height), round32(width)};
}

TensorData DetInput(const RgbImage& image, int64_t limit_side) {
  const auto [height, width] = DetInputSize(image.width, image.height, limit_side);
  ImagePreprocess imagenet_bgr;
  imagenet_bgr.mean = {0.485f, 0.456f, 0.406f};
  imagenet_bgr.std = {0.229f, 0.224f, 0.225f};
  imagenet_bgr.bgr = true;
  // Same size after ResizeImage: ImageToTensor then reads pixels exactly.
  return ImageToTensor(ResizeImage(image, width, height), {1, 3, height, width}, imagenet_bgr);
}

std::vector<TextBox> BoxesFromProbabilityMap(const std::vector<float>& probability, int64_t map_width,
                                             int64_t map_height, int64_t image_width, int64_t image_height,
                                             const DetPostprocess& options) {
  std::vector<uint8_t> text(probability.size());
  for (size_t i = 0; i < probability.size(); ++i) text[i] = probability[i] > options.threshold ? 1 : 0;
  std::vector<Component> components = Components(text, map_width, map_height);
  if (components.size() > options.max_candidates) components.resize(options.max_candidates);
  std::vector<TextBox> boxes;
  for (const Component& c : components) {
    // As DB's postprocess: corners at pixel centres, so a component one
    // pixel wide has width 0.
    const double w = static_cast<double>(c.x1 - c.x0), h = static_cast<double>(c.y1 - c.y0);
    if (std::min(w, h) < static_cast<double>(options.min_size)) continue;
    double sum = 0;
    for (int64_t y = c.y0; y <= c.y1; ++y) {
      for (int64_t x = c.x0; x <= c.x1; ++x) sum += probability[static_cast<size_t>(y * map_width + x)];
    }
    const float score = static_cast<float>(sum / static_cast<double>((c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1)));
    if (score < options.box_threshold) continue;
    // Offsetting a w x h rectangle by d grows each side by d.
    const double d = w * h * options.unclip_ratio / (2.0 * (w + h));
    if (std::min(w, h) + 2 * d < static_cast<double>(options.min_size + 2)) continue;
    const double sx = static_cast<double>(image_width) / static_cast<double>(map_width);
    const double sy = static_cast<double>(image_height) / static_cast<double>(map_height);
    auto scaled = [](double v, double scale, int64_t limit) {
      return std::clamp<int64_t>(std::llround(v * scale), 0, limit);
    };
    TextBox box;
    box.x0 = scaled(static_cast<double>(c.x0) - d, sx, image_width);
    box.x1 = scaled(static_cast<double>(c.x1) + d, sx, image_width);
    box.y0 = scaled(static_cast<double>(c.y0) - d, sy, image_height);
    box.y1 = scaled(static_cast<double>(c.y1) + d, sy, image_height);
    box.score = score;
    if (box.x1 > box.x0 && box.y1 > box.y0) boxes.push_back(box);
  }
  std::sort(boxes.begin(), boxes.end(),
            [](const TextBox& a, const TextBox& b) { return a.y0 != b.y0 ? a.y0 < b.y0 : a.x0 < b.x0; });
  // Boxes of one line have nearly equal tops: left to right among them.
  for (size_t i = 1; i < boxes.size(); ++i) {
    for (size_t j = i; j > 0 && std::abs(boxes[j].y0 - boxes[j - 1].y0) < 10 && boxes[j].x0 < boxes[j - 1].x0; --j) {
      std::swap(boxes[j], boxes[j - 1]);
    }
  }
  return boxes;
}

}  // namespace glpool
