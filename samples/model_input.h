// Inputs for `glpool run`: a tensor file, an image, or a deterministic fill.
#pragma once

#include <string>

#include "glpool/model.h"
#include "glpool/tensor.h"
#include "samples/image_preprocess.h"

namespace glpool {

// One model input as the sample fills it.
struct InputSpec {
  std::string name;
  DataType dtype = DataType::kFloat32;
  Shape shape;
};

// Reads FILE.pb (a serialized ONNX TensorProto) or an image (PNG/JPEG/BMP,
// via stb_image) made into the input's N x 3 x H x W by `preprocess`
// (default: stretched, RGB in [0, 1]); its dtype and shape must match
// `input`. An empty path gives float values in [0, 1) from a fixed seed
// (zeros for integer and bool inputs).
StatusOr<TensorData> LoadModelInput(const std::string& path, const InputSpec& input,
                                    const ImagePreprocess& preprocess = {});

// The shape an input file gives `input`'s symbolic dims: a tensor file's own
// shape; for an image (rank-4 NCHW input), H and W from the image's size
// where symbolic, N 1 and C 3 where symbolic. Fixed dims are kept (the
// image is resized to them; a tensor file must match them).
StatusOr<Shape> ShapeFromInputFile(const std::string& path, const TensorInfo& input);

}  // namespace glpool
