#include "samples/face_detection.h"

#include <algorithm>
#include <cmath>

namespace glpool {

FaceModelConfig ShortRangeFaceConfig() {
  FaceModelConfig config;
  config.name = "short";
  config.input_size = 128;
  config.strides = {8, 16, 16, 16};
  config.interpolated_anchor = true;
  config.score_threshold = 0.5f;
  return config;
}

FaceModelConfig FullRangeFaceConfig() {
  FaceModelConfig config;
  config.name = "full";
  config.input_size = 192;
  config.strides = {4};
  config.interpolated_anchor = false;
  config.score_threshold = 0.6f;
  return config;
}

std::vector<Anchor> FaceAnchors(const FaceModelConfig& config) {
  std::vector<Anchor> anchors;
  size_t layer = 0;
  while (layer < config.strides.size()) {
    // Consecutive layers of one stride share a grid: their anchors are
    // emitted together at each cell.
    const int stride = config.strides[layer];
    size_t end = layer;
    while (end < config.strides.size() && config.strides[end] == stride) ++end;
    const size_t per_cell = (end - layer) * (config.interpolated_anchor ? 2 : 1);
    const int64_t cells = (config.input_size + stride - 1) / stride;
    for (int64_t y = 0; y < cells; ++y) {
      for (int64_t x = 0; x < cells; ++x) {
        const Anchor anchor{(static_cast<float>(x) + 0.5f) / static_cast<float>(cells),
                            (static_cast<float>(y) + 0.5f) / static_cast<float>(cells)};
        anchors.insert(anchors.end(), per_cell, anchor);
      }
    }
    layer = end;
  }
  return anchors;
}

std::vector<Face> DecodeFaces(const std::vector<float>& regressors, const std::vector<float>& logits,
                              const std::vector<Anchor>& anchors, const FaceModelConfig& config) {
  std::vector<Face> faces;
  const float scale = static_cast<float>(config.input_size);
  const size_t count = std::min({anchors.size(), logits.size(), regressors.size() / 16});
  for (size_t i = 0; i < count; ++i) {
    const float logit = std::clamp(logits[i], -100.0f, 100.0f);
    const float score = 1.0f / (1.0f + std::exp(-logit));
    if (!(score >= config.score_threshold)) continue;
    const float* raw = &regressors[i * 16];
    Face face;
    face.x = raw[0] / scale + anchors[i].x;
    face.y = raw[1] / scale + anchors[i].y;
    face.width = raw[2] / scale;
    face.height = raw[3] / scale;
    if (!(face.width > 0 && face.height > 0)) continue;
    for (size_t k = 0; k < 6; ++k) {
      face.keypoints[k] = {raw[4 + 2 * k] / scale + anchors[i].x, raw[5 + 2 * k] / scale + anchors[i].y};
    }
    face.score = score;
    faces.push_back(face);
  }
  return faces;
}

float IntersectionOverUnion(const Face& a, const Face& b) {
  const float w = std::min(a.right(), b.right()) - std::max(a.left(), b.left());
  const float h = std::min(a.bottom(), b.bottom()) - std::max(a.top(), b.top());
  if (w <= 0 || h <= 0) return 0;
  const float intersection = w * h;
  return intersection / (a.width * a.height + b.width * b.height - intersection);
}

std::vector<Face> WeightedSuppression(std::vector<Face> faces, float iou_threshold) {
  std::stable_sort(faces.begin(), faces.end(), [](const Face& a, const Face& b) { return a.score > b.score; });
  std::vector<Face> kept;
  std::vector<bool> taken(faces.size(), false);
  for (size_t best = 0; best < faces.size(); ++best) {
    if (taken[best]) continue;
    // Edges of one blended box: x0, y0, x1, y1, then the keypoints.
    double total = 0, left = 0, top = 0, right = 0, bottom = 0;
    std::array<std::array<double, 2>, 6> keypoints{};
    for (size_t other = best; other < faces.size(); ++other) {
      // The best overlaps itself fully, so it always joins its own group.
      if (taken[other] || IntersectionOverUnion(faces[best], faces[other]) <= iou_threshold) continue;
      taken[other] = true;
      const Face& f = faces[other];
      total += f.score;
      left += f.score * f.left();
      top += f.score * f.top();
      right += f.score * f.right();
      bottom += f.score * f.bottom();
      for (size_t k = 0; k < 6; ++k) {
        keypoints[k][0] += f.score * f.keypoints[k][0];
        keypoints[k][1] += f.score * f.keypoints[k][1];
      }
    }
    Face merged = faces[best];
    if (total > 0) {
      merged.x = static_cast<float>((left + right) / (2 * total));
      merged.y = static_cast<float>((top + bottom) / (2 * total));
      merged.width = static_cast<float>((right - left) / total);
      merged.height = static_cast<float>((bottom - top) / total);
      for (size_t k = 0; k < 6; ++k) {
        merged.keypoints[k] = {static_cast<float>(keypoints[k][0] / total), static_cast<float>(keypoints[k][1] / total)};
      }
    }
    kept.push_back(merged);
  }
  return kept;
}

}  // namespace glpool
