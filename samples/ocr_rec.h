// Text lines for PP-OCR's direction classifier and recogniser: cropping a
// box, the line tensors as PaddleOCR's inference makes them, and CTC
// decoding. No GL.
#pragma once

#include <string>
#include <vector>

#include "samples/image_preprocess.h"
#include "samples/ocr_det.h"

namespace glpool {

// The box's pixels, upright: the crop is as wide as the box's longer
// top/bottom side and as tall as its longer left/right side (whole
// pixels), each pixel sampled bilinearly along the box's sides from its
// top-left corner (edges replicated), as PaddleOCR's perspective crop. A
// crop at least 1.5 times taller than wide is turned a quarter
// counter-clockwise (vertical text read top to bottom), as PaddleOCR does.
RgbImage CropBox(const RgbImage& image, const TextBox& box);

RgbImage Rotate180(const RgbImage& image);

// The width of the recogniser's input for a batch of crops: `height` x the
// widest aspect ratio among them, at least 320 / 48 of it (PaddleOCR's
// rec_image_shape 3,48,320).
int64_t RecInputWidth(const std::vector<const RgbImage*>& crops, int64_t height = 48);

// An N x 3 x height x width tensor of line crops (N = crops.size()): each
// crop resized to `height`, keeping its aspect ratio up to `width` (8-bit,
// as OpenCV resizes), then x / 127.5 - 1 in B, G, R order at the left, 0 to
// the right.
TensorData LinesInput(const std::vector<const RgbImage*>& crops, int64_t height, int64_t width);

// The direction classifier's answer (its 1 x 2 softmax: 0 and 180 degrees).
struct Direction {
  bool upside_down = false;  // 180 degrees with a score above the threshold
  float score = 0.0f;        // the winning class's probability
  int degrees = 0;           // the winning class: 0 or 180
};
// `softmax`: one row of the classifier's N x 2 output.
Direction ReadDirection(const float* softmax, float threshold = 0.9f);

struct DecodedText {
  std::string text;
  float score = 0.0f;  // mean probability of the characters kept; 0 when none
};

// Greedy CTC over `probabilities` (steps x classes, row-major: one batch
// item of the recogniser's output): the best
// class per step, repeats collapsed, blanks (class 0) dropped; characters
// from `classes` (ReadOcrDictionary).
DecodedText CtcGreedyDecode(const float* probabilities, int64_t steps,
                            const std::vector<std::string>& classes);

}  // namespace glpool
