#include "samples/ocr_det.h"

#include <algorithm>
#include <cmath>

namespace glpool {
namespace {

// The pixels of each 8-connected component of the thresholded map, found
// by an explicit-stack flood fill; as points at pixel centres (integers),
// only each row's leftmost and rightmost pixel (all the hull needs).
std::vector<std::vector<Point>> Components(const std::vector<uint8_t>& text, int64_t width, int64_t height) {
  std::vector<uint8_t> seen(text.size(), 0);
  std::vector<std::vector<Point>> components;
  std::vector<int64_t> stack;
  std::vector<std::pair<int64_t, int64_t>> rows;  // per row of the map: leftmost, rightmost
  for (int64_t start = 0; start < width * height; ++start) {
    if (!text[static_cast<size_t>(start)] || seen[static_cast<size_t>(start)]) continue;
    std::vector<int64_t> touched_rows;
    rows.assign(static_cast<size_t>(height), {-1, -1});
    seen[static_cast<size_t>(start)] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const int64_t at = stack.back();
      stack.pop_back();
      const int64_t x = at % width, y = at / width;
      auto& row = rows[static_cast<size_t>(y)];
      if (row.first < 0) {
        row = {x, x};
        touched_rows.push_back(y);
      }
      row.first = std::min(row.first, x);
      row.second = std::max(row.second, x);
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
    std::vector<Point> points;
    for (int64_t y : touched_rows) {
      const auto& row = rows[static_cast<size_t>(y)];
      points.push_back({static_cast<double>(row.first), static_cast<double>(y)});
      points.push_back({static_cast<double>(row.second), static_cast<double>(y)});
    }
    components.push_back(std::move(points));
  }
  return components;
}

// Mean probability over the map pixels inside `quad` (map coordinates).
float MeanInside(const std::vector<float>& probability, int64_t width, int64_t height, const Quad& quad) {
  double min_x = quad[0].x, max_x = quad[0].x, min_y = quad[0].y, max_y = quad[0].y;
  for (const Point& p : quad) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y);
    max_y = std::max(max_y, p.y);
  }
  const int64_t x0 = std::clamp<int64_t>(static_cast<int64_t>(std::floor(min_x)), 0, width - 1);
  const int64_t x1 = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(max_x)), 0, width - 1);
  const int64_t y0 = std::clamp<int64_t>(static_cast<int64_t>(std::floor(min_y)), 0, height - 1);
  const int64_t y1 = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(max_y)), 0, height - 1);
  double sum = 0;
  int64_t count = 0;
  for (int64_t y = y0; y <= y1; ++y) {
    for (int64_t x = x0; x <= x1; ++x) {
      if (!InsideQuad(quad, {static_cast<double>(x), static_cast<double>(y)})) continue;
      sum += probability[static_cast<size_t>(y * width + x)];
      ++count;
    }
  }
  return count > 0 ? static_cast<float>(sum / static_cast<double>(count)) : 0.0f;
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
  std::vector<std::vector<Point>> components = Components(text, map_width, map_height);
  if (components.size() > options.max_candidates) components.resize(options.max_candidates);
  const double sx = static_cast<double>(image_width) / static_cast<double>(map_width);
  const double sy = static_cast<double>(image_height) / static_cast<double>(map_height);
  const double min_size = static_cast<double>(options.min_size);
  std::vector<TextBox> boxes;
  for (const std::vector<Point>& pixels : components) {
    const RotatedRect rect = MinAreaRect(ConvexHull(pixels));
    if (std::min(rect.width, rect.height) < min_size) continue;
    const float score = MeanInside(probability, map_width, map_height, Corners(rect));
    if (score < options.box_threshold) continue;
    // Offsetting a w x h rectangle by d grows each side by d.
    const double d = rect.width * rect.height * options.unclip_ratio / (2.0 * (rect.width + rect.height));
    const RotatedRect grown = Grown(rect, d);
    if (std::min(grown.width, grown.height) < min_size + 2) continue;
    TextBox box;
    box.score = score;
    const Quad corners = Corners(grown);
    for (size_t i = 0; i < 4; ++i) {
      box.corners[i] = {static_cast<double>(std::clamp<int64_t>(std::llround(corners[i].x * sx), 0, image_width)),
                        static_cast<double>(std::clamp<int64_t>(std::llround(corners[i].y * sy), 0, image_height))};
    }
    // As PaddleOCR's filter: boxes 3 pixels or thinner after clipping go.
    if (static_cast<int64_t>(Distance(box.corners[0], box.corners[1])) <= 3 ||
        static_cast<int64_t>(Distance(box.corners[0], box.corners[3])) <= 3) {
      continue;
    }
    boxes.push_back(box);
  }
  auto top = [](const TextBox& b) { return b.corners[0].y; };
  auto left = [](const TextBox& b) { return b.corners[0].x; };
  std::sort(boxes.begin(), boxes.end(),
            [&](const TextBox& a, const TextBox& b) { return top(a) != top(b) ? top(a) < top(b) : left(a) < left(b); });
  // Boxes of one line have nearly equal tops: left to right among them.
  for (size_t i = 1; i < boxes.size(); ++i) {
    for (size_t j = i; j > 0 && std::abs(top(boxes[j]) - top(boxes[j - 1])) < 10 && left(boxes[j]) < left(boxes[j - 1]);
         --j) {
      std::swap(boxes[j], boxes[j - 1]);
    }
  }
  return boxes;
}

}  // namespace glpool
