// Reads the bound framebuffer (an offscreen target, or a window's back
// buffer) as RGBA8, rows top to bottom the way images and ImGui count them.
#pragma once

#include <cstdint>
#include <vector>

#include "glpool/status.h"

namespace glpool::overlay {

StatusOr<std::vector<uint8_t>> ReadFramebufferRgba8(int width, int height);

}  // namespace glpool::overlay
