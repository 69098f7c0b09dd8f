// The network's visual output, when it has one: an image-shaped input
// (1x3xHxW) with a mask-shaped output (1x1xHxW: segmentation, saliency)
// blended over it, as RGBA8 pixels the overlay shows as a texture.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "glpool/tensor.h"
#include "samples/image_preprocess.h"

namespace glpool::overlay {

struct VisualOutput {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom
  std::string input, mask;    // tensor names used
};

// nullopt when no input/output pair has those shapes. The first such output
// in name order is used; the mask is stretched to [0, 1] by its own range,
// so logits and probabilities both show.
// A picture a sample drew (faces on a photo, a blended mask), labelled.
VisualOutput VisualFromRgb(const RgbImage& image, const std::string& input, const std::string& label);

std::optional<VisualOutput> MakeVisualOutput(const std::map<std::string, TensorData>& inputs,
                                             const std::map<std::string, TensorData>& outputs);

}  // namespace glpool::overlay
