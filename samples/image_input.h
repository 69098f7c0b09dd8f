// Image bytes -> a model input tensor, for `glpool run --input IMAGE` and the
// image fuzz target. Pure decoding: no files, no GL.
#pragma once

#include <cstdint>
#include <string>

#include "samples/image_preprocess.h"
#include "samples/model_input.h"

namespace glpool {

// The largest image decoded: 2^28 pixels (16384 x 16384, 768 MiB as RGB).
// The header is checked before any pixel is allocated, so a file that only
// claims huge dimensions costs nothing.
constexpr uint64_t kMaxImagePixels = uint64_t{1} << 28;
// The most bytes an image file may hold (256 MiB), checked before reading.
constexpr uint64_t kMaxImageFileBytes = uint64_t{1} << 28;

// The image's width and height from its header alone (no pixel decoded).
StatusOr<std::pair<int64_t, int64_t>> ImageSize(const std::string& bytes, const std::string& label);

// Decodes PNG, JPEG or BMP `bytes` (stb_image; other formats are refused)
// to RGB. Errors (kInvalidArgument) name `label`: undecodable bytes, an
// image of more than `max_pixels` pixels.
StatusOr<RgbImage> DecodeRgbImage(const std::string& bytes, const std::string& label,
                                  uint64_t max_pixels = kMaxImagePixels);

// Reads the image file at `path` (at most kMaxImageFileBytes) and decodes
// it as DecodeRgbImage does; errors name the path.
StatusOr<RgbImage> LoadRgbImageFile(const std::string& path);

// Decodes `bytes` and makes `input`'s tensor of it (ImageToTensor with
// `preprocess`; the default: stretched to H x W, RGB in [0, 1]). `input`
// must be Nx3xHxW float32 (kInvalidArgument naming `label` otherwise).
StatusOr<TensorData> DecodeImageInput(const std::string& bytes, const std::string& label, const InputSpec& input,
                                      const ImagePreprocess& preprocess = {}, uint64_t max_pixels = kMaxImagePixels);

}  // namespace glpool
