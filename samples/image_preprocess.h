// Decoded images and how they become a model's input tensor: the resize
// mode, per-channel mean and std, and channel order that `glpool run
// --input IMAGE` and `glpool ocr` apply. No GL, no files.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "glpool/tensor.h"

namespace glpool {

// 8-bit RGB pixels, row-major, 3 bytes per pixel.
struct RgbImage {
  int64_t width = 0;
  int64_t height = 0;
  std::vector<uint8_t> pixels;

  uint8_t at(int64_t x, int64_t y, int c) const {
    return pixels[static_cast<size_t>((y * width + x) * 3 + c)];
  }
};

// How an image meets the input's H x W:
//   stretch      both axes scaled to fit exactly (the aspect ratio changes);
//   keep-aspect  scaled by one factor to fit inside, placed at the top-left,
//                the rest 0 (in the model's units, after mean/std, as
//                PaddleOCR pads);
//   crop         scaled by one factor to cover, the centre cut out.
enum class ResizeMode { kStretch, kKeepAspect, kCrop };

struct ImagePreprocess {
  ResizeMode resize = ResizeMode::kStretch;
  // value = (pixel / 255 - mean[c]) / std[c], c in the tensor's channel
  // order (after the swap to BGR when `bgr`).
  std::array<float, 3> mean = {0.0f, 0.0f, 0.0f};
  std::array<float, 3> std = {1.0f, 1.0f, 1.0f};
  bool bgr = false;  // channel 0 is blue (OpenCV-trained models)
};

// From the command line's words: resize "stretch" | "keep-aspect" | "crop",
// mean and std as "0.485,0.456,0.406" (empty: the defaults), channels "rgb"
// | "bgr". kInvalidArgument naming the flag otherwise (a std of 0 too).
StatusOr<ImagePreprocess> ParseImagePreprocess(const std::string& resize, const std::string& mean,
                                               const std::string& std, const std::string& channels);

// The image as an N x 3 x H x W float tensor (`shape`), copied over the
// batch. Resampling is bilinear with pixel centres aligned (half-pixel).
TensorData ImageToTensor(const RgbImage& image, const Shape& shape, const ImagePreprocess& preprocess);

// The image bilinearly resampled to width x height (half-pixel centres).
RgbImage ResizeImage(const RgbImage& image, int64_t width, int64_t height);

}  // namespace glpool
