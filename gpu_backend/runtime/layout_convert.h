// Host-side conversion between logical (row-major NCHW...) tensor data and
// PHWC4 texels (gpu_backend/graph/phwc4_layout.h), for graph inputs,
// outputs and constants crossing the host/GPU boundary.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"

namespace glpool {

// Logical values (ElementCount of the shape) -> texels * 4 floats, padding 0.
std::vector<float> ToPhwc4(const std::vector<float>& logical, const Phwc4Layout& layout);
// The inverse: texels * 4 floats -> logical values.
std::vector<float> FromPhwc4(const std::vector<float>& texels, const Phwc4Layout& layout);

// Packs/unpacks fp16 pairs the way GLSL's packHalf2x16 does (x in the low half).
std::vector<uint32_t> PackHalves(const std::vector<float>& values);
std::vector<float> UnpackHalves(const std::vector<uint32_t>& packed);

}  // namespace glpool
