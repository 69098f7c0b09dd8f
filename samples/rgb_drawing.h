// Drawing on RGB images for the samples' PNGs: box outlines, dots, a mask
// blended over a photo, and writing the result.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "glpool/status.h"
#include "samples/image_preprocess.h"

namespace glpool {

using Rgb = std::array<uint8_t, 3>;

// The outline of [left, right] x [top, bottom] (pixels, clipped to the
// image), `thickness` pixels wide, inside the box.
void DrawBoxOutline(RgbImage& image, float left, float top, float right, float bottom, Rgb color, int thickness = 2);

// A filled disc of `radius` pixels at (x, y), clipped to the image.
void DrawDot(RgbImage& image, float x, float y, float radius, Rgb color);

// Each pixel kept where `mask` (one value in [0, 1] per pixel) is 1 and
// dimmed and tinted toward `tint` where it is 0, linearly between.
void BlendMask(RgbImage& image, const std::vector<float>& mask, Rgb tint);

// An RGB PNG; kInvalidArgument naming `path` when it cannot be written.
Status WriteRgbPng(const RgbImage& image, const std::string& path);

}  // namespace glpool
