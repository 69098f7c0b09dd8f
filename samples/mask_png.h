// Writing a mask-shaped output (N x 1 x H x W: saliency, a segmentation
// probability) as an 8-bit grayscale PNG, values in [0, 1] mapped to 0..255.
#pragma once

#include <string>

#include "glpool/tensor.h"

namespace glpool {

// Writes the first image of `mask`; values outside [0, 1] are clamped.
Status WriteMaskPng(const TensorData& mask, const std::string& path);

}  // namespace glpool
