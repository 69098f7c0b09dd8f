// Broadcasting across PHWC4 layouts.
//
// A kernel walks the output's (n, c, h, w) coordinates; an input of another
// shape is read at coordinates derived from them. The map says, for each of
// the input's own axes n, c, h, w, which output axis supplies its coordinate
// (0..3) or -1 where the input has size 1 there (numpy broadcasting, shapes
// right-aligned). Shapes whose broadcasting cannot be expressed this way
// (a broadcast inside the folded middle dims of rank >= 5) are unsupported.
#pragma once

#include <array>
#include <string>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct BroadcastMap {
  bool same = false;             // identical shape and layout: plain vec4 loads
  std::array<int, 4> axes{0, 1, 2, 3};
  std::string Glsl() const;      // "ivec4(0, 1, -1, 3)"
};

StatusOr<BroadcastMap> MapBroadcast(const Shape& input, const Shape& output);

}  // namespace glpool
