// Text detection around PP-OCR's DB network: its input made as PaddleOCR's
// inference makes it, and boxes from its probability map. No GL.
#pragma once

#include <cstdint>
#include <vector>

#include "samples/image_preprocess.h"
#include "samples/ocr_geometry.h"

namespace glpool {

// A text region in the original image's pixels: a rectangle, tilted as the
// text is, its corners rounded to whole pixels.
struct TextBox {
  Quad corners;        // top-left, top-right, bottom-right, bottom-left
  float score = 0.0f;  // mean text probability inside the region (before unclip)
};

// The det input's H x W for an image: each side scaled by one factor so the
// longer is at most `limit_side` (never enlarged), then rounded to a
// multiple of 32 (at least 32) — the network halves the size five times.
// Returns {height, width}.
std::pair<int64_t, int64_t> DetInputSize(int64_t width, int64_t height, int64_t limit_side = 960);

// The det input tensor, 1 x 3 x H x W: the image resized to DetInputSize
// (8-bit, as OpenCV resizes), (x / 255 - mean) / std with ImageNet's mean
// and std, channels B, G, R (PaddleOCR reads images with OpenCV and applies
// ImageNet's R, G, B mean to B, G, R as they come: the network was trained
// that way).
TensorData DetInput(const RgbImage& image, int64_t limit_side = 960);

// PaddleOCR's DB postprocess defaults.
struct DetPostprocess {
  float threshold = 0.3f;      // a pixel is text above this probability
  float box_threshold = 0.6f;  // a region is kept when its mean probability is at least this
  float unclip_ratio = 1.5f;   // DB shrinks regions in training; grown back by area * ratio / perimeter
  int64_t min_size = 3;        // shorter side, in map pixels, of regions kept
  size_t max_candidates = 1000;
};

// Boxes of `probability` (map_width x map_height, row-major, the det
// output for an image of image_width x image_height), as DB's postprocess
// in PaddleOCR makes them: pixels above the threshold, 8-connected
// components, each component's minimum-area rectangle (over its pixel
// centres) scored by the mean probability inside it, grown by the unclip
// distance on every side, its corners scaled to the image, rounded and
// clipped; boxes 3 pixels or thinner are dropped. Sorted in reading order:
// by the top-left corner, top to bottom, left to right within a line (tops
// within 10 pixels).
std::vector<TextBox> BoxesFromProbabilityMap(const std::vector<float>& probability, int64_t map_width,
                                             int64_t map_height, int64_t image_width, int64_t image_height,
                                             const DetPostprocess& options = {});

}  // namespace glpool
