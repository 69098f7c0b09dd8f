// MediaPipe's BlazeFace detectors (face_detection_short_range.tflite,
// face_detection_full_range.tflite) turned into face boxes: the SSD anchor
// grid the networks were trained on, the decoding of their regressors and
// scores, and MediaPipe's weighted non-maximum suppression. Pure CPU code,
// no GL: FaceDetector (face_detector.h) runs the network.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace glpool {

// One anchor: its centre in [0, 1] of the network's input; its size is
// fixed at 1 x 1 for these networks (the regressors give absolute sizes).
struct Anchor {
  float x = 0, y = 0;
};

// How a detector's anchors are laid out and its outputs scaled.
struct FaceModelConfig {
  std::string name;                 // "short" or "full"
  int64_t input_size = 0;           // square input, pixels
  std::vector<int> strides;         // one per SSD layer
  bool interpolated_anchor = false; // a second anchor per layer (short range)
  float score_threshold = 0.5f;
  float iou_threshold = 0.3f;       // suppression between overlapping faces
};

// short: 128 x 128 input, layers of stride 8, 16, 16, 16, two anchors per
// layer (896 anchors); full: 192 x 192, one layer of stride 4 (2304).
FaceModelConfig ShortRangeFaceConfig();
FaceModelConfig FullRangeFaceConfig();

// The anchors in the order the networks emit their rows: for each run of
// layers with the same stride, row-major over that stride's grid, and at
// each cell every anchor of every layer in the run.
std::vector<Anchor> FaceAnchors(const FaceModelConfig& config);

// A face in [0, 1] of the network's input: box centre and size, six
// keypoints (eyes, nose tip, mouth, ears: MediaPipe's order), score.
struct Face {
  float x = 0, y = 0, width = 0, height = 0;
  std::array<std::array<float, 2>, 6> keypoints{};
  float score = 0;

  float left() const { return x - width / 2; }
  float top() const { return y - height / 2; }
  float right() const { return x + width / 2; }
  float bottom() const { return y + height / 2; }
};

// Rows whose score (the sigmoid of the raw logit, clamped to +-100 first as
// MediaPipe does) reaches config.score_threshold, decoded against their
// anchors. `regressors` holds 16 values per anchor (centre x, y, width,
// height, then six keypoints x, y, in input pixels), `logits` one.
std::vector<Face> DecodeFaces(const std::vector<float>& regressors, const std::vector<float>& logits,
                              const std::vector<Anchor>& anchors, const FaceModelConfig& config);

float IntersectionOverUnion(const Face& a, const Face& b);

// MediaPipe's weighted suppression: the best remaining face and every face
// overlapping it by more than `iou_threshold` become one face whose box and
// keypoints are their score-weighted mean and whose score is the best's.
// Best first.
std::vector<Face> WeightedSuppression(std::vector<Face> faces, float iou_threshold);

}  // namespace glpool
