// Inputs for `glpool run`: a tensor file, an image, or a deterministic fill.
#pragma once

#include <string>

#include "glpool/tensor.h"

namespace glpool {

// Reads FILE.pb (a serialized ONNX TensorProto) or an image (PNG/JPEG/BMP,
// via stb_image) resized to the input's H x W, RGB in [0, 1], NCHW; its shape
// must match `shape` (input `name`). An empty path gives values in [0, 1)
// from a fixed seed.
StatusOr<TensorData> LoadModelInput(const std::string& path, const std::string& name, const Shape& shape);

}  // namespace glpool
