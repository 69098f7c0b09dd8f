// The picture `glpool ocr --out` writes: the image with each text box drawn.
#pragma once

#include <string>
#include <vector>

#include "samples/image_preprocess.h"
#include "samples/ocr_det.h"

namespace glpool {

// `image` with each box's outline (its four sides) in green, 2 pixels
// wide, written as an RGB PNG; kInvalidArgument naming `path` when it
// cannot be written.
Status WriteBoxesPng(const RgbImage& image, const std::vector<TextBox>& boxes, const std::string& path);

}  // namespace glpool
