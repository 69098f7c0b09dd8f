// Inputs for `glpool run`: a tensor file, an image, or a deterministic fill.
#pragma once

#include <string>

#include "glpool/tensor.h"

namespace glpool {

// One model input as the sample fills it.
struct InputSpec {
  std::string name;
  DataType dtype = DataType::kFloat32;
  Shape shape;
};

// Reads FILE.pb (a serialized ONNX TensorProto) or an image (PNG/JPEG/BMP,
// via stb_image) resized to the input's H x W, RGB in [0, 1], NCHW; its
// dtype and shape must match `input`. An empty path gives float values in
// [0, 1) from a fixed seed (zeros for integer and bool inputs).
StatusOr<TensorData> LoadModelInput(const std::string& path, const InputSpec& input);

}  // namespace glpool
